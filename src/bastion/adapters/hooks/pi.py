"""pi's ``tool_call`` event → the calls Bastion decides; the verdict → the extension's answer
(verified against @mariozechner/pi-coding-agent 0.73.1: ``core/tools`` ``allToolNames`` and
each tool's schema; ``core/agent-session.js`` ``beforeToolCall``; ``docs/extensions.md``).

pi has no command hooks: Bastion's extension (``pi_extension.ts``, installed by ``bastion
install pi``) runs ``bastion hook pi`` once per tool call, writing pi's own event on stdin::

    {"toolName": "bash", "toolCallId": "…", "input": {…}, "cwd": "/abs",
     "sessionId": "…", "hasUI": false}

and reads the answer on stdout, with the exit status as its second channel::

    {"decision": "allow" | "ask" | "deny", "reason": "…", "input": {…}}   exit 0 | 3 | 2

``input`` (allow or ask only) holds the fields to replace in pi's mutable ``event.input``:
an allowed ``bash`` command rewritten to run in Bastion's sandbox. The extension lets a
call through only on exit 0 with ``allow``, or exit 3 with ``ask`` that pi's own dialog
confirms (``ctx.hasUI``); anything else — another exit, a signal, unreadable JSON, a
mismatch between the two channels — blocks it (``{block: true, reason}``).

pi's tools, as Bastion's families: ``bash`` shell, ``read`` read, ``write`` write, ``edit``
edit, ``grep`` grep, ``find`` glob, ``ls`` list. Paths are read as pi reads them
(``core/tools/path-utils.js`` ``expandPath``: one leading ``@`` dropped, Unicode spaces made
plain, ``~`` then left to Bastion's own expansion). Any other tool name (an extension's own
tool) cannot be told apart by its name and is denied as unknown.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bastion.adapters.hooks.protocol import (
    PRE_TOOL_USE,
    AgentProtocol,
    Answer,
    HookRequest,
    Verdict,
    dumps,
    env_interactive,
    text,
)
from bastion.adapters.hooks.translate import Context
from bastion.agents.registry import enforcement_of
from bastion.call.families import Family
from bastion.errors import CallError

#: Exit status of an ``ask`` the extension hands to pi's own confirmation dialog.
EXIT_ASK = 3
EXIT_CODES = MappingProxyType({"allow": 0, "ask": EXIT_ASK, "deny": 2})

#: pi's built-in tools → (family, {pi argument: Bastion argument}, the path pi uses when none).
TOOLS: Mapping[str, tuple[Family, Mapping[str, str], str | None]] = MappingProxyType(
    {
        "bash": (Family.SHELL, {"command": "command"}, None),
        "read": (Family.READ, {"path": "path"}, None),
        "write": (Family.WRITE, {"path": "path"}, None),
        "edit": (Family.EDIT, {"path": "path"}, None),
        "grep": (Family.GREP, {"path": "path", "pattern": "pattern", "glob": "glob"}, "."),
        "find": (Family.GLOB, {"path": "path", "pattern": "pattern"}, "."),
        "ls": (Family.LIST, {"path": "path"}, "."),
    }
)
#: What ``bastion hook pi`` calls a tool it cannot map: no alias or inert name can match it.
UNKNOWN_PREFIX = "pi:"

# pi's ``normalizeUnicodeSpaces``: these become a plain space before the path is used.
_UNICODE_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def pi_path(value: Any, tool: str) -> str:
    """The path pi's tool opens for ``value`` (before ``~`` and the cwd, which Bastion adds)."""
    if not isinstance(value, str) or not value:
        raise CallError(f"pi {tool}: 'path' must be a non-empty string")
    path = value[1:] if value.startswith("@") else value
    return _UNICODE_SPACES.sub(" ", path)


def translate(tool: str, args: Any) -> tuple[str, dict[str, Any]]:
    """pi's ``(toolName, input)`` → (Bastion family or an unknown name, its arguments)."""
    if not isinstance(args, Mapping):
        raise CallError(f"pi {tool}: the tool input must be an object")
    known = TOOLS.get(tool)
    if known is None:
        return f"{UNKNOWN_PREFIX}{tool}", dict(args)
    family, renames, default_path = known
    mapped: dict[str, Any] = {}
    for source, target in renames.items():
        if source in args:
            mapped[target] = args[source]
    if family is Family.SHELL:
        return family.value, _shell(args)
    if "path" in mapped or default_path is None:
        mapped["path"] = pi_path(mapped.get("path"), tool)
    else:
        mapped["path"] = default_path
    if "pattern" in renames and not isinstance(mapped.get("pattern"), str):
        raise CallError(f"pi {tool}: 'pattern' must be a string")
    return family.value, mapped


def _shell(args: Mapping[str, Any]) -> dict[str, Any]:
    command = args.get("command")
    if not isinstance(command, str):
        raise CallError("pi bash: 'command' must be a string")
    out: dict[str, Any] = {"command": command}
    timeout = args.get("timeout")
    if timeout is not None:
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout < 0:
            raise CallError("pi bash: 'timeout' must be a number of seconds")
        # pi gives seconds; the contained command's limit is computed from milliseconds.
        out["timeout"] = timeout * 1000
    return out


