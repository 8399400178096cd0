"""Shared CLI plumbing: options, loading the policy, building calls, printing errors."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from bastion.call import strict_json
from bastion.call.aliases import canonical
from bastion.call.families import PRIMARY_ARGUMENT, Family
from bastion.call.model import ToolCall
from bastion.configuration import Configuration, load_configuration
from bastion.errors import BastionError, CallError, PolicyError
from bastion.policy.compiled import Policy

#: Exit code for usage and policy errors (0 allow, 3 ask, 4 deny are decisions).
EXIT_USAGE = 2

PolicyOption = Annotated[
    str | None, typer.Option("--policy", help="Policy file (replaces every other policy file).")
]
CwdOption = Annotated[
    str | None, typer.Option("--cwd", help="Working directory of the call (default: here).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
WideOption = Annotated[
    bool, typer.Option("--wide", help="Every column at full width (the terminal wraps the lines).")
]
NonInteractiveOption = Annotated[
    bool, typer.Option("--non-interactive", help="Nobody can be asked: unmatched calls deny.")
]

stderr = Console(stderr=True, highlight=False)


def fail(message: str, *, hint: str = "", code: int = EXIT_USAGE) -> NoReturn:
    stderr.print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    if hint:
        stderr.print(f"[dim]hint:[/] {hint}", soft_wrap=True)
    raise typer.Exit(code)


def policy_or_exit(
    path: str | None, cwd: str, *, env: Mapping[str, str] | None = None, boot: bool = False
) -> Policy:
    return configuration_or_exit(path, cwd, env=env, boot=boot).policy


def configuration_or_exit(
    path: str | None, cwd: str, *, env: Mapping[str, str] | None = None, boot: bool = False
) -> Configuration:
    """The configuration that applies, or exit 2 saying why not. ``boot``: an entry point
    that decides calls (``check``, ``explain``, ``request``, ``tool``, ``serve``, ``mcp``)
    also refuses a policy that fails the one boot check (bastion.boot), as the hooks do."""
    try:
        loaded = load_configuration(path, cwd=cwd, env=env)
    except PolicyError as exc:
        fail(str(exc), hint="fix the file, then run 'bastion policy test' to check it")
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)
    if boot:
        from bastion.boot import BootRefused, check_boot

        try:
            check_boot(loaded.policy)
        except BootRefused as exc:
            fail(str(exc), hint=exc.hint)
    return loaded


def resolve_cwd(cwd: str | None) -> str:
    resolved = os.path.abspath(os.path.expanduser(cwd or os.getcwd()))
    if not os.path.isdir(resolved):
        fail(f"--cwd {resolved} is not a directory")
    return resolved


def call_from_args(family: str, arg: str, *, cwd: str, interactive: bool) -> ToolCall:
    """``FAMILY ARG``: ARG is the family's single value, or the JSON of its arguments."""
    args: dict[str, Any]
    known = Family(family) if family in Family.__members__.values() else None
    primary = PRIMARY_ARGUMENT.get(known) if known else None
    parsed: Any = None
    if known is not Family.SHELL and arg.lstrip().startswith("{"):
        try:
            parsed = strict_json.loads(arg)  # duplicate keys, NaN, deep nesting: input errors
        except CallError as exc:
            if primary is None or _lenient_json(arg):  # JSON read two ways is never a path
                raise CallError(f"ARG for {family!r} must be the JSON of its arguments: {exc}") from exc
    if isinstance(parsed, dict):
        args = parsed
    elif primary is not None:
        args = {primary: arg}
    elif known is None:
        args = {"value": arg}  # an unknown family is denied by the engine, with its reason
    else:
        raise CallError(
            f"ARG for {family!r} must be the JSON of its arguments, "
            f'e.g. bastion check code \'{{"language": "python", "source": "print(1)"}}\''
        )
    tool, mapped = canonical(family, args)  # agent tool names (Bash, web_search…), as the hooks map them
    return ToolCall(tool=tool, args=dict(mapped), cwd=cwd, interactive=interactive)


def _lenient_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


#: Code points JSON leaves raw that ``str.splitlines`` (and other line readers) break on; JSON
#: may only hold them inside strings, where their escapes mean the same.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(data: Any) -> str:
    """``data`` as one line of JSON Lines: one line whoever splits it, UTF-8 kept readable."""
    return json.dumps(data, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


def print_json(data: Any) -> None:
    sys.stdout.write(json_line(data))
