"""``bastion hook generic``: the documented JSON-in/JSON-out form of the same decision, for
agents whose hooks are code (opencode plugins, pi extensions) rather than commands.

Input (stdin)::

    {"tool": "bash" | "read" | any agent tool name | a Bastion family,
     "args": {...}, "cwd": "/abs/dir", "session": "…", "agent": "opencode",
     "tool_use_id": "…", "interactive": false}

Output (stdout)::

    {"decision": "allow" | "ask" | "deny", "reason": "…"}

Exit status: 0 allow, 3 ask, 2 deny (and 2 for every error). A caller blocks the tool
unless the exit status is 0 *and* the decision is ``allow``.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from bastion.errors import CallError

EXIT_ASK = 3


class GenericProtocol(AgentProtocol):
    name = "generic"
    honours_ask = True

    def parse(self, payload: Any, env: Mapping[str, str], *, event: str | None = None) -> HookRequest:
        if not isinstance(payload, Mapping):
            raise CallError("the hook input must be a JSON object")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            raise CallError("the hook input has no absolute 'cwd'")
        interactive = payload.get("interactive", False)
        if not isinstance(interactive, bool):
            raise CallError("'interactive' must be true or false")
        agent = text(payload.get("agent")) or self.name
        ctx = Context(
            agent=agent,
            cwd=cwd,
            session=text(payload.get("session")),
            turn=text(payload.get("turn")),
            interactive=True if interactive else env_interactive(env),
        )
        args = payload.get("args", payload.get("input"))
        return HookRequest(
            event=PRE_TOOL_USE,
            tool=str(payload.get("tool") or ""),
            args=args,
            ctx=ctx,
            tool_use_id=text(payload.get("tool_use_id")),
        )

    def render(self, verdict: Verdict) -> Answer:
        body = dumps({"decision": verdict.decision, "reason": verdict.reason})
        if verdict.decision == "allow":
            return Answer(body, "", 0)
        if verdict.decision == "ask":
            return Answer(body, "", EXIT_ASK)
        return Answer(body, f"Bastion: {verdict.reason}\n", 2)


PROTOCOL = GenericProtocol()


def _snippet(name: str, body: str) -> tuple[str, str]:
    return name, body


def plugin_snippets(bastion: str) -> list[tuple[str, str]]:
    """Small plugins that call ``bastion hook generic`` (printed by ``bastion install generic``)."""
    call = (
        "import { spawnSync } from 'node:child_process';\n"
        "function bastion(tool, args, cwd, session) {\n"
        f"  const r = spawnSync({bastion!r}, ['hook', 'generic'], {{\n"
        "    input: JSON.stringify({ tool, args, cwd, session, agent: AGENT }),\n"
        "    encoding: 'utf8', timeout: 30000 });\n"
        "  let answer = {};\n"
        "  try { answer = JSON.parse(r.stdout || '{}'); } catch (e) {}\n"
        "  if (r.status === 0 && answer.decision === 'allow') return null;\n"
        "  return answer.reason || `Bastion could not decide (exit ${r.status})`;\n"
        "}\n"
    )
    opencode = (
        "// .opencode/plugin/bastion.js — blocks a tool unless Bastion allows it\n"
        "const AGENT = 'opencode';\n" + call + "export const Bastion = async ({ directory }) => ({\n"
        "  'tool.execute.before': async (input, output) => {\n"
        "    const reason = bastion(input.tool, output.args, directory, input.sessionID);\n"
        "    if (reason) throw new Error(reason);\n"
        "  },\n"
        "});\n"
    )
    pi = (
        "// ~/.pi/agent/extensions/bastion.ts — blocks a tool unless Bastion allows it\n"
        "const AGENT = 'pi';\n" + call + "export default function (pi: any) {\n"
        "  pi.on('tool_call', async (event: any, ctx: any) => {\n"
        "    const reason = bastion(event.toolName, event.input, ctx.cwd, undefined);\n"
        "    return reason ? { block: true, reason } : undefined;\n"
        "  });\n"
        "}\n"
    )
    return [_snippet("opencode", opencode), _snippet("pi", pi)]
