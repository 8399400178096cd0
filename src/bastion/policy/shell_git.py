"""git reads run what the repository's configuration says: find the repository a git
command acts on, read the configuration git would load, and find committed credentials.

The repository: after ``-C DIR`` (cumulative) or ``--git-dir``, the nearest ``.git`` (a
folder, a ``gitdir:`` file or a link) or bare repository up from the cwd, as git discovers
it (on the resolved path). Its configuration: ``config``, ``config.worktree``, the common
dir's ``config`` (linked worktrees), every submodule's ``modules/**/config``, the global
``~/.gitconfig``, ``~/.config/git/config`` and ``/etc/gitconfig``, and every
``include.path`` / ``includeIf.*.path`` they name (followed whatever the condition: the
stricter reading). A key that runs a program during that read (``git_config.runs_for``)
makes it code; keys that only run for commands that are no readers anyway (an editor, hooks,
merge drivers) do not. So does a hook that runs on reads (``READ_HOOKS``) in the hooks folder
of the repository, its submodules or a ``core.hooksPath``.

Trust what the agent could not have written: a program named in the person's own (global or
system) configuration — git-lfs's filters, a ``delta`` pager — is their choice, not code,
while that file (and the file it includes, and the program when named by a path) lies outside
every write root and a direct write to it would ask or be denied
(``repositories.agent_cannot_write``). Repository configuration and what it includes never is.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_config import ConfigSyntax, parse, runs_for
from bastion.policy.git_history_reasons import history_reasons
from bastion.policy.git_hooks import read_hooks
from bastion.policy.git_index import IndexUnknown, index_paths
from bastion.policy.git_remote_urls import prints_remote_url, remote_token_reasons
from bastion.policy.git_staged import staged_credentials
from bastion.policy.git_work_tree import home_tree_reasons, work_tree_of
from bastion.policy.paths import FileSystem, check_path
from bastion.policy.repositories import (
    Repo,
    agent_cannot_write,
    config_entries,
    discover,
    global_config_files,
    repository_config_files,
)
from bastion.policy.shell_reach import destructive_reason, destructive_target
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.analysis import cd_target
from bastion.shell.model import SimpleCommand

#: Global options that take a value (the value is the next word unless written ``--x=v``).
_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                     "--exec-path", "--super-prefix", "--list-cmds"})  # fmt: skip
#: Subcommands that print the content of committed files.
_PRINTS_FILES = frozenset({"grep", "show", "diff", "cat-file", "archive", "blame", "annotate",
                           "difftool", "format-patch", "range-diff", "fast-export"})  # fmt: skip
_PATCHING = frozenset({"log", "whatchanged", "reflog", "stash", "diff-tree", "diff-index"})
_PATCH_FLAGS = frozenset({"-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw",
                          "--cc", "--word-diff", "--full-diff", "--color-words"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Invocation:
    dirs: tuple[str, ...]  # where git starts (absolute, after -C)
    git_dir: str | None  # --git-dir, absolute
    work_tree: str | None
    sub: str | None
    args: tuple[str, ...]


def invocation(cmd: SimpleCommand, cwds: tuple[str, ...], home: str) -> Invocation | str:
    """The directories a git argv acts on, or why they are only known at run time."""
    argv = tuple(home + a[1:] if a == "~" or a.startswith("~/") else a for a in cmd.argv)
    dirs = list(cwds)
    git_dir = work_tree = None
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        flag, eq, value = argv[i].partition("=")
        index = i
        if flag in _VALUED and not eq:
            index, value = i + 1, argv[i + 1] if i + 1 < len(argv) else ""
        if flag in ("-C", "--git-dir", "--work-tree"):
            if index in cmd.dynamic_words:
                return f"git {flag} {value} is only known at run time"
            if value == "~" or value.startswith("~/"):
                # ``--work-tree=$HOME`` as the classifier spells it (``--work-tree=~``); a
                # folder literally named ``~`` is taken for HOME too, the stricter reading
                value = home + value[1:]
            if flag == "-C":
                dirs = [posixpath.join(d, value) for d in dirs] if value else dirs
            elif flag == "--git-dir":
                git_dir = posixpath.join(dirs[0], value)
            else:
                work_tree = posixpath.join(dirs[0], value)
        i = index + 1
    sub = argv[i] if i < len(argv) else None
    return Invocation(tuple(dirs), git_dir, work_tree, sub, argv[i + 1 :])


@dataclass(frozen=True, slots=True)
class Finding:
    file: str
    key: str
    line: int


SYSTEM_CONFIG = "/etc/gitconfig"


def dangerous_settings(
    reach: Reach,
    files: list[tuple[str, bool]],
    home: str,
    subcommand: str | None,
    trusted: Callable[[str], bool],
    base: str = "/",
) -> list[Finding]:
    """Every setting in ``files`` (and what they include) that runs a program while the
    read-only ``subcommand`` runs. Each file comes with whether it may be trusted (global or
    system configuration): one is trusted when ``trusted(path)`` also holds (the agent could
    not have written it), and a file it includes only when that holds for it too; what
    repository configuration includes is never trusted, nor a setting whose program is a
    file ``trusted`` does not hold for (relative to ``base``, where git runs it: the work
    tree's top; ``core.fsmonitor = .git/hooks/x``, ``pager = ~/proj/p.sh``). An untrusted
    setting that only repeats one the person chose (``git lfs install --local`` writes the
    same filter to the repository) names no new program. Raises OSError, ConfigSyntax,
    OverBudget."""
    found: list[tuple[Finding, tuple[str, str | None]]] = []
    chosen: set[tuple[str, str | None]] = set()
    for path, entry, user_choice in config_entries(reach, files, home, trusted):
        if runs_for(entry, subcommand):
            # the person's setting, unless the program it names is a file the agent writes
            program = _program_path(entry.value, home, base) if user_choice else None
            if user_choice and (program is None or trusted(program)):
                chosen.add((entry.key, entry.value))
            else:
                found.append((Finding(path, entry.key, entry.line), (entry.key, entry.value)))
    return [finding for finding, setting in found if setting not in chosen]


def _program_path(value: str | None, home: str, base: str) -> str | None:
    """The file a setting's program word names when that word is a path (None for a bare
    name, which git looks up on PATH like any command the person runs)."""
    words = (value or "").split(None, 1)
    word = words[0].removeprefix("!") if words else ""
    if word == "~" or word.startswith("~/"):
        word = home + word[1:]
    if "/" not in word:
        return None
    return posixpath.normpath(posixpath.join(base, word))


def prints_files(inv: Invocation) -> bool:
    if inv.sub in _PRINTS_FILES:
        return True
    return inv.sub in _PATCHING and any(
        a in _PATCH_FLAGS or a.startswith(("-U", "--unified", "-L")) for a in inv.args
    )  # log -L prints the patches of a line range


def _reason(where: str, message: str, rule: str = "shell.git-config") -> Reason:
    return Reason(Decision.ASK, rule, "built-in", where[:200], message)


def check_git(
    policy: Policy, fs: FileSystem, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """Reasons a git command is not the reader it looks like ([] when it is one)."""
    if cmd.program != "git" or cmd.dynamic:
        return []
    if cwds is None:
        return [_reason("git", "git runs in a directory only known at run time: its config is unknown")]
    inv = invocation(cmd, cwds, policy.home)
    if isinstance(inv, str):
        return [_reason("git", f"{inv}: its configuration is unknown")]
    if inv.sub in (None, "version") and inv.git_dir is None:
        return []
    deletes = Effect.DELETE in cmd.effects and inv.sub == "clean"
    reasons = _named_places(policy, fs, inv, cwds, deletes=deletes)

    def trusted(path: str) -> bool:
        return agent_cannot_write(policy, fs, path)

    try:
        for place in inv.dirs if inv.git_dir is None else ():
            if discover(reach, place) is None:  # none yet: one made earlier in the call (git init)
                unborn = Repo(posixpath.join(place, ".git"), place)
                reasons.extend(home_tree_reasons(policy, reach, unborn, inv.sub, inv.args, inv.work_tree))
        for repo in _repos(reach, inv):
            files = [(p, False) for p in repository_config_files(reach, repo)]
            files += [(p, True) for p in (*global_config_files(policy.home), SYSTEM_CONFIG)]
            base = repo.work_tree or repo.git_dir
            for finding in dangerous_settings(reach, files, policy.home, inv.sub, trusted, base):
                reasons.append(
                    _reason(
                        f"{finding.file}:{finding.line} {finding.key}",
                        f"git reads {finding.file}, which sets {finding.key} (line {finding.line}): "
                        "that setting runs a program, so this git command runs repository code",
                    )
                )
            reasons.extend(_config_write(cmd, inv, repo))
            if inv.sub == "fsck" and "--lost-found" in inv.args:
                message = (
                    "git fsck --lost-found writes what every unreachable object holds (what the history "
                    "dropped: a scrubbed secret among it) into .git/lost-found, for a later read to "
                    "print: a person must confirm"
                )
                reasons.append(_reason(repo.git_dir, message, "hardline.credentials"))
            if inv.sub == "add":
                top = work_tree_of(reach, repo, inv.work_tree)
                reasons.extend(staged_credentials(policy, fs, reach, inv.args, inv.dirs[0], top))
            reasons.extend(home_tree_reasons(policy, reach, repo, inv.sub, inv.args, inv.work_tree))
            if prints_remote_url(inv.sub, inv.args):
                printer = " ".join(("git", inv.sub or "", *inv.args[:2]))[:80]
                reasons.extend(remote_token_reasons(reach, [p for p, _ in files], policy.home, printer))
            for hook in read_hooks(reach, repo, policy.home, trusted):
                reasons.append(
                    _reason(hook, f"git runs the hook {hook} during this command: it is repository code")
                )
            if prints_files(inv):
                first = len(cmd.argv) - len(inv.args)
                if any(i >= first for i in cmd.dynamic_words):  # ``git cat-file -p $(cat F)``
                    unknown = f"git {inv.sub} prints a revision or object only known at run time"
                    message = f"{unknown}, which may hold a secret: a person must confirm"
                    reasons.append(_reason(repo.git_dir, message, "hardline.credentials"))
                reasons.extend(_committed_credentials(policy, reach, repo, inv))
                reasons.extend(_named_credentials(policy, repo, inv))
                top = work_tree_of(reach, repo, inv.work_tree)
                reasons.extend(
                    history_reasons(policy, reach, repo.git_dir, top, inv.dirs[0], inv.sub, inv.args)
                )
    except OverBudget as exc:
        return [_reason(exc.where, f"git's repository and configuration below {exc.where} exceed the budget")]
    except (OSError, ConfigSyntax, IndexUnknown) as exc:
        return [_reason("git", f"git's repository or configuration cannot be read: {exc}")]
    return list(dict.fromkeys(reasons))


#: ``git config`` options that write somewhere else than the repository's configuration.
_ELSEWHERE = ("--global", "--system", "-f", "--file", "--blob")


def _config_write(cmd: SimpleCommand, inv: Invocation, repo: Repo) -> list[Reason]:
    """``git config KEY VALUE`` (``--local``, ``--worktree``) writes the repository's config:
    it asks like a direct write to it, in every mode."""
    if inv.sub != "config" or Effect.WRITE not in cmd.effects:
        return []
    if any(a.partition("=")[0] in _ELSEWHERE for a in inv.args):
        return []
    name = "config.worktree" if "--worktree" in inv.args else "config"
    target = posixpath.join(repo.git_dir, name)
    return [
        Reason(
            Decision.ASK,
            "hardline.agent-config",
            "built-in",
            target,
            f"git config writes {target}, the repository's configuration: git runs what it names, "
            "so a person must confirm",
        )
    ]


def _named_places(
    policy: Policy, fs: FileSystem, inv: Invocation, cwds: tuple[str, ...], deletes: bool = False
) -> list[Reason]:
    """``-C``, ``--git-dir`` and ``--work-tree`` name where git reads: the path policy decides
    them like any read (``git -C ~/.ssh log``, ``git --work-tree=/ diff``). When the command
    deletes what the place holds (``git -C ~ clean -fdx``), a place that is HOME, ``/``, a
    system folder or an ancestor of the workspace is a catastrophic delete: denied."""
    named = [*(inv.dirs if inv.dirs != cwds else ()), inv.git_dir, inv.work_tree]
    reasons: list[Reason] = []
    for place in dict.fromkeys(p for p in named if p is not None):
        verdict = check_path(policy, place, write=False, cwd="/", fs=fs)
        why = destructive_target(policy, verdict) if deletes and place != inv.git_dir else None
        if why is not None:
            reasons.append(destructive_reason(f"git clean in {place}", f"what git clean finds in {why}"))
        if verdict.decision is Decision.DENY:
            reasons.extend(verdict.reasons)
        elif verdict.decision is not Decision.ALLOW:
            reasons.append(
                _reason(
                    verdict.lexical,
                    f"git acts on {verdict.lexical}, which is not an allowed read",
                    rule="shell.git-place",
                )
            )
    return reasons


def _repos(reach: Reach, inv: Invocation) -> list[Repo]:
    if inv.git_dir is not None:
        return [Repo(inv.git_dir, inv.work_tree)]
    found = [discover(reach, d) for d in inv.dirs]
    repos = (Repo(r.git_dir, inv.work_tree or r.work_tree) for r in found if r is not None)
    return list(dict.fromkeys(repos))


def _named_credentials(policy: Policy, repo: Repo, inv: Invocation) -> list[Reason]:
    """``git show HEAD~3:.env``, ``git log -p -- id_rsa``: a path named on the command line
    is printed from history even when the index no longer lists it: a credential read, denied
    like ``cat .env`` (what history holds is what the file held)."""
    base = repo.work_tree or posixpath.dirname(repo.git_dir)
    credentials = policy.hardline.credentials
    out = []
    for word in inv.args:
        if word.startswith("-"):
            continue
        path = word.partition(":")[2] if ":" in word else word
        if path and credentials.first_match(posixpath.join(base, path.lstrip("/"))) is not None:
            out.append(
                Reason(
                    Decision.DENY,
                    "hardline.credentials",
                    "built-in",
                    word[:200],
                    f"git {inv.sub} prints {path} from the repository, a credential file: "
                    "reading a credential, never by an agent",
                )
            )
    return out


def _oid_size(reach: Reach, repo: Repo) -> int:
    """20 bytes (SHA-1), or 32 when the repository says ``extensions.objectFormat = sha256``."""
    data = reach.read(posixpath.join(repo.git_dir, "config")) or b""
    for entry in parse(data.decode("utf-8", "replace")):
        if entry.key == "extensions.objectformat" and (entry.value or "").strip().lower() == "sha256":
            return 32
    return 20


def _committed_credentials(policy: Policy, reach: Reach, repo: Repo, inv: Invocation) -> list[Reason]:
    data = reach.read(posixpath.join(repo.git_dir, "index"))
    if data is None:
        return []
    remaining = max(0, reach.budget - reach.spent)
    paths = index_paths(data, oid_size=_oid_size(reach, repo), limit=remaining)
    reach.spend(len(paths), repo.git_dir)
    base = work_tree_of(reach, repo, inv.work_tree)
    credentials = policy.hardline.credentials
    hits = [p for p in paths if credentials.first_match(posixpath.join(base, p)) is not None]
    # A work tree outside the workspace (core.worktree = HOME) prints the credential stores
    # there, which no call may read: denied like reading them. One in the workspace asks.
    elsewhere = not any(base == r or base.startswith(r.rstrip("/") + "/") for r in policy.write_roots)
    return [
        Reason(
            Decision.DENY,
            "hardline.credentials",
            "built-in",
            posixpath.join(base, p)[:200],
            f"git {inv.sub} prints files of the work tree {base}, outside the workspace, and its "
            f"index lists the credential file {p}: a credential read",
        )
        if elsewhere
        else _reason(
            posixpath.join(base, p),
            f"git {inv.sub} prints committed files, and the index lists the credential file {p}: "
            "a person must confirm (or name the paths to show)",
            rule="hardline.credentials",
        )
        for p in hits[:10]
    ]


_CD = frozenset({"cd", "pushd", "popd"})


def command_dirs(
    commands: tuple[SimpleCommand, ...], cwd: str, home: str, *, cdpath: bool
) -> list[tuple[str, ...] | None]:
    """For each command, every directory it may run in (the call's cwd and each ``cd``
    target before it: a superset, since subshells may undo a cd), or None when a cd before it
    went somewhere only known at run time (a variable, a glob, ``-``, ``CDPATH``)."""
    seen = [cwd]
    unknown = False
    out: list[tuple[str, ...] | None] = []
    for cmd in commands:
        out.append(None if unknown else tuple(seen))
        if cmd.program not in _CD and not (cmd.dynamic and cmd.argv[:1] == ("cd",)):
            continue
        args = [a for a in cmd.argv[1:] if not a.startswith("-") or a == "-"]
        if not args and cmd.program == "cd":
            seen.append(home)
        elif _unknown_cd(cmd, cdpath):
            unknown = True
        else:
            use = cd_target(cmd)
            path = use.path if use is not None and use.path else "."
            seen.append(posixpath.join(cwd, home + path[1:] if path.startswith("~") else path))
    return out


def _unknown_cd(cmd: SimpleCommand, cdpath: bool) -> bool:
    target = cd_target(cmd)
    if cmd.program == "popd" or cmd.dynamic or target is None or target.path is None:
        return True
    relative = not target.path.startswith(("/", "~", "./", "../"))
    return target.pattern is not None or (cdpath and relative)
