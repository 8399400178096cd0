"""What one simple command of a shell call touches: its paths, hosts, the trees it walks and
the git configuration it reads (what its unmodelled arguments name: ``named_arguments``).

Each check adds its reasons to the command's subject and says whether everything it
touched is allowed (a reader is allowed by the mode only then).
"""

from __future__ import annotations

import posixpath

from bastion.call.effects import Effect
from bastion.policy.ceiling import FilesystemLevel
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_remotes import command_remote_hosts
from bastion.policy.included_files import check_includes
from bastion.policy.kinds import Mode
from bastion.policy.listed_paths import listed_reasons
from bastion.policy.module_shadow import shadow_reasons, shadowing_write_reason
from bastion.policy.named_programs import named_program_reason
from bastion.policy.network import decide_target
from bastion.policy.option_files import check_option_files
from bastion.policy.paths import PathError, check_path, normalise
from bastion.policy.recursive_readers import recursion_of
from bastion.policy.registry_files import check_registry_files
from bastion.policy.repositories import repository_write_reason
from bastion.policy.secret_content import linked_secret, outside_secret
from bastion.policy.shell_destroys import (
    credentials_deleted,
    file_replaced,
    outside_folder_deleted,
    startup_destroyed,
)
from bastion.policy.shell_git import check_git
from bastion.policy.shell_hg import check_hg
from bastion.policy.shell_jq import check_jq
from bastion.policy.shell_reach import (
    Unknown,
    check_recursion,
    concrete_paths,
    credential_effect,
    destructive_reason,
    destructive_target,
    home_folder,
    wildcard_parent,
)
from bastion.policy.shell_toolchain import check_toolchain
from bastion.policy.stages import Context, ceiling_write_check
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.policy.verdict import Assembly, Subject
from bastion.shell.model import Access, PathUse, SimpleCommand


def credential_tail(policy: Policy, use: PathUse) -> Reason | None:
    """DENY when a path only known at run time ends in a credential's name (``$X/.netrc``,
    ``${HOME%/}/.aws/credentials``): whatever folder comes before, that file is a credential."""
    if use.tail is None:
        return None
    probe = posixpath.normpath("/" + DYN_FOLDER + use.tail)
    hard = policy.hardline
    glob = hard.credentials.first_match(probe)
    if glob is None and use.access is Access.READ:
        glob = hard.secrets_read.first_match(probe)
    if glob is None:
        return None
    return Reason(
        Decision.DENY,
        "hardline.credentials",
        "built-in",
        f"{use.raw} ~ {glob.pattern}"[:200],
        f"{use.raw} ends in {use.tail}, a credential's name whatever folder comes before it: "
        "never read or written by an agent",
    )


#: Stands for the folder a run-time value names (no real folder is called that).
DYN_FOLDER = "\u2400dynamic"


def touched_paths(
    ctx: Context, out: Assembly, subject: Subject, cmd: SimpleCommand, cwd: str, reach: Reach
) -> bool:
    """Check every path the command touches (each glob as the words it expands to); True
    when all are allowed for their access."""
    policy = ctx.policy
    ok = True
    for use in cmd.paths:
        if use.startup and use.path is not None:
            ok = _startup_file(ctx, subject, use.path, cwd) and ok
            continue
        write = use.access is not Access.READ
        targets = concrete_paths(reach, use, cwd=cwd, home=policy.home)
        if isinstance(targets, Unknown):
            ok = False
            subject.notes.append(targets.note)
            named = credential_tail(policy, use)
            listed = listed_reasons(policy, ctx.fs, ctx.tree, reach, use, cwd=cwd) if use.listed_in else []
            if listed:  # `xargs -a list cat`: the list names a credential
                subject.effects.add(Effect.CREDENTIALS)
                subject.hard.extend(listed)
            elif named is not None:
                subject.effects.add(Effect.CREDENTIALS)
                subject.hard.append(named)
            elif targets.ask is not None:
                subject.hard.append(targets.ask)
            else:  # why nothing allowed it, should nothing else decide (the leading reason)
                subject.unmet.append(
                    Reason(Decision.ASK, "shell.dynamic-path", "built-in", use.raw, targets.note)
                )
            limited = (
                policy.ceiling is not None and policy.ceiling.filesystem is not FilesystemLevel.UNRESTRICTED
            )
            if write and limited:
                out.caps.append(
                    Reason(
                        Decision.DENY,
                        "ceiling.filesystem",
                        policy.ceiling_source,
                        use.raw,
                        "the ceiling limits writes and this target is unknown",
                    )
                )
            continue
        if use.pattern is not None and subject.traced:
            subject.notes.append(f"{use.raw} expands to {' '.join(targets)[:300]}")
        # The classifier's lexical catastrophic verdict already denies; judge the rest here.
        judge = use.access is Access.DELETE and cmd.catastrophic is None
        parent = wildcard_parent(use) if judge else None
        if parent is not None:
            emptied = check_path(policy, parent, write=True, cwd=cwd, fs=ctx.fs)
            why = destructive_target(policy, emptied)
            if why is not None:
                subject.effects.add(Effect.DESTRUCTIVE)
                subject.hard.append(destructive_reason(use.raw, f"everything in {why}"))
        for path in targets:
            ok &= _path(ctx, out, subject, use, path, cwd, reach, judge=judge, cmd=cmd)
    return ok


