"""Environment and shell variables: which assignments are plain data, and what the others
do (program injection, another host, unknown). Used for NAME=… prefixes, ``env NAME=…``,
standalone assignments and ``export``/``declare``."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.hosts import any_host, bare_host
from bastion.shell.model import Access, PathUse
from bastion.shell.programs import wrappers as W
from bastion.shell.words import Word

E = Effect
_LIST_SPLIT = re.compile(r"[\s,|]+")
INJECTION_PREFIXES = ("BASH_", "GIT_", "LD_", "DYLD_")


def host_var(name: str) -> bool:
    return name in W.HOST_VARS or name.startswith("npm_config_") or name.endswith("_proxy")


def record_hosts(ctx: Ctx, name: str, word: Word) -> None:
    """DOCKER_HOST=tcp://h, PIP_INDEX_URL=…: the hosts go through the network policy, on
    this command and on what it runs."""
    for part in _LIST_SPLIT.split(word.value or ""):
        host = any_host(part) or bare_host(part)
        if host:
            ctx.host(host)
            ctx.carried_hosts.append(host)
    if word.value is None:
        ctx.carry(E.UNKNOWN, note=f"{name}= host only known at run time")


def harmless_var(name: str, value: Word, standalone: bool) -> bool:
    """A variable that is plain data: on its own (a shell variable) an ordinary name, in
    front of a command (its environment) only the allow-listed names."""
    if name in W.HARMLESS_VARS or name.startswith(W.HARMLESS_PREFIXES):
        return True
    safe = W.SAFE_VALUES.get(name)
    if safe is not None and value.value is not None and value.value.strip() in safe:
        return True
    if not standalone:
        return name in W.PREFIX_ONLY_VARS
    return ordinary_name(name)


def ordinary_name(name: str) -> bool:
    """A shell variable that no program or shell feature reads: a lower-case name that is
    not a known environment variable (an upper-case one may already be exported)."""
    return name != name.upper() and name not in W.INJECTION_VARS and not host_var(name)


def assignments(ctx: Ctx, assigns: tuple[tuple[str, Word], ...], standalone: bool = False) -> None:
    """NAME=… on its own (``standalone``) or in front of a command / through ``env``."""
    for name, word in assigns:
        if harmless_var(name, word, standalone):
            continue
        where = "on its own" if standalone else "in the environment of the command"
        if name in W.WRITTEN_FILE_VARS and not standalone and word.value is not None:
            ctx.paths.append(PathUse(word.value, Access.WRITE, word.text, f"{name} file written"))
        if name == "GIT_TEMPLATE_DIR":  # as init --template: hooks planted in a new repository
            ctx.carry(E.CODE, E.SELF, note=f"{name}= copies the template's hooks into a repository git makes")
        elif name in W.STARTUP_FILE_VARS:
            ctx.carry(E.CODE, note=f"program injection: {name}= names shell code run first")
            if word.value is not None:
                ctx.paths.append(PathUse(word.value, Access.READ, word.text, f"{name} file run"))
        elif name in W.SHELL_STRING_VARS or name == "BASH_ALIASES":
            ctx.carry(E.CODE, note=f"program injection: {name}= is shell code the shell runs")
            if word.value is None:
                ctx.dynamic = True
            else:
                ctx.inner.extend(ctx.run_here(ctx, word.value, f"{name}="))
        elif name in W.INJECTION_VARS or name.startswith(INJECTION_PREFIXES):
            ctx.carry(E.CODE, note=f"program injection: {name}= changes what programs run")
        elif host_var(name):
            ctx.carry(E.NETWORK, note=f"{name}= sends the command's traffic to another host")
            record_hosts(ctx, name, word)
        else:
            ctx.carry(
                E.UNKNOWN,
                note=f"{name}= {where} may change what it reads, writes or "
                "runs (not a known-harmless variable)",
            )
