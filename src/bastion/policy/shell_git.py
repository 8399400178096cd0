"""git reads run what the repository's configuration says: find the repository a git
command acts on, read the configuration git would load, and find committed credentials.

The repository: after ``-C DIR`` (cumulative) or ``--git-dir``, the nearest ``.git`` (a
folder, a ``gitdir:`` file or a link) or bare repository up from the cwd, as git discovers
it (on the resolved path). Its configuration: ``config``, ``config.worktree``, the common
dir's ``config`` (linked worktrees), every submodule's ``modules/**/config``, the global
``~/.gitconfig`` and ``~/.config/git/config``, and every ``include.path`` /
``includeIf.*.path`` they name (followed whatever the condition: the stricter reading).
A key that runs a program during that read (``git_config.runs_for``) makes it code; keys that
only run for commands that are no readers anyway (an editor, hooks, merge drivers) do not.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_config import ConfigSyntax, Entry, is_include, parse, runs_for
from bastion.policy.git_index import IndexUnknown, index_paths
from bastion.policy.paths import FileSystem, check_path
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.analysis import cd_target
from bastion.shell.model import SimpleCommand

#: Global options that take a value (the value is the next word unless written ``--x=v``).
_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                     "--exec-path", "--super-prefix", "--list-cmds"})  # fmt: skip
#: Subcommands that print the content of committed files.
_PRINTS_FILES = frozenset({"grep", "show", "diff", "cat-file", "archive", "blame", "annotate",
                           "difftool"})  # fmt: skip
_PATCHING = frozenset({"log", "whatchanged", "reflog", "stash"})
_PATCH_FLAGS = frozenset({"-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw",
                          "--cc", "--word-diff", "--full-diff", "--color-words"})  # fmt: skip
_MAX_INCLUDE_DEPTH = 10
_MAX_MODULE_DEPTH = 4


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
class Repo:
    git_dir: str
    work_tree: str | None


def discover(reach: Reach, start: str) -> Repo | None:
    """The repository git finds from ``start`` (resolved, walking up)."""
    current = reach.resolve(start)
    while True:
        dotgit = _join(current, ".git")
        kind = reach.kind(dotgit, follow=True)
        if kind is Kind.DIR:
            return Repo(dotgit, current)
        if kind is Kind.FILE:
            data = reach.read(dotgit) or b""
            text = data.decode("utf-8", "replace").strip()
            if not text.startswith("gitdir:"):
                raise OSError(f"{dotgit} is a file but not a 'gitdir:' pointer")
            return Repo(posixpath.join(current, text[len("gitdir:") :].strip()), current)
        if _bare(reach, current):
            return Repo(current, None)
        parent = posixpath.dirname(current)
        if parent == current:
            return None
        current = parent


def _join(folder: str, name: str) -> str:
    """``posixpath.join`` for a plain ``name`` (no slash), without its generality."""
    return f"{folder}/{name}" if folder and folder[-1] != "/" else folder + name


def _bare(reach: Reach, folder: str) -> bool:
    return (
        reach.kind(_join(folder, "HEAD"), follow=True) is Kind.FILE
        and reach.kind(_join(folder, "objects"), follow=True) is Kind.DIR
        and reach.kind(_join(folder, "refs"), follow=True) is Kind.DIR
    )


def config_files(reach: Reach, repo: Repo, home: str) -> list[str]:
    """Every file git loads for ``repo`` (before includes)."""
    files = [posixpath.join(repo.git_dir, "config"), posixpath.join(repo.git_dir, "config.worktree")]
    common = reach.read(posixpath.join(repo.git_dir, "commondir"))
    common_dir = repo.git_dir
    if common is not None:
        common_dir = posixpath.join(repo.git_dir, common.decode("utf-8", "replace").strip())
        files.append(posixpath.join(common_dir, "config"))
    files.extend(_module_configs(reach, posixpath.join(common_dir, "modules"), 0))
    return [*files, posixpath.join(home, ".gitconfig"), posixpath.join(home, ".config", "git", "config")]


def _module_configs(reach: Reach, folder: str, depth: int) -> list[str]:
    if depth > _MAX_MODULE_DEPTH or reach.kind(folder, follow=True) is not Kind.DIR:
        return []
    out = []
    for entry in reach.listdir(folder):
        module = posixpath.join(folder, entry.name)
        if entry.kind is Kind.DIR:
            out.append(posixpath.join(module, "config"))
            out.extend(_module_configs(reach, posixpath.join(module, "modules"), depth + 1))
            # Submodules named with a slash (lib/a) nest without a "modules" level.
            out.extend(_module_configs(reach, module, depth + 1))
    return [p for p in out if not p.endswith("/config/config")]


@dataclass(frozen=True, slots=True)
class Finding:
    file: str
    key: str
    line: int


def dangerous_settings(reach: Reach, files: list[str], home: str, subcommand: str | None) -> list[Finding]:
    """Every setting in ``files`` (and what they include) that runs a program while the
    read-only ``subcommand`` runs. Raises OSError, ConfigSyntax, OverBudget."""
    found: list[Finding] = []
    seen: set[str] = set()
    todo = [(path, 0) for path in files]
    while todo:
        path, depth = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        data = reach.read(path)
        if data is None:
            continue
        try:
            entries = parse(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise ConfigSyntax(1, "not UTF-8") from exc
        for entry in entries:
            if is_include(entry):
                todo.append(_include(entry, path, home, depth))
            elif runs_for(entry, subcommand):
                found.append(Finding(path, entry.key, entry.line))
    return found


def _include(entry: Entry, path: str, home: str, depth: int) -> tuple[str, int]:
    if depth >= _MAX_INCLUDE_DEPTH or not entry.value:
        raise ConfigSyntax(entry.line, f"include nested deeper than {_MAX_INCLUDE_DEPTH} or empty")
    target = entry.value.strip()
    if target == "~" or target.startswith("~/"):
        target = home + target[1:]
    return posixpath.join(posixpath.dirname(path), target), depth + 1


def prints_files(inv: Invocation) -> bool:
    if inv.sub in _PRINTS_FILES:
        return True
    return inv.sub in _PATCHING and any(
        a in _PATCH_FLAGS or a.startswith(("-U", "--unified")) for a in inv.args
    )


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
    reasons = _named_places(policy, fs, inv, cwds)
    try:
        for repo in _repos(reach, inv):
            files = config_files(reach, repo, policy.home)
            for finding in dangerous_settings(reach, files, policy.home, inv.sub):
                reasons.append(
                    _reason(
                        f"{finding.file}:{finding.line} {finding.key}",
                        f"git reads {finding.file}, which sets {finding.key} (line {finding.line}): "
                        "that setting runs a program, so this git command runs repository code",
                    )
                )
            if prints_files(inv):
                reasons.extend(_committed_credentials(policy, reach, repo, inv))
                reasons.extend(_named_credentials(policy, repo, inv))
    except OverBudget as exc:
        return [_reason(exc.where, f"git's repository and configuration below {exc.where} exceed the budget")]
    except (OSError, ConfigSyntax, IndexUnknown) as exc:
        return [_reason("git", f"git's repository or configuration cannot be read: {exc}")]
    return list(dict.fromkeys(reasons))


def _named_places(policy: Policy, fs: FileSystem, inv: Invocation, cwds: tuple[str, ...]) -> list[Reason]:
    """``-C``, ``--git-dir`` and ``--work-tree`` name where git reads: the path policy decides
    them like any read (``git -C ~/.ssh log``, ``git --work-tree=/ diff``)."""
    named = [*(inv.dirs if inv.dirs != cwds else ()), inv.git_dir, inv.work_tree]
    reasons: list[Reason] = []
    for place in dict.fromkeys(p for p in named if p is not None):
        verdict = check_path(policy, place, write=False, cwd="/", fs=fs)
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
    is printed from history even when the index no longer lists it."""
    base = repo.work_tree or posixpath.dirname(repo.git_dir)
    credentials = policy.hardline.credentials
    out = []
    for word in inv.args:
        if word.startswith("-"):
            continue
        path = word.partition(":")[2] if ":" in word else word
        if path and credentials.first_match(posixpath.join(base, path.lstrip("/"))) is not None:
            out.append(
                _reason(
                    word,
                    f"git {inv.sub} prints {path} from the repository, a credential file name: "
                    "a person must confirm",
                    rule="hardline.credentials",
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
    base = repo.work_tree or posixpath.dirname(repo.git_dir)
    credentials = policy.hardline.credentials
    hits = [p for p in paths if credentials.first_match(posixpath.join(base, p)) is not None]
    return [
        _reason(
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


def hooks_dirs(reach: Reach, folder: str, home: str) -> list[tuple[str, str]]:
    """The folders ``core.hooksPath`` names for the repository ``folder`` is in, each with
    the file that sets it: git runs any program put there. Raises like dangerous_settings."""
    repo = discover(reach, folder)
    if repo is None:
        return []
    base = repo.work_tree or repo.git_dir
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    todo = [(path, 0) for path in config_files(reach, repo, home)]
    while todo:
        path, depth = todo.pop(0)
        data = None if path in seen else reach.read(path)
        seen.add(path)
        for entry in parse(data.decode("utf-8")) if data is not None else ():
            if is_include(entry):
                todo.append(_include(entry, path, home, depth))
            elif entry.key == "core.hookspath" and entry.value:
                value = entry.value.strip()
                value = home + value[1:] if value == "~" or value.startswith("~/") else value
                out.append((posixpath.normpath(posixpath.join(base, value)), path))
    return out