def _startup_file(ctx: Context, subject: Subject, path: str, cwd: str) -> bool:
    """A login shell runs its startup files: as safe as the inner command only while an agent
    cannot write them. Protected ones (a direct write would ask or be denied: shell rc files,
    /etc) are declared, not asked about; one the agent could write is code it controls."""
    verdict = check_path(ctx.policy, path, write=True, cwd=cwd, fs=ctx.fs)
    if verdict.decision is Decision.ALLOW:
        subject.effects.add(Effect.CODE)
        subject.hard.append(Reason(Decision.ASK, "shell.startup-writable", "built-in", path,
                                   f"the shell first runs {path}, which an agent may write: "
                                   "it is code the agent controls"))  # fmt: skip
        return False
    subject.notes.append(f"runs startup file {path} (protected from agent writes)")
    return True


def _path(
    ctx: Context,
    out: Assembly,
    subject: Subject,
    use: PathUse,
    path: str,
    cwd: str,
    reach: Reach,
    *,
    judge: bool,
    cmd: SimpleCommand | None = None,
) -> bool:
    policy = ctx.policy
    write = use.access is not Access.READ
    verdict = outside_secret(ctx.tree, check_path(policy, path, write=write, cwd=cwd, fs=ctx.fs), write=write)
    verdict = linked_secret(ctx.tree, ctx.fs, verdict, write=write)  # a hard link holding a token
    subject.effects |= verdict.effects
    if write and cmd is not None and verdict.decision is not Decision.ALLOW:
        # (a catastrophic target is denied as one below: its tree is not walked)
        catastrophic = cmd.catastrophic is not None or destructive_target(policy, verdict) is not None
        destroyed = startup_destroyed(policy, cmd, use, verdict) or (
            None
            if catastrophic
            else credentials_deleted(policy, ctx.fs, reach, use, verdict)
            or outside_folder_deleted(policy, reach, cmd, use, verdict)
            or file_replaced(policy, reach, cmd, use, verdict)
        )
        if destroyed is not None:
            subject.effects.add(Effect.DESTRUCTIVE)
            subject.hard.append(destroyed)
    if verdict.decision in (Decision.DENY, Decision.ASK):
        subject.hard.extend(verdict.reasons)
    hooks = (
        repository_write_reason(policy, reach, verdict)
        or shadowing_write_reason(reach, verdict)
        or named_program_reason(policy, reach, verdict)
        if write
        else None
    )
    if hooks is not None:
        subject.hard.append(hooks)
        subject.effects.add(Effect.SELF)
    if write:
        ceiling_write_check(policy, out, verdict)
    if judge:
        why = destructive_target(policy, verdict) or home_folder(policy, reach, verdict.resolved)
        if why is not None:
            subject.effects.add(Effect.DESTRUCTIVE)
            subject.hard.append(destructive_reason(path, why))
    if verdict.decision is Decision.DENY or (
        verdict.decision is not Decision.ALLOW and policy.mode is not Mode.FULL_ACCESS
    ):
        if subject.traced:
            why = use.why or use.access.value
            subject.notes.extend(f"{r.message} ({why})" for r in verdict.reasons)
        if verdict.decision is None:
            subject.unmet.extend(verdict.reasons)
        return False
    return hooks is None


def landed_paths(
    ctx: Context, out: Assembly, subject: Subject, cmd: SimpleCommand, cwd: str, reach: Reach
) -> bool:
    """A plain writer's files that land where no argument names them: ``cp a b DIR`` and
    ``mv a DIR`` write ``DIR/a`` and ``DIR/b``, each checked like a named write (``cp x
    .git/hooks`` writes a hook). A destination that does not exist yet may be a folder by the
    time it runs (``mkdir .claude; cp settings.json .claude``): both are checked. True when
    every one is an allowed write and every source is a regular file, not a link: a folder's
    tree, a device or a missing source lands under names (or with a size) not known before it
    runs, and a link copied or moved as a link would let a later write of the call leave."""
    policy = ctx.policy
    sources: list[str] = []
    folders: list[str] = []
    try:
        for use in cmd.paths:
            found = concrete_paths(reach, use, cwd=cwd, home=policy.home)
            if isinstance(found, Unknown):
                return False
            for path in found:
                where = normalise(path, cwd=cwd, home=policy.home)
                kind = reach.kind(where, follow=True)
                if use.access is Access.WRITE:
                    # a destination not there yet that already asks for itself: nothing to add
                    later = kind is Kind.MISSING and _allowed_write(ctx, reach, where, cwd)
                    folders.extend([where] if kind is Kind.DIR or later else [])
                elif kind is not Kind.FILE or reach.kind(where, follow=False) is Kind.LINK:
                    subject.notes.append(f"{path} is not a regular file: what lands is not known")
                    return False
                else:
                    sources.append(where)
    except (OverBudget, PathError):
        return False
    ok = True
    for folder in folders:
        for source in sources:
            landed = posixpath.join(folder, posixpath.basename(source))
            use = PathUse(landed, Access.WRITE, landed, f"{cmd.program} lands {source} in {folder}")
            ok = _path(ctx, out, subject, use, landed, cwd, reach, judge=False) and ok
    return ok


