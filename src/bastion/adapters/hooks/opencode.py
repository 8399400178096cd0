"""opencode (``opencode-ai``): its plugin's calls → Bastion calls, and Bastion's answer → what
the plugin does (verified against opencode-ai 1.18.33).

opencode has no command hooks: Bastion's plugin (``plugins/opencode.js``, written by
``bastion install opencode``) runs ``bastion hook opencode`` for every tool call and throws
unless the answer is a clear allow. Its two events:

``tool.execute.before``
    Input ``{hook_event_name, cwd, session_id, tool_use_id, tool_name, tool_input}``: the
    plugin's ``input.tool``/``output.args``, the instance ``directory`` as cwd. Output
    ``{"decision": "allow"|"deny", "reason", "args"?}``, exit 0 allow, 2 deny. opencode runs
    the tool with the very object the plugin got, so the plugin replaces its keys with
    ``args`` in place: an allowed ``bash`` call runs inside Bastion's sandbox. A throw from
    the hook fails the tool call with the thrown message (verified), which the model reads.
``permission.asked``
    opencode's own rules asked a person (``opencode serve`` waits for an answer on its API):
    the plugin sends the call it saw before (by ``callID``) and replies what Bastion says:
    ``{"reply": "once"|"reject", …}``. A deny is also exit 2.

opencode cannot show a prompt for a hook (its ``permission.ask`` plugin hook is documented
but no longer called in 1.18.33), so an ASK is a deny with the reason, or waits in Bastion's
queue with ``ask_via = "bastion"`` when a person is known to be there
(``BASTION_HOOK_INTERACTIVE=1``).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from bastion.adapters.hooks.protocol import (
    PRE_TOOL_USE,
    AgentProtocol,
    Answer,
    HookRequest,
    Verdict,
    text,
)
from bastion.adapters.hooks.translate import Context
from bastion.agents.registry import enforcement_of
from bastion.call.families import Family
from bastion.errors import CallError

TOOL_EXECUTE_BEFORE = "tool.execute.before"
PERMISSION_ASKED = "permission.asked"

Translated = tuple[str, dict[str, Any]]


def _path_call(family: Family, key: str = "filePath") -> Callable[[Mapping[str, Any]], Translated]:
    def translate(args: Mapping[str, Any]) -> Translated:
        path = args.get(key)
        if not isinstance(path, str) or not path:
            raise CallError(f"opencode: the call has no {key!r}")
        return family.value, {"path": path}

    return translate


def _search(family: Family) -> Callable[[Mapping[str, Any]], Translated]:
    def translate(args: Mapping[str, Any]) -> Translated:
        mapped = {k: args[k] for k in ("pattern", "path") if isinstance(args.get(k), str)}
        if "pattern" not in mapped:
            raise CallError(f"opencode {family.value}: the call has no 'pattern'")
        return family.value, mapped

    return translate


def _list(args: Mapping[str, Any]) -> Translated:
    path = args.get("path", ".")
    if not isinstance(path, str):
        raise CallError("opencode list: 'path' must be a string")
    return Family.LIST.value, {"path": path}


def _fetch(args: Mapping[str, Any]) -> Translated:
    url = args.get("url")
    if not isinstance(url, str) or not url:
        raise CallError("opencode webfetch: the call has no 'url'")
    return Family.FETCH.value, {"url": url}


def _patch(args: Mapping[str, Any]) -> Translated:
    return "apply_patch", {"input": args.get("patchText")}


def _inert(name: str) -> Callable[[Mapping[str, Any]], Translated]:
    """A tool that only changes opencode's own state; ``name`` is its entry in
    ``translate.INERT_TOOLS`` (a subagent's ``task`` is inert there: each of its calls is
    gated by the same plugin)."""
    return lambda args: (name, dict(args))


#: opencode's tool ids (1.18.33) → how each becomes a Bastion call. Any other id (``skill``,
#: ``lsp``, an MCP server's ``server_tool``) is unknown, and denied.
TOOLS: Mapping[str, Callable[[Mapping[str, Any]], Translated]] = {
    "read": _path_call(Family.READ),
    "write": _path_call(Family.WRITE),
    "edit": _path_call(Family.EDIT),
    "apply_patch": _patch,
    "glob": _search(Family.GLOB),
    "grep": _search(Family.GREP),
    "list": _list,
    "webfetch": _fetch,
    # A search backend Bastion cannot name: the 002 vocabulary's web_search with no host, an
    # agent call a person confirms.
    "websearch": lambda args: (Family.AGENT.value, {"tool": "web_search"}),
    "task": _inert("Task"),
    "todowrite": _inert("todo_write"),
    "todoread": _inert("todo_write"),
    "question": _inert("ask_user_question"),
    "plan_enter": _inert("EnterPlanMode"),
    "plan_exit": _inert("exit_plan_mode"),
}


def bash_call(args: Mapping[str, Any], cwd: str) -> dict[str, Any]:
    """opencode's ``bash`` args as decided: ``workdir`` (where opencode runs the command,
    relative to the directory) becomes a leading ``cd``, so the decision and the sandbox both
    see where it runs; every other key stays, so the rewrite keeps them."""
    command = args.get("command")
    if not isinstance(command, str):
        raise CallError("opencode bash: the call has no 'command'")
    workdir = args.get("workdir")
    if workdir is None:
        return dict(args)
    if not isinstance(workdir, str):
        raise CallError("opencode bash: 'workdir' must be a string")
    folder = os.path.normpath(os.path.join(cwd, workdir))
    if folder == os.path.normpath(cwd):
        return dict(args)
    return {**args, "command": f"cd {shlex.quote(folder)} && {command}"}


def translate(tool: str, args: Any, cwd: str) -> Translated:
    """(tool, args) as ``translate.to_calls`` reads them; raises ``CallError`` on bad input.
    An id this table does not know is passed on as it is: ``to_calls`` then refuses it."""
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        raise CallError(f"opencode {tool}: the tool input must be an object")
    if tool == "bash":
        return "bash", bash_call(args, cwd)
    known = TOOLS.get(tool)
    if known is None:
        return f"opencode:{tool}", dict(args)  # never an alias of another agent's tool
    return known(args)


class OpencodeProtocol(AgentProtocol):
    name = "opencode"
    honours_ask = enforcement_of("opencode").honours_ask
    rewrites_input = enforcement_of("opencode").rewrite
    events = (TOOL_EXECUTE_BEFORE, PERMISSION_ASKED)

    def parse(self, payload: Any, env: Mapping[str, str], *, event: str | None = None) -> HookRequest:
        if not isinstance(payload, Mapping):
            raise CallError("the hook input must be a JSON object")
        found = str(payload.get("hook_event_name") or event or TOOL_EXECUTE_BEFORE)
        if found not in self.events:
            raise CallError(f"opencode: unsupported hook event {found!r}")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            raise CallError("the hook input has no absolute 'cwd'")
        tool = payload.get("tool_name")
        if not isinstance(tool, str) or not tool:
            raise CallError("the hook input names no tool")
        name, args = translate(tool, payload.get("tool_input"), cwd)
        ctx = Context(
            agent=self.name,
            cwd=cwd,
            session=text(payload.get("session_id")),
            interactive=self.interactive(payload, env),
        )
        return HookRequest(
            event=PRE_TOOL_USE if found == TOOL_EXECUTE_BEFORE else PERMISSION_ASKED,
            tool=name,
            args=args,
            ctx=ctx,
            tool_use_id=text(payload.get("tool_use_id")),
        )

    def render(self, verdict: Verdict) -> Answer:
        decision = "allow" if verdict.decision == "allow" else "deny"  # opencode cannot ask
        if verdict.event == PERMISSION_ASKED:
            body: dict[str, Any] = {
                "reply": "once" if decision == "allow" else "reject",
                "decision": decision,
                "reason": verdict.reason,
            }
            return self.finish(decision, body, verdict.reason)
        body = {"decision": decision, "reason": verdict.reason}
        if verdict.updated_input is not None and decision == "allow":
            body["args"] = dict(verdict.updated_input)
        return self.finish(decision, body, verdict.reason)


PROTOCOL = OpencodeProtocol()
