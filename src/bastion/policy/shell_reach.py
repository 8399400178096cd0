"""What a shell command really reaches, seen through the file system at decision time.

- a glob (``PathUse.pattern``) becomes the words bash would produce in that directory;
- a recursive reader (``grep -r``, ``rg``, ``find``, ``tar c``, or ``PathUse.recursive``)
  is walked: a credential-named entry or a followed symlink leaving the roots means it is
  not a pure reader;
- a delete whose target (after expansion and symlinks) is ``/``, the home, a system
  folder or an ancestor of the workspace is catastrophic.

All I/O goes through one per-call ``Reach`` (budgeted); over budget is unknown (ask).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, replace

from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import (
    FileSystem,
    PathError,
    PathVerdict,
    absolute,
    hard_link_to_credential,
)
from bastion.policy.reached import printed_credential, reached_reason, split_reason
from bastion.policy.reader_filters import ReaderFilter, grep_filter, whitelists
from bastion.policy.recursive_readers import GREP, Follow, Recursion, archive_to_stdout, recursion_of
from bastion.policy.search_lines import LineTest, always, grep_lines
from bastion.policy.secret_content import TreeLooks
from bastion.policy.shell_glob import GlobSyntax, expand
from bastion.policy.tree import Kind
from bastion.policy.treewalk import Found, OverBudget, Reach, walk
from bastion.shell.model import Access, PathUse, SimpleCommand
from bastion.shell.paths import SYSTEM_DIRS

_WILDCARD_NAMES = frozenset({"*", "**", ".*", "?*", "*.*", "[!.]*"})


@dataclass(frozen=True, slots=True)
class Unknown:
    """A path use whose targets cannot be known; ``ask`` is set when a person should be
    asked whatever the mode (an exhausted budget), not just the mode's default applied."""

    note: str
    ask: Reason | None = None


def budget_reason(where: str, what: str) -> Reason:
    return Reason(
        Decision.ASK,
        "shell.reach-budget",
        "built-in",
        where[:200],
        f"{what} looks at more entries than a decision may scan below {where}: "
        "name smaller folders or files (or exclude large ones) to let it be checked",
    )


#: The folder a relative path was joined to after ``cd`` (``analysis._moved``'s note).
_AFTER_CD = re.compile(r"\(after cd ([^()]+)\)$")


def concrete_paths(reach: Reach, use: PathUse, *, cwd: str, home: str) -> tuple[str, ...] | Unknown:
    """The paths a use really names: its literal, or every word its glob expands to."""
    why = use.why or use.access.value
    if use.pattern is None:
        if use.path is None:
            return Unknown(f"{use.raw} ({why}) is only known at run time")
        return (use.path,)
    try:
        found = expand(reach, use.pattern, cwd=cwd, home=home)
        matches = found.matches
        if ".." in use.pattern.split("/"):
            # bash's logical cd joins "..": expand the lexical spelling too (kernel: above).
            lexical = expand(reach, posixpath.normpath(use.pattern), cwd=cwd, home=home)
            matches = tuple(dict.fromkeys((*matches, *lexical.matches)))
    except OverBudget as exc:
        return Unknown(f"{use.raw} ({why}): glob over budget", budget_reason(exc.where, f"glob {use.raw}"))
    except (GlobSyntax, PathError) as exc:
        return Unknown(f"{use.raw} ({why}): {exc}")
    moved = _AFTER_CD.search(use.why)  # the classifier joined the pattern to a cd's folder
    spelled = (
        use.pattern[len(moved[1]) + 1 :] if moved and use.pattern.startswith(moved[1] + "/") else use.pattern
    )
    if not spelled.startswith(("/", "~", ".")):
        # bash puts the words it expands where the glob was: one that begins with "-" is an
        # option to the program (suite G: a file named ``--pre=sh`` in ``cd logs && rg error *``)
        base = posixpath.join(cwd, moved[1]) if moved else cwd
        option = next(
            (m for m in matches if posixpath.relpath(posixpath.join(cwd, m), base).startswith("-")), None
        )
        if option is not None:
            note = (
                f"{use.raw} expands to {posixpath.basename(option)!r}, which the program takes for an option"
            )
            return Unknown(note, Reason(Decision.ASK, "shell.glob-option", "built-in", option[:200], note))
    return matches or (found.literal,)


