"""Everyday git writes confined to the repository: ``git add``, ``git commit -m``, ``git
stash``, a new branch or tag, ``git switch`` to a branch at the same commit, ``git restore
--staged``, and deletes of git's own data that stay recoverable (``git branch -d``, ``git rm
--cached``). Each writes only git's own data (objects, refs, the index) inside a repository
whose work tree is an allowed workspace write, and is one in fact when the repository runs
nothing for it: no hook that fires for that operation, no filter, fsmonitor or signing
program named by configuration an agent could have written (the person's own, as for reads,
is their choice: ``git_config``'s ``runs_for`` with ``shell_git``'s trust), no editor.

A form outside these tables, or one whose work-tree changes are not known before it runs
(switching to another commit, ``stash`` over a protected tracked file), is not everyday: it
asks as before. This decides whether the mode may allow; it adds no floor of its own.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision
from bastion.policy.git_config import ConfigSyntax
from bastion.policy.git_hooks import present_hooks
from bastion.policy.git_index import IndexUnknown, index_paths
from bastion.policy.module_shadow import shadowing_write_reason
from bastion.policy.paths import FileSystem, check_path
from bastion.policy.repositories import (
    Repo,
    agent_cannot_write,
    config_entries,
    discover,
    global_config_files,
    repository_config_files,
    repository_write_reason,
)
from bastion.policy.shell_git import SYSTEM_CONFIG, Invocation, dangerous_settings, invocation
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import SimpleCommand


@dataclass(frozen=True, slots=True)
class Form:
    """One everyday form of a git write subcommand (git-SUB(1) of git 2.39)."""

    switches: frozenset[str]
    valued: frozenset[str] = frozenset()  # options taking a value (next word or =value)
    required: frozenset[str] = frozenset()  # one of these must be given (a message: no editor)
    positionals: tuple[int, int | None] = (0, None)  # at least, at most (None: any)
    hooks: tuple[str, ...] = ()  # the hooks git runs for it
    worktree: bool = False  # it may rewrite tracked files of the work tree


def _s(words: str) -> frozenset[str]:
    return frozenset(words.split())


_INDEX_HOOKS = ("post-index-change",)
_REF_HOOKS = ("reference-transaction",)
_CHECKOUT_HOOKS = ("post-checkout", "reference-transaction", "post-index-change")
_MESSAGE = _s("-m --message -F --file -C --reuse-message --no-edit")

FORMS: dict[str, Form] = {
    "add": Form(
        _s(
            "-v --verbose -n --dry-run -f --force -u --update -A --all --no-ignore-removal --no-all "
            "--ignore-removal -N --intent-to-add --ignore-errors --ignore-missing --refresh --renormalize"
        ),
        _s("--chmod"),
        hooks=_INDEX_HOOKS,
    ),
    # a message given (no editor); not -e/-p/-c/--fixup/--squash/--trailer/-S/--template
    "commit": Form(
        _s(
            "-a --all -q --quiet -s --signoff --no-signoff -n --no-verify --verify --allow-empty "
            "--allow-empty-message --no-edit --amend --reset-author -o --only -i --include "
            "--no-post-rewrite --dry-run --short --porcelain --long --status --no-status --no-gpg-sign"
        ),
        _s("-m --message -F --file -C --reuse-message --author --date --cleanup"),
        required=_MESSAGE,
        hooks=(
            "pre-commit",
            "prepare-commit-msg",
            "commit-msg",
            "post-commit",
            "post-rewrite",
            "pre-auto-gc",
            *_CHECKOUT_HOOKS,
        ),
    ),
    # `git stash` / `git stash push`: the work tree goes back to HEAD's tracked files (not
    # -u/-a, which also take untracked files away, agent configuration among them)
    "stash": Form(
        _s("-k --keep-index --no-keep-index -q --quiet -S --staged"),
        _s("-m --message"),
        hooks=_CHECKOUT_HOOKS,
        worktree=True,
    ),
    # a new branch at HEAD: nothing in the work tree changes (not --track, which writes the
    # upstream into the repository's config)
    "checkout": Form(
        _s("-q --quiet --no-track"),
        _s("-b"),
        required=_s("-b"),
        positionals=(0, 0),
        hooks=_CHECKOUT_HOOKS,
    ),
    "switch": Form(
        _s("-q --quiet --no-track --no-guess --progress --no-progress"),
        _s("-c --create"),
        positionals=(0, 1),
        hooks=_CHECKOUT_HOOKS,
    ),
    # a new branch at HEAD (a start point may be a remote branch, whose upstream git would
    # write into the config) or a tag: a ref, nothing else
    "branch": Form(_s("-q --quiet --no-track --create-reflog"), positionals=(1, 1), hooks=_REF_HOOKS),
    "tag": Form(_s("-a --annotate"), _s("-m --message -F --file"), positionals=(1, 2), hooks=_REF_HOOKS),
    "restore": Form(
        _s("-S --staged -q --quiet"), required=_s("-S --staged"), positionals=(1, None), hooks=_INDEX_HOOKS
    ),
}
#: Everyday git deletes of git's own data, recoverable: a branch ``-d`` deletes only when it is
#: merged (its commits stay reachable; not ``-D``/``-f``), ``rm --cached`` takes paths out of the
#: index and leaves the work-tree files as they are (not ``-f``).
DELETES: dict[str, Form] = {
    "branch": Form(
        _s("-d --delete -q --quiet"), required=_s("-d --delete"), positionals=(1, None), hooks=_REF_HOOKS
    ),
    "rm": Form(
        _s("--cached -q --quiet -r -n --dry-run --ignore-unmatch"),
        required=_s("--cached"),
        positionals=(1, None),
        hooks=_INDEX_HOOKS,
    ),
}
#: Configuration that makes git sign (running gpg, ssh-keygen or gpg.program) by itself.
SIGNING = frozenset({"commit.gpgsign", "tag.gpgsign", "tag.forcesignannotated", "push.gpgsign"})
_TRUE = frozenset({"true", "yes", "on", "1"})
_GIT_EFFECTS = frozenset({Effect.READ, Effect.WRITE})
_GIT_OR_DELETE = _GIT_EFFECTS | {Effect.DELETE}


def everyday_git_write(
    policy: Policy, fs: FileSystem, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[str] | None:
    """None when ``cmd`` is an everyday git write that runs nothing but git on a repository
    inside the workspace; otherwise why not (notes for explain, [] when it is no such form)."""
    if (
        cmd.program != "git"
        or cmd.dynamic
        or cwds is None
        or not cmd.effects <= _GIT_EFFECTS | {Effect.DELETE}
    ):
        return []
    table = DELETES if Effect.DELETE in cmd.effects else FORMS
    inv = invocation(cmd, cwds, policy.home)
    if isinstance(inv, str) or inv.sub not in table or cmd.argv[1:2] != (inv.sub,):
        return []  # global options (-C, -c, --git-dir…) are not everyday
    form = table[inv.sub]
    shape = _shape(form, inv, set(cmd.dynamic_words), len(cmd.argv) - len(inv.args))
    if shape is not None:
        return [f"git {inv.sub}: {shape}"]
    try:
        return _repository(policy, fs, reach, inv, form)
    except OverBudget as exc:
        return [f"git's repository below {exc.where} exceeds the budget"]
    except (OSError, ConfigSyntax, IndexUnknown) as exc:
        return [f"git's repository cannot be read: {exc}"]


def _shape(form: Form, inv: Invocation, dynamic: set[int], first: int) -> str | None:
    """Why the arguments are not the everyday form (None: they are)."""
    given: set[str] = set()
    positionals: list[str] = []
    named: int | None = None
    args = inv.args
    i = 0
    ended = False
    while i < len(args):
        word, at = args[i], first + i
        i += 1
        if ended or not word.startswith("-") or word == "-":
            if at in dynamic:
                return f"{word} is only known at run time"
            positionals.append(word)
            continue
        if word == "--":
            ended = True
            named = len(positionals)  # before it: a subcommand, branch names; after: paths
            continue
        name, eq, _ = word.partition("=")
        if name.startswith("--") or len(name) == 2:
            if name in form.valued:
                i += 0 if eq else 1
            elif eq or name not in form.switches:
                return f"option {word} is not an everyday one"
            given.add(name)
            continue
        for n, letter in enumerate(name[1:]):  # a cluster: -am msg
            flag = "-" + letter
            given.add(flag)
            if flag in form.valued:
                i += 0 if n + 2 < len(name) else 1
                break
            if flag not in form.switches:
                return f"option {flag} (in {word}) is not an everyday one"
    if inv.sub == "stash":  # `git stash [push] [--] [PATHSPEC…]`, not pop/apply…
        words = positionals[:named]
        if words and words[0] != "push":
            return f"git stash {words[0]} is not a push"
        positionals = positionals[len(words[:1]) :]
    least, most = form.positionals
    if len(positionals) < least or (most is not None and len(positionals) > most):
        return f"{len(positionals)} arguments is not the everyday form"
    if form.required and not given & form.required:
        return f"needs one of {' '.join(sorted(form.required))} (else git opens an editor)"
    if inv.sub == "tag" and given & {"-a", "--annotate"} and not given & {"-m", "--message", "-F", "--file"}:
        return "an annotated tag without -m opens an editor"
    if inv.sub == "switch" and not given & {"-c", "--create"} and len(positionals) != 1:
        return "switches to no branch named"
    return None


def _repository(
    policy: Policy, fs: FileSystem, reach: Reach, inv: Invocation, form: Form
) -> list[str] | None:
    repos = {discover(reach, d) for d in inv.dirs}
    if len(repos) != 1 or None in repos:
        return ["not exactly one repository"]
    repo = repos.pop()
    assert repo is not None
    if repo.work_tree is None or repo.git_dir != posixpath.join(repo.work_tree, ".git"):
        return [f"{repo.git_dir} is not the .git folder of a work tree"]
    if reach.kind(repo.git_dir, follow=False) is not Kind.DIR:
        return [f"{repo.git_dir} is not a folder"]
    verdict = check_path(policy, repo.work_tree, write=True, cwd="/", fs=fs)
    if verdict.decision is not Decision.ALLOW:
        return [f"the work tree {repo.work_tree} is not an allowed write"]

    def trusted(path: str) -> bool:
        return agent_cannot_write(policy, fs, path)

    files = [(p, False) for p in repository_config_files(reach, repo)]
    files += [(p, True) for p in (*global_config_files(policy.home), SYSTEM_CONFIG)]
    notes = [
        f"{f.file}:{f.line} {f.key} runs a program"
        for f in dangerous_settings(reach, files, policy.home, inv.sub, trusted, repo.work_tree)
    ]
    for path, entry, mine in config_entries(reach, files, policy.home, trusted):
        if entry.key in SIGNING and not mine and (entry.value or "true").strip().lower() in _TRUE:
            notes.append(f"{path}:{entry.line} {entry.key} makes git sign, running a program")
    notes += [f"git runs the hook {h}" for h in present_hooks(reach, repo, policy.home, form.hooks, trusted)]
    if inv.sub == "switch" and not _same_commit(reach, repo, inv):
        notes.append("switching to another commit rewrites work-tree files not known before it runs")
    if form.worktree:
        notes += _protected_tracked(policy, fs, reach, repo)
    return notes or None


def _ref(reach: Reach, git_dir: str, ref: str) -> str | None:
    """The commit a ref names (a loose ref, else packed-refs), or None."""
    for _ in range(5):  # symbolic refs
        data = reach.read(posixpath.join(git_dir, ref))
        if data is not None:
            text = data.decode("ascii", "replace").strip()
            if not text.startswith("ref: "):
                return text
            ref = text[5:].strip()
            continue
        packed = reach.read(posixpath.join(git_dir, "packed-refs")) or b""
        for line in packed.decode("ascii", "replace").splitlines():
            oid, _, name = line.partition(" ")
            if name.strip() == ref:
                return oid
        return None
    return None


def _same_commit(reach: Reach, repo: Repo, inv: Invocation) -> bool:
    """``git switch -c NAME`` (no start point) or ``git switch BRANCH`` at HEAD's commit."""
    words = [a for a in inv.args if not a.startswith("-")]
    creates = any(a in ("-c", "--create") or a.startswith(("-c", "--create=")) for a in inv.args)
    if creates:
        return len(words) == 1  # the new branch's name, no start point
    if len(words) != 1 or ".." in words[0]:
        return False
    head = _ref(reach, repo.git_dir, "HEAD")
    return head is not None and head == _ref(reach, repo.git_dir, f"refs/heads/{words[0]}")


def _protected_tracked(policy: Policy, fs: FileSystem, reach: Reach, repo: Repo) -> list[str]:
    """The tracked files git may rewrite that a direct write could not make (agent config,
    hooks, a shadowing module…): the index lists them."""
    data = reach.read(posixpath.join(repo.git_dir, "index"))
    if data is None:
        return []
    paths = index_paths(data, limit=max(0, reach.budget - reach.spent))
    reach.spend(len(paths), repo.git_dir)
    out = []
    for path in paths:
        full = posixpath.join(repo.work_tree or "", path)
        verdict = check_path(policy, full, write=True, cwd="/", fs=fs)
        if (
            verdict.decision is not Decision.ALLOW
            or repository_write_reason(policy, reach, verdict) is not None
            or shadowing_write_reason(reach, verdict) is not None
        ):
            out.append(f"{full} is tracked and not an allowed write")
    return out[:5]