def _allowed_write(ctx: Context, reach: Reach, path: str, cwd: str) -> bool:
    """Whether a write of ``path`` itself passes (as ``_path`` judges it)."""
    verdict = check_path(ctx.policy, path, write=True, cwd=cwd, fs=ctx.fs)
    return (
        verdict.decision is Decision.ALLOW
        and repository_write_reason(ctx.policy, reach, verdict) is None
        and shadowing_write_reason(reach, verdict) is None
    )


def touched_reach(
    ctx: Context, subject: Subject, cmd: SimpleCommand, cwd: str, reach: Reach, cwds: tuple[str, ...] | None
) -> bool:
    """What a command reaches beyond its arguments: a recursive command's trees (a credential
    read through ``tar ch`` is one whatever the mode), and for a reader git's repository
    configuration and committed files. True when nothing asks."""
    policy = ctx.policy
    starts: list[str] = []
    marked = any(u.recursive for u in cmd.paths)  # the knowledge base names the trees itself
    # A command that does not recurse walks nothing: its globs were expanded in touched_paths.
    mode = recursion_of(cmd)
    walks = marked or mode is not None
    for use in cmd.paths if walks else ():
        if use.access is Access.READ and (use.recursive or not marked):
            found = concrete_paths(reach, use, cwd=cwd, home=policy.home)
            starts.extend(found if not isinstance(found, Unknown) else ())
    reached = check_recursion(policy, ctx.fs, reach, cmd, starts, cwd=cwd, mode=mode)
    # Every git (hg) command reads its repository's configuration, readers or not: in
    # full-access a writing or networked one runs too, and a program the config names is code.
    git = [*check_git(policy, ctx.fs, reach, cmd, cwds), *check_hg(policy, ctx.fs, reach, cmd, cwds)]
    git += check_jq(policy, ctx.fs, reach, cmd, cwds)  # what a jq program's imports load
    git += check_includes(policy, ctx.fs, reach, cmd, cwds)  # what cpp / m4 / xmllint pull in
    git += check_option_files(policy, ctx.fs, ctx.tree, reach, cmd, cwds)  # curl -K, $WGETRC
    git += check_registry_files(policy, reach, cmd, cwds)  # a .venv/pip.conf naming 169.254.169.254
    toolchain = check_toolchain(policy, reach, cmd, cwds)
    if cmd.imports_cwd:  # `python3 -m json.tool` beside a json.py runs it
        toolchain += shadow_reasons(reach, cwds, " ".join(cmd.argv[:3]))
    if toolchain:  # `cargo --version` beside a rust-toolchain.toml runs what it names
        subject.effects.add(Effect.CODE)
        git = [*git, *toolchain]
    # `git push origin`: the host is in the configuration, judged like a host in the words.
    remotes = command_remote_hosts(reach, cmd, cwds, policy.home)
    subject.notes.extend(f"remote {r.remote!r} reaches {r.host}" for r in remotes)
    hosts_ok = judge_hosts(ctx, subject, tuple(dict.fromkeys(r.host for r in remotes)))
    if not (git or reached.reasons or reached.notes):
        return hosts_ok  # the common case: nothing walked, no git
    reasons = list(dict.fromkeys([*reached.reasons, *git]))  # git grep: its walk and its index
    subject.notes.extend(reached.notes)
    subject.hard.extend(reasons)
    subject.effects |= credential_effect(tuple(reasons))
    if any(r.rule in ("shell.git-config", "shell.hg-config") for r in reasons):
        subject.effects.add(Effect.CODE)
    return not reasons and hosts_ok


def touched_hosts(ctx: Context, subject: Subject, cmd: SimpleCommand) -> bool:
    return judge_hosts(ctx, subject, cmd.hosts)


def judge_hosts(ctx: Context, subject: Subject, hosts: tuple[str, ...]) -> bool:
    """Each host through the network policy: a denial is hard, an unlisted host unmet
    (outside full-access); True when every one is allowed."""
    policy = ctx.policy
    ok = True
    for host in hosts:
        decision, reasons, _ = decide_target(host, policy.network, ctx.resolver)
        if decision is Decision.DENY:
            subject.hard.extend(reasons)
            ok = False
        elif decision is None and policy.mode is not Mode.FULL_ACCESS:
            ok = False
            subject.notes.append(f"{host} is not in allow_hosts")
            subject.unmet.extend(reasons)
    return ok
