"""Credential files the code tool's source names (issue 31).

The code tool runs its source inside the sandbox, and the sandbox is the boundary; still, a
source that names a credential file — ``cat ~/.ssh/id_rsa`` in bash, ``open('~/.aws/…')`` or a
workspace hard link to one in Python — is a credential read, denied like the read tool's
(``paths.check_path``: names, and inodes of known credential files). Bash source is read by
the shell classifier (its paths and its secret printers); other languages by their string
literals that look like paths. Only denials are taken: what the code may otherwise do is the
sandbox's to hold.
"""

from __future__ import annotations

import re

from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import check_path
from bastion.policy.stages import Context
from bastion.shell.model import Access

#: A quoted string literal whose text could be a path: no blank, no quote, a dot or a slash.
_LITERAL = re.compile(r"""(['"])([^'"\s\\]{1,1024})\1""")
_MAX_LITERALS = 200


def credential_reads(ctx: Context, call: ToolCall, language: str, source: str) -> list[Reason]:
    """Denials for the credential files ``source`` names (empty when it names none)."""
    if language == "bash":
        return _shell_reads(ctx, call, source)
    found: list[Reason] = []
    for m in list(_LITERAL.finditer(source))[:_MAX_LITERALS]:
        text = m.group(2)
        if "/" in text or "." in text:
            found.extend(_denied(ctx, call, text, f"{language} code names {text}"))
    return list(dict.fromkeys(found))


def _shell_reads(ctx: Context, call: ToolCall, source: str) -> list[Reason]:
    analysis = ctx.analyze_shell(source)
    found: list[Reason] = []
    for cmd in analysis.commands:
        if cmd.discloses:
            found.append(
                Reason(Decision.DENY, "hardline.credentials", "built-in", cmd.text[:200], cmd.discloses)
            )
        for use in cmd.paths:
            if use.path is not None and use.access is Access.READ:
                found.extend(_denied(ctx, call, use.path, f"bash code: {cmd.text[:80]}"))
    return list(dict.fromkeys(found))


def _denied(ctx: Context, call: ToolCall, path: str, where: str) -> list[Reason]:
    verdict = check_path(ctx.policy, path, write=False, cwd=call.cwd, fs=ctx.fs)
    if verdict.decision is not Decision.DENY:
        return []
    return [r for r in verdict.reasons if r.decision is Decision.DENY]
