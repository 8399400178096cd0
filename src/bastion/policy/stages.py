"""The stages every family decider calls: rules, the mode's verdicts, paths, the ceiling.

A decider gets a ``Context`` — the policy and the interfaces it reads the world through —
never the ``Gate``: the engine sits above the deciders and dispatches to them, and nothing
below it calls back up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.policy.ceiling import FilesystemLevel
from bastion.policy.compiled import Policy, Rule
from bastion.policy.decision import Decision, Reason
from bastion.policy.kinds import Mode, RuleAction
from bastion.policy.network import Resolver
from bastion.policy.paths import FileSystem, PathVerdict, check_path, inside_write_roots
from bastion.policy.secret_content import outside_secret
from bastion.policy.tree import Tree
from bastion.policy.treewalk import Reach
from bastion.policy.verdict import Assembly, Subject

if TYPE_CHECKING:
    from bastion.shell.model import ShellAnalysis

WRITE_EFFECTS = frozenset({Effect.WRITE, Effect.DELETE, Effect.INSTALL, Effect.DB_WRITE, Effect.DB_DELETE})


@dataclass(frozen=True)
class Context:
    """What a decider reads: the policy, and the file system, tree and resolver it looks
    through. ``sandboxed``: will allowed code run inside the OS sandbox? ``contained``: will
    an allowed shell call run contained (``bastion.policy.contained_code``)?"""

    policy: Policy
    fs: FileSystem
    tree: Tree
    resolver: Resolver | None
    sandboxed: bool
    analyze_shell: Callable[[str], ShellAnalysis]
    contained: bool = False
    #: How deep in script files this decision is (``script_files``): a script's own scripts
    #: are followed only so far.
    scripts_depth: int = 0

    @property
    def reach(self) -> Reach:
        return Reach(self.tree, self.fs.resolve)


def last_rule(ctx: Context, family: Family, test: Callable[[Rule], bool]) -> Rule | None:
    """The last ``[[rule]]`` of ``family`` that ``test`` accepts: the last match overrides."""
    found = None
    for rule in ctx.policy.rules:
        if rule.matcher.family is family and test(rule):
            found = rule
    return found


def rule_reason(rule: Rule, matched: str, *, decision: Decision | None = None) -> Reason:
    action = decision if decision is not None else rule.action.decision
    message = rule.reason or f"{rule.rule_id} ({rule.action}) matched {matched}"
    return Reason(action, rule.rule_id, rule.source, matched, message)


def mode_block(policy: Policy, what: str) -> Reason:
    return Reason(
        Decision.DENY,
        f"mode.{policy.mode}",
        policy.mode_source,
        what,
        f"{what} is not allowed in {policy.mode} mode",
    )


#: What ``ask-before-edit`` asks about: every write, and what may write (code, an unknown).
EDIT_EFFECTS = WRITE_EFFECTS | {Effect.CODE, Effect.UNKNOWN}


def ask_before_edit(policy: Policy, out: Assembly) -> Reason | None:
    """In ``ask-before-edit`` mode, the ask a call that may write gets (None: it reads only)."""
    effects = set().union(*(s.effects for s in out.subjects)) if out.subjects else set()
    edits = effects & EDIT_EFFECTS
    if not edits:
        return None
    what = ", ".join(sorted(e.value for e in edits))
    return Reason(
        Decision.ASK,
        f"mode.{policy.mode}",
        policy.mode_source,
        what,
        f"{policy.mode} mode: reads run, every edit asks ({what})",
    )


def full_access_allow(policy: Policy, matched: str, message: str) -> Reason:
    return Reason(Decision.ALLOW, "mode.full-access", policy.mode_source, matched, message)


def ceiling_write_check(policy: Policy, out: Assembly, verdict: PathVerdict) -> None:
    ceiling = policy.ceiling
    if (
        ceiling is not None
        and ceiling.filesystem is FilesystemLevel.WORKSPACE_WRITE
        and not (verdict.decision is not Decision.DENY and inside_write_roots(policy, verdict))
    ):
        out.caps.append(
            Reason(
                Decision.DENY,
                "ceiling.filesystem",
                policy.ceiling_source,
                verdict.lexical,
                f"the ceiling allows writes only inside the workspace roots; {verdict.lexical} is outside",
            )
        )


def path_subject(
    ctx: Context, out: Assembly, family: Family, path: str, *, write: bool, cwd: str, label: str
) -> tuple[Subject, PathVerdict]:
    policy = ctx.policy
    verdict = outside_secret(ctx.tree, check_path(policy, path, write=write, cwd=cwd, fs=ctx.fs), write=write)
    subject = out.add(Subject(label=f"{label} {verdict.lexical}", effects=set(verdict.effects)))
    if verdict.decision in (Decision.DENY, Decision.ASK):
        subject.hard.extend(verdict.reasons)
    elif verdict.decision is Decision.ALLOW:
        subject.notes.extend(r.message for r in verdict.reasons)
    if write:  # a repository's config, hooks and hooksPath folder are agent configuration too
        # git's config syntax comes with the shell tables: loaded on the first write only
        from bastion.policy.module_shadow import shadowing_write_reason
        from bastion.policy.named_programs import named_program_reason
        from bastion.policy.repositories import repository_write_reason

        hooks = (
            repository_write_reason(policy, ctx.reach, verdict)
            or shadowing_write_reason(ctx.reach, verdict)
            or named_program_reason(policy, ctx.reach, verdict)
        )
        if hooks is not None:
            subject.hard.append(hooks)
            subject.effects.add(Effect.SELF)
    spellings = {verdict.lexical, verdict.resolved}
    # An allow must hold for every spelling (a symlink's target too); a deny for any.
    rule = last_rule(
        ctx,
        family,
        lambda r: (all if r.action is RuleAction.ALLOW else any)(
            r.matcher.matches_path(p) for p in spellings
        ),
    )
    if rule is not None:
        subject.override = rule_reason(rule, verdict.lexical)
    if write and policy.mode is Mode.READ_ONLY:
        out.caps.append(mode_block(policy, f"writing {verdict.lexical}"))
    if write:
        ceiling_write_check(policy, out, verdict)
    if verdict.decision is Decision.ALLOW:
        subject.mode = verdict.reasons[0]
    elif policy.mode is Mode.FULL_ACCESS:
        subject.mode = full_access_allow(
            policy, verdict.lexical, f"full-access allows what is not denied ({verdict.lexical})"
        )
    else:
        subject.notes.extend(r.message for r in verdict.reasons)
        subject.unmet.extend(verdict.reasons)  # outside every root: says which path
    return subject, verdict


def install_subject(
    ctx: Context, out: Assembly, call: ToolCall, manager: str, packages: tuple[str, ...], *, label: str
) -> Subject:
    """Installs ask in every mode unless a rule names the manager and every package."""
    subject = out.add(Subject(label=f"{label} {' '.join(packages)}"[:300], effects={Effect.INSTALL}))
    rule = last_rule(
        ctx, Family.INSTALL, lambda r: all(r.matcher.matches_words(manager, p) for p in packages)
    )
    if rule is not None:
        subject.override = rule_reason(rule, f"{manager} {' '.join(packages)}")
    if ctx.policy.mode is Mode.READ_ONLY:
        out.caps.append(mode_block(ctx.policy, "installing packages"))
    elif call.interactive:
        subject.mode = Reason(
            Decision.ASK,
            "install.confirm",
            "built-in",
            manager,
            "installing packages changes the machine: a person confirms",
        )
    else:
        subject.mode = Reason(
            Decision.DENY,
            "install.non-interactive",
            "built-in",
            manager,
            "installing packages needs a person, and nobody can be asked",
        )
    return subject
