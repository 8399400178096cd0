"""Handlers for calls that end the session or leave the sandbox altogether: each is denied
outright (``ctx.catastrophic``), never asked, whatever a person might answer.

- Powering off or rebooting the machine (``shutdown``, ``poweroff``, ``systemctl reboot``)
  ends the session and every process of every user on it.
- ``nsenter`` enters another process's namespaces and ``systemd-run`` has the service manager
  start the command as a unit of its own: both run it outside the sandbox Bastion built.
- A container run with the host's namespaces, full privileges or the host's root folder
  mounted (``docker run --privileged``, ``--pid=host``, ``-v /:/host``) is the host.
- ``gdb -ex 'shell CMD'`` runs CMD through the shell: classified as the command it is.
- A terminal multiplexer's server (``tmux send-keys``, ``screen -X stuff``) and the session's
  message bus (``busctl call``, ``dbus-send``, ``gdbus call``) run what they are told in
  processes that were started outside the sandbox: a command handed to them escapes it.
"""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect

#: Words that only print or cancel: `shutdown -c` cancels a pending shutdown.
_POWER_HARMLESS = frozenset({"--help", "-h", "--version", "-c", "--show"})

#: systemctl verbs that power the machine off, restart it or leave the running system.
SYSTEMCTL_POWER = frozenset(
    {
        "poweroff", "reboot", "halt", "kexec", "soft-reboot", "suspend", "hibernate",
        "hybrid-sleep", "suspend-then-hibernate", "emergency", "rescue", "isolate",
        "switch-root", "exit", "default",
    }
)  # fmt: skip

#: Container options that hand the container the host: its namespaces, every capability,
#: its devices.
_HOST_NAMESPACES = frozenset({"--pid", "--ipc", "--uts", "--userns", "--cgroupns", "--network", "--net"})
_HOST_CAPABILITIES = frozenset({"ALL", "SYS_ADMIN", "SYS_PTRACE", "SYS_MODULE", "DAC_READ_SEARCH"})
#: Host folders whose mount into a container is the host (or its container engine).
_HOST_SOURCES = frozenset(
    {
        "/", "/etc", "/root", "/home", "/proc", "/sys", "/dev", "/boot", "/run", "/var/run",
        "/var/lib/docker", "/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock",
    }
)  # fmt: skip
_CONTAINER_RUNS = frozenset({"run", "create"})


def _values(words: list[Word]) -> list[str | None]:
    return [w.value for w in words]