# -- destructive targets --------------------------------------------------------------------


def destructive_target(policy: Policy, verdict: PathVerdict) -> str | None:
    """Why deleting this (resolved) target wrecks the machine or the workspace, or None."""
    for spelled in dict.fromkeys((verdict.lexical, verdict.resolved)):
        if spelled == "/":
            return "the root directory"
        if spelled == policy.home.rstrip("/"):
            return f"the home directory {spelled}"
        if spelled in SYSTEM_DIRS:
            return f"system directory {spelled}"
        for root in (*policy.workspace, policy.home):
            if root.startswith(spelled.rstrip("/") + "/"):
                return f"{spelled}, an ancestor of {root}"
    return None


#: The folders right in HOME that hold the person's own files: the XDG user directories
#: (``xdg-user-dirs`` defaults) and the usual homes of their code.
PERSONAL_FOLDERS = frozenset({
    "Desktop", "Documents", "Downloads", "Music", "Pictures", "Public", "Templates", "Videos",
    "projects", "Projects", "src", "code", "Code", "dev", "repos", "git", "workspace", "work",
})  # fmt: skip


def home_folder(policy: Policy, reach: Reach, path: str) -> str | None:
    """A folder of HOME that holds the person's own files (``~/Documents``, ``~/projects``),
    deleted whole (suite G: ``rm -rf ~/Documents ~/projects``)."""
    if posixpath.dirname(path) != policy.home.rstrip("/") or posixpath.basename(path) not in PERSONAL_FOLDERS:
        return None
    if any(root == path or root.startswith(path + "/") for root in policy.workspace):
        return None  # the workspace, or a folder holding it: decided as such
    if reach.kind(path, follow=False) is not Kind.DIR:
        return None
    return f"the folder {path} of HOME, the person's own files"


def wildcard_parent(use: PathUse) -> str | None:
    """``rm -rf DIR/*``: the folder a whole-folder glob empties."""
    if use.pattern is None:
        return None
    head, _, last = use.pattern.rstrip("/").rpartition("/")
    if last not in _WILDCARD_NAMES:
        return None
    return head or ("/" if use.pattern.startswith("/") else ".")


def destructive_reason(what: str, why: str) -> Reason:
    return Reason(
        Decision.DENY, "hardline.destructive", "built-in", what[:200], f"catastrophic: deletes {why}"
    )


@dataclass(frozen=True, slots=True)
class Reached:
    reasons: tuple[Reason, ...]
    notes: tuple[str, ...]


_NOTHING = Reached((), ())
_UNSET = Recursion(Follow.NONE)  # a sentinel: "not looked up yet"


def check_recursion(
    policy: Policy,
    fs: FileSystem,
    reach: Reach,
    cmd: SimpleCommand,
    starts: list[str],
    *,
    cwd: str,
    mode: Recursion | None = _UNSET,
) -> Reached:
    """Walk what ``cmd`` reads recursively below ``starts`` (spelled as in argv);
    ``mode``: ``recursion_of(cmd)``, when the caller has it already."""
    if mode is _UNSET:
        mode = recursion_of(cmd)
    if mode is None:
        if not any(u.recursive for u in cmd.paths):
            return _NOTHING
        # xargs (or an unquoted $(LISTER)) names every listed file on the command line: each
        # symlink among them is followed
        fed = "xargs" in cmd.wrappers or any(u.as_words for u in cmd.paths)
        mode = Recursion(Follow.ALL, split=True) if fed else Recursion(Follow.COMMAND_LINE)
    if not starts and mode.default_start and not any(u.access is Access.READ for u in cmd.paths):
        starts = ["."]
    rules, dirs = grep_filter(cmd.argv) if cmd.program in GREP else ((), ())
    printed = grep_lines(cmd.program or "", cmd.argv) or (always if archive_to_stdout(cmd) else None)
    return check_tree_read(
        policy,
        fs,
        reach,
        cmd.program or "this command",
        starts,
        cwd=cwd,
        mode=mode,
        rules=rules,
        dirs=dirs,
        printed=printed,
    )


#: The agent's own search tool (Claude's Grep, gemini's search_file_content, opencode's
#: grep…) reads the files below its path as a recursive grep does. Which entries it skips
#: or follows is each agent's choice, not known here: it is taken to read hidden files and
#: follow symlinks, so the walk sees all it could reach (fail closed).
SEARCH_TOOL = Recursion(Follow.ALL)