class PiProtocol(AgentProtocol):
    """``event.input`` is mutable (docs/extensions.md: "Mutations to event.input affect the
    actual tool execution"), so an allowed shell call is rewritten to run contained."""

    name = "pi"
    honours_ask = enforcement_of("pi").honours_ask
    rewrites_input = enforcement_of("pi").rewrite
    events = (PRE_TOOL_USE,)

    def parse(self, payload: Any, env: Mapping[str, str], *, event: str | None = None) -> HookRequest:
        if not isinstance(payload, Mapping):
            raise CallError("the hook input must be a JSON object")
        if event not in (None, PRE_TOOL_USE):
            raise CallError(f"pi: unsupported hook event {event!r}")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            raise CallError("the hook input has no absolute 'cwd'")
        tool = payload.get("toolName")
        if not isinstance(tool, str) or not tool:
            raise CallError("the hook input names no tool")
        has_ui = payload.get("hasUI", False)
        if not isinstance(has_ui, bool):
            raise CallError("pi: 'hasUI' must be true or false")
        family, args = translate(tool, payload.get("input"))
        ctx = Context(
            agent=self.name,
            cwd=cwd,
            session=text(payload.get("sessionId")),
            # pi's dialog is a person; without one, only the person's word says somebody is there.
            interactive=True if has_ui else (env_interactive(env) or False),
        )
        return HookRequest(
            event=PRE_TOOL_USE, tool=family, args=args, ctx=ctx, tool_use_id=text(payload.get("toolCallId"))
        )

    def render(self, verdict: Verdict) -> Answer:
        body: dict[str, Any] = {"decision": verdict.decision, "reason": verdict.reason}
        command = verdict.updated_input.get("command") if verdict.updated_input is not None else None
        if isinstance(command, str) and verdict.decision in ("allow", "ask"):
            # Only the command changes: pi's own ``timeout`` (seconds) stays as pi had it.
            body["input"] = {"command": command}
        code = EXIT_CODES.get(verdict.decision, 2)
        if code == 2:
            body["decision"] = "deny"
            return Answer(dumps(body), f"Bastion: {verdict.reason}\n", 2)
        return Answer(dumps(body), "", code)

    def loads(self, path: str, *, cwd: str, env: Mapping[str, str]) -> tuple[bool, str]:
        """Does pi, started in ``cwd``, load the extension at ``path``? pi's RPC mode lists
        every extension command with the file it came from (``get_commands``, no model
        needed); the extension registers ``/bastion``. An ``index.ts`` or ``package.json`` in
        the extensions folder, an ignore file there or a settings override hides the file
        without a word (pi 0.73.1 ``package-manager.js``). This starts pi, which loads the
        project's extensions as it always does; without pi on PATH nothing is checked."""
        pi = shutil.which("pi", path=env.get("PATH"))
        if pi is None:
            return True, "pi is not on PATH, so whether pi loads the file was not checked"
        request = json.dumps({"id": "bastion-doctor", "type": "get_commands"}) + "\n"
        try:
            done = subprocess.run(
                [pi, "--mode", "rpc", "--no-session", "--offline"],
                input=request,
                capture_output=True,
                text=True,
                timeout=LOAD_CHECK_TIMEOUT,
                cwd=cwd,
                env={**env, "PI_OFFLINE": "1"},
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"pi did not list its extensions ({exc})"
        listed = _listed_commands(done.stdout)
        if listed is None:
            return (
                False,
                f"pi did not list its extensions (exit {done.returncode}): {done.stderr.strip()[-200:]}",
            )
        if os.path.realpath(path) in listed:
            return True, "pi loads it"
        return False, (
            "pi does not load it from here (an index.ts or package.json in the extensions folder, an "
            "ignore file or a settings override hides it): remove what hides it, or bastion install pi --user"
        )


#: The command Bastion's extension registers, and how long doctor waits for pi to list it.
COMMAND = "bastion"
LOAD_CHECK_TIMEOUT = 30.0


def _ours(name: object) -> bool:
    """``bastion``, or ``bastion:N`` (pi numbers a name several extensions register: a project
    and a user install both loaded)."""
    return isinstance(name, str) and (name == COMMAND or re.fullmatch(rf"{COMMAND}:\d+", name) is not None)


def _listed_commands(stdout: str) -> set[str] | None:
    """The files ``/bastion`` comes from in pi's answer to ``get_commands``; None: no answer."""
    for line in stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("id") != "bastion-doctor":
            continue
        data = message.get("data")
        commands = data.get("commands") if isinstance(data, dict) else None
        return {
            os.path.realpath(str(c["sourceInfo"].get("path")))
            for c in (commands if isinstance(commands, list) else [])
            if isinstance(c, dict) and _ours(c.get("name")) and isinstance(c.get("sourceInfo"), dict)
        }
    return None


PROTOCOL = PiProtocol()