def power(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    args = _values(ctx.words[1:])
    if args and all(a in _POWER_HARMLESS for a in args):
        return
    ctx.catastrophic = f"{ctx.program} powers off or restarts the machine: it ends the session"


def systemctl(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """Program-wide: any word that is a power verb (systemctl takes its options anywhere)."""
    verbs = [v for v in _values(ctx.words[1:]) if v is None or not v.startswith("-")]
    power_verb = next((v for v in verbs if v in SYSTEMCTL_POWER), None)
    if power_verb is not None:
        ctx.catastrophic = f"systemctl {power_verb} powers off, restarts or leaves the running system"
    elif verbs and verbs[0] is None:
        ctx.catastrophic = "systemctl with a verb only known at run time may power off the machine"


def escape(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    args = _values(ctx.words[1:])
    if args and all(a in ("--help", "-h", "--version", "-V") for a in args):
        return
    how = "enters another process's namespaces" if ctx.program == "nsenter" else "has systemd start it"
    ctx.catastrophic = f"{ctx.program} {how}: it runs outside the sandbox"


#: Per program, the verbs (or options) that only list or print what is there; any other verb
#: drives the server or the bus (screen, by its options instead: ``_SCREEN_DRIVES``).
_SESSION_READS: dict[str, frozenset[str]] = {
    "tmux": frozenset(
        {
            "ls",
            "list-sessions",
            "has-session",
            "has",
            "list-windows",
            "lsw",
            "list-panes",
            "lsp",
            "list-clients",
            "lsc",
            "list-keys",
            "lsk",
            "list-commands",
            "lscm",
            "-V",
            "-h",
        }
    ),
    "busctl": frozenset({"list", "status", "tree", "introspect", "--help", "-h", "--version"}),
    "gdbus": frozenset({"introspect", "help", "--help", "-h"}),
    "dbus-send": frozenset({"--help", "-h"}),
    "qdbus": frozenset({"--help", "-h"}),
    "qdbus6": frozenset({"--help", "-h"}),
}
#: screen's options that attach to a session or send it a command (``-X stuff 'id\n'``).
_SCREEN_DRIVES = frozenset({"-X", "-x", "-r", "-R", "-d", "-D", "-RR", "-DR", "-dr"})


def session_escape(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """A command handed to a tmux or screen server, or to the service bus, runs outside."""
    args = _values(ctx.words[1:])
    if ctx.program == "screen":
        driven = next((a for a in args if a is None or a in _SCREEN_DRIVES), "")
    else:
        reads = _SESSION_READS.get(ctx.program, frozenset())
        verbs = [a for a in args if a is None or not a.startswith("-") or a in reads]
        if ctx.program in ("qdbus", "qdbus6"):
            # qdbus SERVICE PATH METHOD calls the method; with fewer words it lists what is there
            verbs = ["call"] if len(verbs) >= 3 else []
        if not verbs and ctx.program == "tmux":
            verbs = ["new-session"]  # bare tmux starts a session
        driven = "" if not verbs or verbs[0] in reads else (verbs[0] or "a run-time verb")
    if driven:
        ctx.catastrophic = (
            f"{ctx.program} {driven}: it has a server started outside the sandbox (a terminal "
            "session or the service bus) run what it is given"
        )


def _option(word: str | None, following: str | None) -> tuple[str, str | None]:
    """``--pid=host`` / ``--pid host`` / ``-vSRC:DST`` → (name, value)."""
    text = word or ""
    if text.startswith("--"):
        name, eq, value = text.partition("=")
        return name, value if eq else following
    if text.startswith("-v") and len(text) > 2:
        return text[:2], text[2:]
    return text, following


def _host_source(spec_text: str) -> bool:
    """A -v SRC:DST[:opts] / --mount type=bind,source=SRC,… whose SRC is the host's."""
    if "=" in spec_text and ("source=" in spec_text or "src=" in spec_text):
        fields = dict(f.partition("=")[::2] for f in spec_text.split(","))
        source = fields.get("source") or fields.get("src") or ""
    else:
        source = spec_text.split(":", 1)[0]
    source = source.rstrip("/") or "/"
    # HOME itself (``-v $HOME:/h``), or a dot-folder of it (``~/.ssh``, ``~/.config``): the
    # container, outside the sandbox, reads and writes the person's credentials and rc files
    return source in _HOST_SOURCES or source == "~" or source.startswith("~/.")


def container(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """Program-wide for docker / podman / nerdctl: ``run`` and ``create`` given the host.
    Every word after the verb is looked at (an image's own arguments too): fail closed."""
    words = _values(ctx.words[1:])
    verb = next((i for i, v in enumerate(words) if v in _CONTAINER_RUNS), None)
    if verb is None:
        return
    rest = words[verb + 1 :]
    for i, word in enumerate(rest):
        following = rest[i + 1] if i + 1 < len(rest) else None
        name, value = _option(word, following)
        why = None
        if name == "--privileged":
            why = "--privileged gives the container every device and capability of the host"
        elif name in _HOST_NAMESPACES and value == "host":
            why = f"{name}=host shares the host's namespace with the container"
        elif name == "--cap-add" and (value or "").upper().removeprefix("CAP_") in _HOST_CAPABILITIES:
            why = f"--cap-add {value} lets the container act on the host"
        elif name in ("-v", "--volume", "--mount") and value is not None and _host_source(value):
            why = f"{name} {value} mounts the host's {value.split(':', 1)[0] or '/'} into the container"
        if why is not None:
            ctx.catastrophic = f"{ctx.program} {words[verb]}: {why}: it runs outside the sandbox"
            return


#: gdb's ``attach PID`` in any unique spelling (gdb takes a command's prefixes: ``att 1``).
_GDB_ATTACH = re.compile(r"at(t(a(c(h)?)?)?)?(\s|$)")


def gdb(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``-ex CMD`` / ``--eval-command=CMD``: a ``shell`` or ``!`` command runs through the shell;
    ``attach`` there, or ``gdb PROGRAM PID``, reads a running process (``-p`` is a printer)."""
    ctx.add(E.CODE, note="gdb runs the program it debugs")
    if len(positionals) >= 2 and (positionals[1].value is None or positionals[1].value.isdigit()):
        ctx.disclose("gdb PROGRAM PID attaches to a running process: its memory, secrets and all")
    words = ctx.words[1:]
    for i, word in enumerate(words):
        name, value = _option(word.value, words[i + 1].value if i + 1 < len(words) else None)
        if name not in ("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex"):
            continue
        if value is None:
            ctx.dynamic = True
            continue
        command = value.strip()
        if _GDB_ATTACH.match(command):
            ctx.disclose(f"gdb {command!r} attaches to a running process: its memory, secrets and all")
        for lead in ("shell ", "!"):
            if command.startswith(lead):
                ctx.inner.extend(ctx.run_source(ctx, command[len(lead) :], f"gdb {lead.strip()}"))


HANDLERS = {
    "power": power, "systemctl": systemctl, "escape": escape, "container": container, "gdb": gdb,
    "session_escape": session_escape,
}  # fmt: skip
