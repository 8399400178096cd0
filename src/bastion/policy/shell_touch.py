"""What one simple command of a shell call touches: its paths, hosts, the trees it walks,
the git configuration it reads, and credential locations named in its arguments.

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
from bastion.policy.paths import PathError, check_path, hard_link_to_credential, normalise
from bastion.policy.recursive_readers import recursion_of
from bastion.policy.registry_files import check_registry_files
from bastion.policy.repositories import repository_write_reason
from bastion.policy.secret_content import linked_secret, outside_secret
from bastion.policy.shell_destroys import credentials_deleted, startup_destroyed, startup_files
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

_EXCLUDING = ("--exclude=", "--exclude-dir=")


def credential_arguments(ctx: Context, subject: Subject, cmd: SimpleCommand, cwd: str) -> None:
    """A safety net for programs whose arguments the knowledge base does not model as paths
    (``pytest ~/.ssh/id_rsa``, ``tool --key=~/.aws/credentials``): a path-like word naming a
    credential location asks a person."""
    known: set[str] | None = None  # built on the first path-like word (most commands have none)
    credentials = ctx.policy.hardline.credentials
    startup = startup_files(ctx.policy.home)
    before = ""
    for word in cmd.argv[1:]:
        option, before = before, word
        if word.startswith(_EXCLUDING):
            continue  # a pattern of what to leave out (grep/tar/rsync --exclude=.env)
        if word.startswith("-") and "=" in word:
            option, _, value = word.partition("=")
        else:
            value = word
        if not (value.startswith(("/", "~", ".")) or "/" in value):
            continue
        if known is None:
            known = {p.raw for p in cmd.paths} | {p.path for p in cmd.paths if p.path}
        if value in known:
            continue
        try:
            path = normalise(value, cwd=cwd, home=ctx.policy.home)
        except PathError:
            continue
        glob = credentials.first_match(path)
        pattern = glob.pattern if glob is not None else None
        read = option in _INPUTS or (cmd.program in OPERAND_READERS and not word.startswith("-"))
        if pattern is None and read:  # a credential by its inode, as an input
            pattern = _linked_credential(ctx, path)
        if pattern is not None:
            subject.effects.add(Effect.CREDENTIALS)
            subject.hard.append(_credential_argument(value, path, pattern, read))
        elif not cmd.pure_reader and path in startup:
            subject.effects.add(Effect.DESTRUCTIVE)
            subject.hard.append(_startup_argument(value, path))


#: Programs that read every operand and print its lines: a C compiler preprocessing it
#: (``gcc -E -x c ~/.netrc``), or quoting the lines its diagnostics are about.
OPERAND_READERS = frozenset({"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "cpp", "clang-cpp"})


def _startup_argument(value: str, path: str) -> Reason:
    """A program that is no recognised reader, given a shell start-up file of HOME where the
    tables do not say what it does with it (``openssl rand -out ~/.bashrc``, ``gcc -o
    ~/.bashrc``, ``git bundle create ~/.bashrc``): it may replace it."""
    return Reason(
        Decision.DENY,
        "hardline.destructive",
        "built-in",
        path[:200],
        f"argument {value!r} names the shell start-up file {path}, and the program is no recognised "
        "reader: it may replace the person's own set-up, never done by an agent",
    )


def _linked_credential(ctx: Context, path: str) -> str | None:
    try:
        return hard_link_to_credential(ctx.policy, ctx.fs, ctx.fs.resolve(path))
    except OSError:
        return None


#: Options that name the file a program takes as its input, to transform and print or send
#: (``openssl base64 -in F``, ``tool --input=F``): a credential named there is read.
_INPUTS = frozenset(
    {"-in", "--in", "-input", "--input", "-infile", "--infile", "--input-file", "--from-file"}
)


def _credential_argument(value: str, path: str, pattern: str, read: bool) -> Reason:
    if read:
        return Reason(
            Decision.DENY,
            "hardline.credentials",
            "built-in",
            f"{path} ~ {pattern}",
            f"{value!r} is given as the program's input, and names a credential location: "
            "the program reads it (never read by an agent)",
        )
    return Reason(
        Decision.ASK,
        "hardline.credentials",
        "built-in",
        f"{path} ~ {pattern}",
        f"argument {value!r} names a credential location: a person must confirm",
    )


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
            None if catastrophic else credentials_deleted(policy, ctx.fs, reach, use, verdict)
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
