"""The tool families other than ``shell`` and ``mcp``: paths, fetch, code, install, db.

Each decider reads its arguments (a malformed one is a ``CallError``: the engine denies
with ``call.invalid``) and adds its subjects to the ``Assembly``, through the stages only.
"""

from __future__ import annotations

import math
import posixpath

from bastion.call.effects import Effect
from bastion.call.families import CODE_LANGUAGES, DB_OPERATIONS, Family
from bastion.call.model import ToolCall
from bastion.errors import CallError
from bastion.policy.code_reads import credential_reads
from bastion.policy.config_hooks import config_hook_reason
from bastion.policy.decision import Decision, Reason
from bastion.policy.kinds import Mode
from bastion.policy.lifecycle import lifecycle_write_reason
from bastion.policy.network import decide_target
from bastion.policy.packages import package_denials
from bastion.policy.paths import CallFs, PathError, absolute
from bastion.policy.search_lines import tool_lines
from bastion.policy.shell_destroys import startup_replaced
from bastion.policy.shell_reach import SEARCH_TOOL, budget_reason, check_tree_read, credential_effect
from bastion.policy.stages import Context, install_subject, last_rule, mode_block, path_subject, rule_reason
from bastion.policy.treewalk import OverBudget, walk
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
    if write and verdict.decision is not Decision.DENY:
        lifecycle = lifecycle_write_reason(ctx.reach, verdict.resolved, call.args)
        hooked = config_hook_reason(ctx.reach, verdict.resolved, call.args)
        for later in (lifecycle, hooked):  # a package.json install script, a pylint init-hook
            if later is not None:
                subject.hard.append(later)
                subject.effects.add(Effect.SELF)
        wiped = startup_replaced(ctx.policy, ctx.reach, verdict, call.args.get("content"))
        if family is Family.WRITE and wiped is not None:  # ~/.profile replaced with "x"
            subject.hard.append(wiped)
            subject.effects.add(Effect.DESTRUCTIVE)
    if family is Family.GREP and verdict.decision is not Decision.DENY:
        # It reads every file below the path, as a recursive grep does: a credential file
        # reached under another name (a hard link) or through a symlink is denied. What a
        # recursive grep only asks about (a project's own .env, a link out of the roots) is
        # left to the tool: Bastion's own grep skips each file the path policy does not allow.
        # Lines it prints (Claude's ``output_mode: content``) print what a credential file
        # below holds when it matches: one reached in the project (by name, or by a secret it
        # holds: ``.git/config``'s remote with a token) asks too, and is denied when its
        # pattern matches a line of it (#31, suite E).
        # In names or counts only, it is denied when a line it matches holds a secret's shape.
        printed = call.args.get("output_mode") == "content"
        reached = check_tree_read(
            ctx.policy,
            _call_fs(ctx),
            ctx.reach,
            "the search tool",
            [path],
            cwd=call.cwd,
            mode=SEARCH_TOOL,
            printed=tool_lines(call.args.get("pattern")),
            names_only=not printed,
        )
        denied = tuple(
            r
            for r in reached.reasons
            if r.decision is Decision.DENY or (printed and r.rule == "hardline.credentials")
        )
        subject.notes.extend(reached.notes)
        subject.hard.extend(denied)
        subject.effects |= credential_effect(denied)
    pattern = call.args.get("pattern")
    if family is Family.GLOB and verdict.decision is not Decision.DENY and isinstance(pattern, str):
        # The names it lists are those of the folder its pattern starts in, which a symlink
        # or a ``..`` may put anywhere (``homelink/.ssh/*``, ``../home/**``): read like a list.
        start = glob_start(path, pattern)
        if start != path:
            path_subject(ctx, out, family, start, write=False, cwd=call.cwd, label="glob lists")


def _call_fs(ctx: Context) -> CallFs:
    """This call's memo over the file system (the credential files' identities looked at
    once, and only looked for below a folder when one has another name)."""
    if isinstance(ctx.fs, CallFs) and ctx.fs.policy is ctx.policy:
        return ctx.fs
    return CallFs(ctx.fs, ctx.policy, ctx.tree)


_WILDCARDS = frozenset("*?[{")


def glob_start(path: str, pattern: str) -> str:
    """The folder (or file) a glob ``pattern`` below ``path`` starts from: its components up
    to the first wildcard, climbing once for each ``..`` after it (``*/../..``)."""
    parts = pattern.split("/")
    fixed: list[str] = []
    for index, part in enumerate(parts):
        if _WILDCARDS.intersection(part):
            fixed += [".."] * parts[index + 1 :].count("..")
            break
        fixed.append(part)
    start = "/".join(fixed).rstrip("/") or ("/" if pattern.startswith("/") else "")
    if not start:
        return path
    return start if start.startswith(("/", "~")) else posixpath.join(path, start)


def linked_credentials(ctx: Context, what: str, starts: tuple[str, ...], *, cwd: str) -> list[Reason]:
    """Another name (a hard link) of one of HOME's credential files below ``starts``: what
    runs there reads the credential through it. Nothing is walked unless a credential file
    has more than one name (then one stat per file walked); past the budget: asks."""
    fs = _call_fs(ctx)
    known = fs.credential_ids()
    if not known:
        return []

    def linked(path: str) -> bool:
        found = fs.identity(path)
        return found is not None and (found.device, found.inode) in known

    reasons: list[Reason] = []
    for start in dict.fromkeys(starts):
        try:
            top = posixpath.normpath(absolute(start, cwd=cwd, home=ctx.policy.home))
            found = walk(ctx.reach, top, follow_links=False, skip=lambda p, d: False, flag=linked)
        except OverBudget:
            reasons.append(budget_reason(start, what))
            continue
        except PathError:
            continue
        for item in found[:20]:
            file_id = fs.identity(item.path)
            credential = known.get((file_id.device, file_id.inode), "") if file_id else ""
            reasons.append(
                Reason(
                    Decision.DENY,
                    "hardline.credentials",
                    "built-in",
                    item.path[:200],
                    f"{what} can read everything below {top}, which holds {item.path}, another name "
                    f"(a hard link) of the credential file {credential}: never read by an agent",
                )
            )
    return reasons


def decide_fetch(ctx: Context, call: ToolCall, out: Assembly) -> None:
    url = call.require_str("url")
    policy = ctx.policy
    sent = call.args.get("path")
    if isinstance(sent, str) and sent:  # a local file the request carries (send_file): a read
        path_subject(ctx, out, Family.READ, sent, write=False, cwd=call.cwd, label="fetch sends")
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
    # Code reads whatever its folder and the workspace hold: a credential there under another
    # name is read as the credential (the sandbox hides it as well).
    roots = policy.write_roots
    starts = (*roots, call.cwd) if not any(posixpath.commonpath((call.cwd, r)) == r for r in roots) else roots
    denied = tuple(linked_credentials(ctx, f"code ({language})", starts, cwd=call.cwd))
    subject.hard.extend(denied)
    subject.effects |= credential_effect(denied)


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
