"""The agent's reports after a call: did an ASK handed to its own prompt run?

Claude Code (verified against 2.1.197's hook runner) sends, with the same ``session_id``,
``agent_id`` (inside a subagent) and ``permission_mode`` as ``PreToolUse``:

* ``PostToolUse`` {tool_name, tool_input, tool_response, tool_use_id, duration_ms} once a
  tool ran, and ``PostToolUseFailure`` {…, tool_use_id, error, is_interrupt} once it ran and
  failed: the call ran, so the person approved it in Claude's prompt;
* ``Stop`` when the main agent's turn ends, ``SubagentStop`` (with ``agent_id``) when a
  subagent's does, ``SessionEnd`` {reason} when the session ends. Every tool call of the turn
  is over by then: a hand-off with no ``PostToolUse*`` for its tool-use id did not run (the
  person chose "no", or pressed Esc, which ends the turn without ``Stop``: the next ``Stop``
  or ``SessionEnd`` of the session records it). A session killed outright leaves its
  hand-offs ``requested``, with no resolution: nothing is claimed that was not seen.

Claude's ``PermissionRequest`` carries no tool-use id, and no Claude event reports the
person's "no" itself (``PermissionDenied`` is sent only for the auto mode's classifier).

A report answers nothing and exits 0 whatever happens: exit 2 on ``Stop`` would make Claude
continue the turn, and there is no call left to block (the logic: bastion.runtime.hand_offs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bastion.adapters.hooks.hand_off_marks import clear as settled_marks
from bastion.adapters.hooks.protocol import (
    RAN_EVENTS,
    SESSION_END,
    SUBAGENT_STOP,
    AgentProtocol,
    HookRequest,
    Verdict,
)
from bastion.runtime.hand_offs import HandOffs, prompt_approver

if TYPE_CHECKING:
    from bastion.adapters.hooks.decide import LocalDecider, Options

#: Claude Code's permission modes in which its ``ask`` is put to the person at its prompt.
PROMPTING_MODES = frozenset({"default", "plan"})
_ENDED = {SUBAGENT_STOP: "the subagent finished", SESSION_END: "the session ended"}


def approver(protocol: AgentProtocol, mode: str | None) -> str:
    """``claude prompt``, or the mode that answered without asking (``claude
    bypassPermissions``, ``claude acceptEdits``…: not counted as a person's answer)."""
    return prompt_approver(protocol.name, None if mode is None or mode in PROMPTING_MODES else mode)


def record_outcome(
    decider: LocalDecider, request: HookRequest, protocol: AgentProtocol, options: Options
) -> Verdict:
    """Resolve what the report settles, in the ledger the call's own policy names."""
    from bastion.policy.sources import PolicySources

    sources = PolicySources.find(
        decider.policy_path or options.policy_path, cwd=request.ctx.cwd, env=options.env
    )
    loaded = decider.load(sources, options.env)  # a broken policy still names the ledger
    who = approver(protocol, request.permission_mode)
    session = request.ctx.session
    with decider.keeper(sources, options.env, loaded, parks=False) as keeper:
        hand_offs = HandOffs(keeper.ledger, keeper.clock)
        if request.event in RAN_EVENTS:
            if not request.tool_use_id:
                why = f"{request.event} names no tool_use_id: nothing recorded"
                return Verdict("deny", why, request.event)
            agent = f"{request.ctx.agent}/{request.tool_use_id}"
            done = hand_offs.ran(session=session, agent=agent, approver=who)
            settled_marks(options.env, session=session, agent=agent)
        else:
            why = _ENDED.get(request.event, "the turn ended")
            done = hand_offs.not_run(session=session, approver=who, why=why)
            settled_marks(options.env, session=session)
    return Verdict("allow", f"{len(done)} hand-offs resolved", request.event)
