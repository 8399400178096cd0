"""The tool families other than ``shell`` and ``mcp``: paths, fetch, code, install, db.

Each decider reads its arguments (a malformed one is a ``CallError``: the engine denies
with ``call.invalid``) and adds its subjects to the ``Assembly``, through the stages only.
"""

from __future__ import annotations

import math

from bastion.call.effects import Effect
from bastion.call.families import CODE_LANGUAGES, DB_OPERATIONS, Family
from bastion.call.model import ToolCall
from bastion.errors import CallError
from bastion.policy.code_reads import credential_reads
from bastion.policy.decision import Decision, Reason
from bastion.policy.kinds import Mode
from bastion.policy.network import decide_target
from bastion.policy.packages import package_denials
from bastion.policy.shell_reach import SEARCH_TOOL, check_tree_read, credential_effect
from bastion.policy.stages import Context, install_subject, last_rule, mode_block, path_subject, rule_reason
from bastion.policy.verdict import Assembly, Subject


def decide_path(ctx: Context, call: ToolCall, out: Assembly) -> None:
    family = call.family
    assert family is not None
    write = family in (Family.WRITE, Family.EDIT)
    path = call.args.get("path")
    if path is None and family in (Family.LIST, Family.GLOB, Family.GREP):
        path = "."
    if not isinstance(path, str) or not path:
        raise CallError(f"{family.value}: argument 'path' must be a non-empty string")
    subject, verdict = path_subject(ctx, out, family, path, write=write, cwd=call.cwd, label=family.value)
    if family is Family.GREP and verdict.decision is not Decision.DENY:
        # It reads every file below the path, as a recursive grep does: a credential file
        # reached under another name (a hard link) or through a symlink is denied. What a
        # recursive grep only asks about (a project's own .env, a link out of the roots) is
        # left to the tool: Bastion's own grep skips each file the path policy does not allow.
        reached = check_tree_read(
            ctx.policy, ctx.fs, ctx.reach, "the search tool", [path], cwd=call.cwd, mode=SEARCH_TOOL
        )
        denied = tuple(r for r in reached.reasons if r.decision is Decision.DENY)
        subject.notes.extend(reached.notes)
        subject.hard.extend(denied)
        subject.effects |= credential_effect(denied)


def decide_fetch(ctx: Context, call: ToolCall, out: Assembly) -> None:
    url = call.require_str("url")
    policy = ctx.policy
    decision, reasons, target = decide_target(url, policy.network, ctx.resolver)
    subject = out.add(Subject(label=f"fetch {url[:200]}", effects={Effect.NETWORK}))
    if decision is Decision.DENY:
        subject.hard.extend(reasons)
        return
    host = target.host if target else ""
    rule = last_rule(ctx, Family.FETCH, lambda r: r.matcher.matches_host(target))
    if decision is Decision.ALLOW:
        subject.override = reasons[0]
    else:
        subject.unmet.extend(reasons)  # the host not in allow_hosts, for the leading reason
    if rule is not None:
        subject.override = rule_reason(rule, host)
    if policy.mode is Mode.FULL_ACCESS:
        subject.mode = Reason(
            Decision.ALLOW,
            "mode.full-access",
            policy.mode_source,
            host,
            "full-access allows what is not denied",
        )
    elif policy.mode is Mode.READ_ONLY:
        subject.mode = mode_block(policy, f"network access to {host} (not in allow_hosts)")
    subject.notes.extend(r.message for r in reasons)


def decide_code(ctx: Context, call: ToolCall, out: Assembly) -> None:
    language = call.require_str("language")
    if language not in CODE_LANGUAGES:
        raise CallError(f"code: language must be one of {', '.join(sorted(CODE_LANGUAGES))}")
    if not isinstance(call.args.get("source"), str):
        raise CallError("code: argument 'source' must be a string")
    timeout = call.args.get("timeout", 30)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not (math.isfinite(timeout) and timeout > 0)
    ):
        raise CallError("code: 'timeout' must be a positive number of seconds")
    policy = ctx.policy
    subject = out.add(Subject(label=f"code {language}", effects={Effect.CODE}))
    subject.hard.extend(credential_reads(ctx, call, language, call.args["source"]))
    rule = last_rule(ctx, Family.CODE, lambda r: r.matcher.matches_words(language))
    if rule is not None:
        subject.override = rule_reason(rule, language)
    if policy.mode is Mode.READ_ONLY:
        out.caps.append(mode_block(policy, "running code"))
    elif ctx.sandboxed:
        subject.mode = Reason(
            Decision.ALLOW,
            f"mode.{policy.mode}",
            policy.mode_source,
            language,
            "code runs inside the OS sandbox",
        )
    else:
        subject.hard.append(
            Reason(
                Decision.ASK,
                "code.unsandboxed",
                "built-in",
                language,
                "no OS sandbox is available: running code needs a person",
            )
        )


def decide_install(ctx: Context, call: ToolCall, out: Assembly) -> None:
    manager = call.require_str("manager")
    packages = call.args.get("packages")
    if isinstance(packages, str):
        packages = (packages,)
    if not isinstance(packages, tuple) or not packages or not all(isinstance(p, str) and p for p in packages):
        raise CallError("install: 'packages' must be a non-empty list of package names")
    subject = install_subject(ctx, out, call, manager, tuple(packages), label=f"install {manager}")
    subject.hard.extend(package_denials(manager, tuple(packages)))  # names, not flags/paths/URLs


def decide_db(ctx: Context, call: ToolCall, out: Assembly) -> None:
    operation = call.require_str("operation")
    if operation not in DB_OPERATIONS:
        raise CallError("db: 'operation' must be read, write or delete")
    target = call.args.get("target", "")
    if not isinstance(target, str):
        raise CallError("db: 'target' must be a string")
    policy = ctx.policy
    effect = {"read": Effect.DB_READ, "write": Effect.DB_WRITE, "delete": Effect.DB_DELETE}[operation]
    subject = out.add(Subject(label=f"db {operation} {target}"[:300], effects={effect}))
    rule = last_rule(ctx, Family.DB, lambda r: r.matcher.matches_words(operation, target or "-"))
    if rule is not None:
        subject.override = rule_reason(rule, f"{operation} {target}")
    if operation != "read" and policy.mode is Mode.READ_ONLY:
        out.caps.append(mode_block(policy, f"database {operation}"))
    elif operation == "delete":
        subject.hard.append(
            Reason(
                Decision.ASK,
                "db.delete",
                "built-in",
                target,
                "deleting data is destructive: a person confirms",
            )
        )
    else:
        subject.mode = Reason(
            Decision.ALLOW,
            f"mode.{policy.mode}",
            policy.mode_source,
            operation,
            f"database {operation} is allowed in {policy.mode} mode",
        )
