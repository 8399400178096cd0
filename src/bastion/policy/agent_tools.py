"""Deciding an ``agent`` call: the agent acting on itself and its helpers (the 002 seed's
``delegate``, ``ask_agent``, ``task_plan``, ``skill_*``, ``agent_*`` and ``sessions``;
bastion.call.agent_tools maps the names).

* ``task_plan`` has no side effect: allowed in every mode.
* ``web_search`` naming no backend host reaches an unknown destination: confirmed (as a
  ``fetch`` to a host not in ``allow_hosts``), refused in read-only.
* ``delegate`` / ``ask_agent`` start a helper whose own calls are gated the same way, under
  this session's ceiling or a stricter one (bastion.delegation): allowed when the ``ceiling``
  it asks for (``APPROVAL,FILESYSTEM,NETWORK``; absent: this session's) is not looser than
  this policy's; a looser one is denied.
* configuring skills or agents, and reaching other sessions, changes what an agent is or
  can do: a person confirms every time (effect ``self``: never a standing grant), and
  read-only mode refuses it.
"""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import CallError
from bastion.policy.ceiling import NO_CEILING, Ceiling
from bastion.policy.decision import Decision, Reason
from bastion.policy.kinds import Mode
from bastion.policy.stages import Context, last_rule, mode_block, rule_reason
from bastion.policy.verdict import Assembly, Subject

DELEGATING = frozenset({"delegate", "ask_agent"})
CONFIGURING = {
    "skill_create": "creates a skill agents will run",
    "skill_improve": "rewrites a skill agents run",
    "skill_toggle": "turns a skill on or off",
    "agent_create": "creates an agent",
    "agent_configure": "changes an agent's configuration",
    "sessions": "reaches other sessions of the agent",
}
PLANNING = frozenset({"task_plan"})
#: ``web_search`` that names no backend host (with one it is a ``fetch`` of it).
SEARCHING = frozenset({"web_search"})
KNOWN = frozenset({*DELEGATING, *CONFIGURING, *PLANNING, *SEARCHING})


def decide_agent(ctx: Context, call: ToolCall, out: Assembly) -> None:
    tool = call.require_str("tool")
    if tool not in KNOWN:
        raise CallError(f"agent: unknown tool {tool!r}: expected one of {', '.join(sorted(KNOWN))}")
    policy = ctx.policy
    subject = out.add(Subject(label=f"agent {tool}", effects=set()))
    rule = last_rule(ctx, Family.AGENT, lambda r: r.matcher.matches_words(tool, "-"))
    if rule is not None:
        subject.override = rule_reason(rule, tool)
    if tool in PLANNING:
        subject.mode = Reason(
            Decision.ALLOW,
            "agent.plan",
            "built-in",
            tool,
            f"{tool} has no side effect: it only writes a plan",
        )
    elif tool in DELEGATING:
        _delegation(ctx, call, subject, tool)
    elif tool in SEARCHING:
        subject.effects.add(Effect.NETWORK)
        subject.unmet.append(
            Reason(
                Decision.ASK,
                "network.unlisted",
                "built-in",
                tool,
                f"{tool} names no backend host: an unknown destination, a person confirms",
            )
        )
        if policy.mode is Mode.FULL_ACCESS:
            subject.mode = Reason(
                Decision.ALLOW,
                "mode.full-access",
                policy.mode_source,
                tool,
                "full-access allows what is not denied",
            )
        elif policy.mode is Mode.READ_ONLY:
            subject.mode = mode_block(policy, f"{tool} to an unknown destination")
    else:
        subject.effects.add(Effect.SELF)
        subject.hard.append(
            Reason(
                Decision.ASK,
                "agent.configuration",
                "built-in",
                tool,
                f"{tool} {CONFIGURING[tool]}: a person confirms (never a standing grant)",
            )
        )
        if policy.mode is Mode.READ_ONLY:
            out.caps.append(mode_block(policy, f"{tool} (agent configuration)"))


def _delegation(ctx: Context, call: ToolCall, subject: Subject, tool: str) -> None:
    policy = ctx.policy
    parent = policy.ceiling or NO_CEILING
    asked = call.args.get("ceiling")
    if asked is None:
        child = parent
    elif isinstance(asked, str):
        try:
            child = Ceiling.parse(asked)
        except ValueError as exc:
            raise CallError(f"{tool}: 'ceiling': {exc}") from exc
    else:
        raise CallError(f"{tool}: 'ceiling' must be APPROVAL,FILESYSTEM,NETWORK")
    looser = child.violations(parent)
    if looser:
        subject.hard.append(
            Reason(
                Decision.DENY,
                "delegation.looser",
                policy.ceiling_source,
                child.text(),
                f"{tool} asks for a child ceiling {child.text()} looser than this session's "
                f"{parent.text()} ({', '.join(looser)}): a child gets its parent's ceiling or a stricter one",
            )
        )
        return
    subject.mode = Reason(
        Decision.ALLOW,
        "delegation.ceiling",
        policy.ceiling_source,
        child.text(),
        f"{tool}: the helper runs under the ceiling {child.text()} (this session's or stricter), "
        "and each of its calls is decided like this one's",
    )