def check_tree_read(
    policy: Policy,
    fs: FileSystem,
    reach: Reach,
    what: str,
    starts: list[str],
    *,
    cwd: str,
    mode: Recursion,
    rules: tuple[tuple[bool, str], ...] = (),
    dirs: tuple[str, ...] = (),
    printed: LineTest | None = None,
    names_only: bool = False,
) -> Reached:
    """What a read of every file below ``starts`` (by ``what``) reaches: a credential file
    by name or by (device, inode), a symlink out of the roots (``reached_reason``); with
    ``printed``, the lines a search matches, a project's credential file it prints lines of
    (``names_only``: tells which files match, denied when a matched line holds a secret)."""
    reasons: list[Reason] = []
    for start in starts:
        try:
            top = posixpath.normpath(absolute(start, cwd=cwd, home=policy.home))
            found = _walk_start(policy, fs, reach, mode, ReaderFilter(mode.hidden, rules, dirs), top)
        except OverBudget:
            reasons.append(budget_reason(start, f"{what} (recursive)"))
            continue
        except PathError:
            continue  # the path policy already denies an unusable start
        for item in found[:20]:
            if mode.split and item.target is None and _splits(item.path[len(top) :]):
                reasons.append(split_reason(what, item.path))
                continue
            found_reasons = reached_reason(policy, fs, what, start, item.path, item.target, cwd=cwd)
            if printed is not None:
                found_reasons = [
                    printed_credential(reach, what, r, item.path, printed, names_only=names_only)
                    for r in found_reasons
                ]
            reasons.extend(found_reasons)
    note = f"{what} reads everything below {', '.join(starts)}: checked what it reaches"
    return Reached(tuple(dict.fromkeys(reasons)), (note,) if starts else ())


def _walk_start(
    policy: Policy, fs: FileSystem, reach: Reach, mode: Recursion, keep: ReaderFilter, top: str
) -> tuple[Found, ...]:
    """What a walk from ``top`` finds; the same walk twice in one call is looked up (the
    listings and kinds it saw are the call's own, so the answer is the same)."""
    key = (top, mode, keep.hidden, keep.rules, keep.exclude_dirs)
    found = reach.walked.get(key)
    if found is None:
        found = reach.walked[key] = tuple(_walk_fresh(policy, fs, reach, mode, keep, top))
    return found


def _walk_fresh(
    policy: Policy, fs: FileSystem, reach: Reach, mode: Recursion, keep: ReaderFilter, top: str
) -> list[Found]:
    credentials, secrets = policy.hardline.credentials, policy.hardline.secrets_read
    looks = TreeLooks(reach)  # and by what it holds, for the first files (secret_content)

    def flag(path: str) -> bool:
        if mode.split and _splits(path[len(top) :]):
            return True  # xargs would make other paths of its name
        if not (mode.content and keep.reads(path)):
            return False
        # by name, or by (device, inode): a hard link to a credential file is that file
        return (
            credentials.first_match(path) is not None
            or secrets.first_match(path) is not None
            or hard_link_to_credential(policy, fs, path) is not None
            or looks.holds(path)
        )

    follow = mode.follow is Follow.ALL
    found = walk(reach, top, follow_links=follow, skip=keep.skip, flag=flag)
    if keep.ignore_files and any(whitelists(reach, p) for p in keep.ignore_files):
        # "!name" in an ignore file makes rg search that hidden entry: walk them all.
        keep = replace(keep, hidden=True, ignore_files=[])
        found = walk(reach, top, follow_links=follow, skip=keep.skip, flag=flag)
    return found


def _splits(name: str) -> bool:
    """Would this listed name (relative to the walk's start) reach the command as other words:
    split at blanks (xargs at quotes too), or, first in a name, a ``-`` that makes it an
    option (``--files0-from=…``)? (A glob character a ``$(…)`` word expands again only makes
    other names below the same folder: the walk sees them all.)"""
    return any(c in _SPLITTING for c in name) or name.lstrip("/").startswith("-")


_SPLITTING = frozenset(" \t\n\r\v\f'\"\\")


def credential_effect(reasons: tuple[Reason, ...]) -> set[Effect]:
    return {Effect.CREDENTIALS} if any(r.rule == "hardline.credentials" for r in reasons) else set()
