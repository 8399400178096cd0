"""Handlers for system tools whose verbs decide: a listing verb is a read (``kill -l``,
``crontab -l``, ``ip addr show``), anything else keeps the tool's system effect; ``su -c``
runs its command string."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed
from bastion.shell.handlers_escape import HANDLERS as ESCAPE_HANDLERS
from bastion.shell.model import Access
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


def service(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    verbs = [w.value for w in ctx.words[1:]]
    if "--status-all" in verbs or (len(verbs) > 1 and verbs[1] == "status"):
        ctx.effects.discard(E.SYSTEM)
        ctx.add(E.READ)
        ctx.reader = True


def kill(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    vals = [w.value for w in ctx.words[1:]]
    if vals[:1] in (["-l"], ["-L"], ["--list"]):
        ctx.effects.discard(E.CODE)
        ctx.add(E.READ)
        ctx.reader = True
        return
    if "-1" in vals[1:] or (vals == ["-1"]) or "1" in vals or ("--" in vals and "-1" in vals):
        ctx.add(E.SYSTEM, note="kill -1 / PID 1 signals every process or init")
        if len(vals) > 1 and "-1" in vals[1:]:
            ctx.add(E.DESTRUCTIVE, note="kill ... -1 kills every process you own")
            ctx.catastrophic = "kill ... -1 kills every process you own: the whole session"
    if any(v is None for v in vals):
        ctx.note("target process only known at run time")


def sysctl(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if any("=" in (w.value or "=") for w in positionals):
        ctx.add(E.SYSTEM, note="sysctl NAME=VALUE changes the kernel")


def firewall(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    vals = {w.value for w in ctx.words[1:]}
    listing = {
        "-L",
        "-S",
        "--list",
        "--list-rules",
        "status",
        "list",
        "-nL",
        "-nvL",
        "--state",
        "--list-all",
        "show",
    }
    if vals & listing and not vals & {
        "-A",
        "-D",
        "-I",
        "-F",
        "-X",
        "-P",
        "-N",
        "flush",
        "add",
        "delete",
        "enable",
        "disable",
        "reset",
    }:
        ctx.effects.discard(E.SYSTEM)
        ctx.add(E.READ)
        ctx.reader = True


def crontab(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if parsed.has("-l") and not parsed.has("-r", "-e", "-i"):
        ctx.effects.discard(E.SYSTEM)
        ctx.add(E.READ)
        ctx.reader = True
        return
    if parsed.has("-r") and not parsed.has("-i"):
        # every job of the user gone, no prompt and no copy kept (crontab(1))
        ctx.catastrophic = "crontab -r deletes the user's whole crontab without asking"
    for w in positionals:
        ctx.path(w, Access.READ, "crontab file installed")


_IP_READ = frozenset({"show", "list", "ls", "lst", "get", "sh", "s", "l", "help"})


#: `ip -h` (iproute2 6.x) options that only change the output; -n/-f/-l/-rc take a value.
#: -b/-batch FILE and -force run the commands a file holds: not here, so unknown.
_IP_OPTIONS = frozenset(
    [
        "-4",
        "-6",
        "-0",
        "-B",
        "-M",
        "-s",
        "-stats",
        "-statistics",
        "-d",
        "-details",
        "-h",
        "-human",
        "-human-readable",
        "-iec",
        "-j",
        "-json",
        "-p",
        "-pretty",
        "-o",
        "-oneline",
        "-br",
        "-brief",
        "-c",
        "-color",
        "-t",
        "-timestamp",
        "-ts",
        "-tshort",
        "-a",
        "-all",
        "-V",
        "-Version",
    ]
)
_IP_VALUED = frozenset(["-f", "-family", "-n", "-netns", "-l", "-loops", "-rc", "-rcvbuf"])


def ip(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    args = ctx.words[1:]
    i = 0
    while i < len(args) and (args[i].value or "x").startswith("-"):
        option = (args[i].value or "").split("=", 1)[0]
        if option in _IP_VALUED:
            i += 1
        elif option not in _IP_OPTIONS:
            ctx.raise_at(i + 1, E.UNKNOWN, note=f"ip: option {args[i].text!r} is not in its table")
        i += 1
    words = [w.value for w in args[i:]]
    if len(words) < 2 or words[1] in _IP_READ:
        ctx.effects.discard(E.SYSTEM)
        ctx.add(E.READ)
        ctx.reader = True


def su(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    args = ctx.words[1:]
    for i, w in enumerate(args[:-1]):
        if w.value in ("-c", "--command"):
            nxt = args[i + 1]
            if nxt.value is None:
                ctx.dynamic = True
            else:
                ctx.inner.extend(ctx.run_source(ctx, nxt.value, "su -c"))
            return
    ctx.note("su without -c starts a shell")


HANDLERS = {
    "service": service, "kill": kill, "sysctl": sysctl, "firewall": firewall,
    "crontab": crontab, "ip": ip, "su": su, **ESCAPE_HANDLERS,
}  # fmt: skip
