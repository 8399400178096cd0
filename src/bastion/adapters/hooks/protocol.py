"""The shape every agent adapter fills: hook JSON in → ``HookRequest``; ``Verdict`` → the
agent's exact answer (stdout, stderr, exit code).

A deny is always written twice: as the agent's JSON on stdout *and* as the exit code the
agent treats as a block (2 for every agent here) with the reason on stderr. Whichever
channel the agent reads, the call is blocked; an agent that ignores stdout on exit 2 still
gets the reason from stderr.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bastion.adapters.hooks.translate import Context
from bastion.errors import CallError

#: Exit code every supported agent treats as "block this tool call".
EXIT_BLOCK = 2
PRE_TOOL_USE = "PreToolUse"
PERMISSION_REQUEST = "PermissionRequest"
#: Events that report what happened (bastion.adapters.hooks.after_tool): the tool ran
#: (ran and failed), or the turn, a subagent or the session ended. Answered with nothing.
POST_TOOL_USE = "PostToolUse"
POST_TOOL_USE_FAILURE = "PostToolUseFailure"
STOP = "Stop"
SUBAGENT_STOP = "SubagentStop"
SESSION_END = "SessionEnd"
RAN_EVENTS = frozenset({POST_TOOL_USE, POST_TOOL_USE_FAILURE})
ENDED_EVENTS = frozenset({STOP, SUBAGENT_STOP, SESSION_END})
OUTCOME_EVENTS = RAN_EVENTS | ENDED_EVENTS
#: Set by a person before starting an agent whose hook input cannot say whether someone
#: is at the terminal (Codex, Gemini, Qwen, Copilot): Bastion may then park an ASK.
INTERACTIVE_ENV = "BASTION_HOOK_INTERACTIVE"


@dataclass(frozen=True, slots=True)
class HookRequest:
    event: str
    tool: str
    args: Any
    ctx: Context
    tool_use_id: str | None = None
    mcp_server: str | None = None
    #: The agent's permission mode when it says (Claude Code's ``permission_mode``).
    permission_mode: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """``decision`` is allow, ask or deny; ``defer`` (PermissionRequest only) answers nothing
    so the agent shows its own prompt."""

    decision: str
    reason: str
    event: str = PRE_TOOL_USE
    defer: bool = False
    #: The tool input to run instead (the command rewritten to run contained), if any.
    updated_input: Mapping[str, Any] | None = None
    #: The Evaluation behind the verdict (a ``bastion.policy.decision.Evaluation``).
    evaluation: Any = field(default=None, compare=False, repr=False)
    #: The decision id of an ASK handed to the agent's own prompt (``bastion.runtime.handed_run``).
    hand_off: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    stdout: str
    stderr: str
    exit_code: int


def text(value: Any) -> str | None:
    return None if value is None else str(value)


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def env_interactive(env: Mapping[str, str]) -> bool | None:
    """True when the person said so (``BASTION_HOOK_INTERACTIVE=1``), else unknown (None)."""
    return True if env.get(INTERACTIVE_ENV, "").strip().lower() in ("1", "true", "yes") else None


def child_session(session: str | None, agent_id: object) -> tuple[str | None, str | None]:
    """(session, parent): a call from a subagent (Claude Code's ``agent_id``, present only
    inside one) is decided in the child session ``SESSION/agent/AGENT_ID`` of the agent's
    session (bastion.delegation). An ``agent_id`` that is not a non-empty string is an
    input error: a subagent's call never passes for its parent's."""
    if agent_id is None:
        return session, None
    if not isinstance(agent_id, str) or not agent_id or not session:
        raise CallError("the hook input's agent_id must be a non-empty string, in a session")
    return f"{session}/agent/{agent_id}", session


class AgentProtocol:
    """Base: Claude Code's PreToolUse shape, which Codex and Qwen Code reuse."""

    name = "claude"
    #: Does the agent show its own prompt for an ``ask`` answer?
    honours_ask = True
    #: Can the hook's answer rewrite the call (so it runs inside Bastion's sandbox)?
    rewrites_input = False
    events: tuple[str, ...] = (PRE_TOOL_USE, PERMISSION_REQUEST)

    def interactive(self, payload: Mapping[str, Any], env: Mapping[str, str]) -> bool | None:
        return env_interactive(env)

    def parse(self, payload: Any, env: Mapping[str, str], *, event: str | None = None) -> HookRequest:
        if not isinstance(payload, Mapping):
            raise CallError("the hook input must be a JSON object")
        found = str(payload.get("hook_event_name") or event or PRE_TOOL_USE)
        if found not in self.events:
            raise CallError(f"{self.name}: unsupported hook event {found!r}")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            raise CallError("the hook input has no absolute 'cwd'")
        session, parent = child_session(text(payload.get("session_id")), payload.get("agent_id"))
        ctx = Context(
            agent=self.name,
            cwd=cwd,
            session=session,
            turn=text(payload.get("turn_id") or payload.get("prompt_id")),
            interactive=self.interactive(payload, env),
            parent=parent,
        )
        return HookRequest(
            event=found,
            tool=str(payload.get("tool_name") or ""),
            args=payload.get("tool_input"),
            ctx=ctx,
            tool_use_id=text(payload.get("tool_use_id")),
            permission_mode=text(payload.get("permission_mode")),
        )

    def render(self, verdict: Verdict) -> Answer:
        if verdict.event in OUTCOME_EVENTS:  # a report: nothing to answer, nothing to block
            return Answer("", "" if verdict.decision == "allow" else f"Bastion: {verdict.reason}\n", 0)
        if verdict.event == PERMISSION_REQUEST:
            return self._render_permission(verdict)
        decision = verdict.decision if verdict.decision != "ask" or self.honours_ask else "deny"
        body = {
            "hookSpecificOutput": {
                "hookEventName": PRE_TOOL_USE,
                "permissionDecision": decision,
                "permissionDecisionReason": verdict.reason,
            }
        }
        return self.finish(decision, body, verdict.reason)

    def _render_permission(self, verdict: Verdict) -> Answer:
        if verdict.defer:
            return Answer("", "", 0)
        behavior = "allow" if verdict.decision == "allow" else "deny"
        decision: dict[str, Any] = {"behavior": behavior}
        if behavior == "deny":
            decision["message"] = verdict.reason
        body = {"hookSpecificOutput": {"hookEventName": PERMISSION_REQUEST, "decision": decision}}
        return self.finish(behavior, body, verdict.reason)

    @staticmethod
    def finish(decision: str, body: Mapping[str, Any], reason: str) -> Answer:
        if decision == "deny":
            return Answer(dumps(body), f"Bastion: {reason}\n", EXIT_BLOCK)
        return Answer(dumps(body), "", 0)
