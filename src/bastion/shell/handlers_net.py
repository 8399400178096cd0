"""Handlers for network clients: hosts, uploads (exfiltration), remote exec (cloud CLIs:
``handlers_cloud``)."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.handlers_cloud import HANDLERS as CLOUD_HANDLERS
from bastion.shell.hosts import any_host, bare_host, scp_host, url_host
from bastion.shell.model import Access, read_below
from bastion.shell.programs.spec import Spec
from bastion.shell.socat import socat_files
from bastion.shell.words import Word

E = Effect


def _at_file(ctx: Ctx, word: Word, why: str) -> None:
    """curl -d @file / -F name=@file / --json @file upload a local file."""
    value = word.value
    if value is None:
        # "@$HOME/…" keeps its shape in the sketch; any other run-time upload is unknown.
        home = re.search(r"(?:^|=)[@<]\x00(/[^;]*)", word.sketch)
        if home and word.vars[:1] == ("HOME",):
            value = "@~" + home.group(1)
        elif re.search(r"(?:^|=)[@<]", word.sketch):
            ctx.path(word, Access.READ, why)
            ctx.note("uploads a local file only known at run time")
            return
        else:
            return
    m = re.search(r"(?:^|=)[@<]([^;]+)", value)
    if m and m.group(1) != "-":
        path = m.group(1)
        ctx.path(Word(path, path, path), Access.READ, why)
        ctx.note(f"uploads local file {path}")


def curl(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    for flag in parsed.flags:
        if flag.value is None:
            continue
        if flag.name in (
            "-d",
            "--data",
            "--data-binary",
            "--data-urlencode",
            "--json",
            "--data-ascii",
            "-F",
            "--form",
            "-w",
            "--write-out",
        ):
            _at_file(ctx, flag.value, f"curl {flag.name} upload")
        if flag.name == "--url":
            host = url_host(flag.value.value or "")
            if host:
                ctx.host(host)
        if flag.name in ("--resolve", "--connect-to"):
            for address in _rerouted(flag.name, flag.value.value or ""):
                ctx.host(address)  # where it connects, whatever the URL names
    for word in positionals:
        value = word.value or ""
        if not url_host(value) and value and word.literal:
            host = bare_host(value.split("/")[0])
            if host:
                ctx.host(host)
    if not ctx.hosts:
        ctx.note("destination only known at run time")


def _fields(value: str) -> list[str]:
    """``host:port:addr`` split on colons outside ``[...]`` (an IPv6 literal)."""
    fields, current, depth = [], "", 0
    for ch in value:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        if ch == ":" and depth == 0:
            fields.append(current)
            current = ""
        else:
            current += ch
    fields.append(current)
    return fields


def _rerouted(option: str, value: str) -> list[str]:
    """The addresses ``curl --resolve [+]HOST:PORT:ADDR[,ADDR…]`` or ``--connect-to
    HOST1:PORT1:HOST2:PORT2`` connects to (IPv6 literals without their brackets)."""
    parts = _fields(value.lstrip("+-"))
    if option == "--resolve":
        targets = ":".join(parts[2:]).split(",") if len(parts) >= 3 else []
    else:
        targets = [parts[2]] if len(parts) >= 3 else []
    return [t.strip().strip("[]") for t in targets if t.strip().strip("[]")]


def wget(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if not parsed.has("-O", "-P"):
        ctx.note("wget writes the download in the cwd")
    for value in parsed.values("-e", "--execute"):
        key, _, proxy = (value.value or "").partition("=")
        if key.strip().lower().replace("-", "_") in ("http_proxy", "https_proxy", "ftp_proxy"):
            host = any_host(proxy.strip()) or bare_host(_fields(proxy.strip())[0].split("/")[0])
            if host:
                ctx.host(host)  # wget -e http_proxy=…: every request goes there
    curl(ctx, spec, Parsed((), ()), positionals)


_SSH_VALUES = frozenset(
    {
        "-p",
        "-i",
        "-o",
        "-F",
        "-l",
        "-J",
        "-L",
        "-R",
        "-D",
        "-W",
        "-b",
        "-c",
        "-E",
        "-e",
        "-I",
        "-m",
        "-O",
        "-Q",
        "-S",
        "-w",
        "-B",
    }
)


def ssh(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    parsed, _ = parse_args(ctx.words[1:], _SSH_VALUES)
    for flag in parsed.flags:
        if flag.name == "-o" and flag.value is not None:
            opt = (flag.value.value or "").lower().replace(" ", "=")
            if opt.startswith(
                ("proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match")
            ):
                ctx.add(E.CODE, note="ssh -o option runs a local program")
        if flag.name == "-i" and flag.value is not None:
            ctx.path(flag.value, Access.READ, "ssh identity file")
        if flag.name == "-F" and flag.value is not None:
            ctx.path(flag.value, Access.READ, "ssh config file")
        if flag.name in ("-L", "-R", "-D", "-w"):
            ctx.add(E.NETWORK, note=f"ssh {flag.name} opens a tunnel")
    if not parsed.positionals:
        return
    target = parsed.positionals[0]
    host = bare_host(target.value or "") or (target.value or "").rpartition("@")[2]
    if target.value is None:
        ctx.add(E.UNKNOWN, note="ssh destination only known at run time")
    elif host:
        ctx.host(host)
    remote = parsed.positionals[1:]
    if remote:
        ctx.add(E.CODE, note="remote exec: runs a command on " + (host or "the remote host"))
        # The remote shell runs the words joined by spaces: classify them like `sh -c` (its
        # paths are the remote host's, checked here as if local: stricter, never looser).
        words = ctx.words[ctx.words.index(target) + 1 :]
        if any(w.value is None for w in words):
            ctx.dynamic = True
        else:
            ctx.inner.extend(ctx.run_source(ctx, " ".join(w.value or "" for w in words), "ssh"))


def remote_copy(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """scp / rsync: `host:path` operands are remote; local sources are read, a local
    destination is written."""
    ctx.paths.clear()
    for w in parsed.values("--files-from"):
        ctx.path(w, Access.READ, f"{ctx.program} --files-from")
        if w.value and w.value != "-":
            ctx.listed(w.value, f"{ctx.program} --files-from: the files it copies")
    if not positionals:
        return
    *sources, dest = positionals if len(positionals) > 1 else (positionals[0], positionals[0])
    remote_dest = scp_host(dest.value or "") or url_host(dest.value or "")
    for word in [*sources, dest]:
        host = any_host(word.value or "")
        if host:
            ctx.host(host)
            ctx.add(E.NETWORK)
    # -r, and rsync's -a: every file below each source is read (and copied)
    recursive = parsed.has("-r", "--recursive") or (ctx.program == "rsync" and parsed.has("-a", "--archive"))
    for word in sources:
        if not any_host(word.value or ""):
            first = len(ctx.paths)
            ctx.path(word, Access.READ, f"{ctx.program} source")
            if recursive:
                ctx.paths[first:] = [read_below(u) for u in ctx.paths[first:]]
            if remote_dest:
                ctx.note(f"uploads {word.text} to {remote_dest}")
    if remote_dest:
        return
    ctx.add(E.WRITE)
    ctx.path(dest, Access.WRITE, f"{ctx.program} destination")
    if parsed.has("--delete"):
        ctx.path(dest, Access.DELETE, f"{ctx.program} --delete")


def hosts_positional(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    for word in positionals:
        value = word.value or ""
        host = url_host(value) or bare_host(value)
        if host:
            ctx.host(host)
    if ctx.program == "socat":
        socat_files(ctx, positionals)
    if ctx.program in ("nc", "ncat", "netcat", "socat") and (
        parsed.has("-e", "-c", "--exec", "--sh-exec") or any("EXEC" in (w.value or "") for w in positionals)
    ):
        ctx.add(E.CODE, note=f"{ctx.program} runs a program on the connection")
    if ctx.program in ("nc", "ncat", "netcat") and parsed.has("-l"):
        ctx.add(E.NETWORK, note="listens for connections")


def fetching_viewer(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``glow URL`` / ``glow github.com/owner/repo``: the document comes from the network."""
    for word in positionals:
        value = word.value or ""
        first = value.split("/", 1)[0]
        host = url_host(value) or (bare_host(first) if "/" in value and "." in first.strip(".") else None)
        if host:
            ctx.raise_at(ctx.index_of(word), E.NETWORK, note=f"{ctx.program} fetches {value}")
            ctx.host(host)


#: getent databases answered by the resolver (DNS), not by local files.
_GETENT_NETWORK = frozenset({"hosts", "ahosts", "ahostsv4", "ahostsv6", "networks"})


def getent(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``getent hosts NAME`` resolves NAME (a DNS query, a channel out); ``getent passwd`` reads."""
    if not positionals or positionals[0].value not in _GETENT_NETWORK:
        if positionals and positionals[0].value is None:
            ctx.raise_at(
                ctx.index_of(positionals[0]), E.UNKNOWN, note="getent database only known at run time"
            )
        return
    for word in positionals[1:]:
        ctx.raise_at(
            ctx.index_of(word), E.NETWORK, note=f"getent {positionals[0].value} looks up {word.text}"
        )
        if word.value:
            ctx.host(word.value)


HANDLERS = {
    "fetching_viewer": fetching_viewer,
    "getent": getent,
    "curl": curl,
    "wget": wget,
    "ssh": ssh,
    "remote_copy": remote_copy,
    "hosts_positional": hosts_positional,
    **CLOUD_HANDLERS,
}
