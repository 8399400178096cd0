"""git commands that print a credential only the repository's history holds (#31, suite F):
the commits and trees a command prints, read from its words, and their changes read from the
object store (loose or packed) without running git."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy import git_objects
from bastion.policy.decision import Reason
from bastion.policy.git_file_printers import file_printed
from bastion.policy.git_revisions import HistoryUnknown, Printed, Walk, printed
from tests.policy.git_repos import GIT
from tests.policy.git_repos import git as run_git

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")


def git(*args: str, cwd: Path, when: int = 0) -> str:
    return run_git(*args, cwd=cwd, when=when).strip()


def commit(root: Path, when: int, message: str, **files: str | None) -> str:
    """Write (or, for None, delete) each file, commit them all, and return the short id."""
    for name, text in files.items():
        path = root / name.replace("__", "/").replace("_dot_", ".")
        if text is None:
            git("rm", "-q", "--", str(path.relative_to(root)), cwd=root)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        git("add", "--", str(path.relative_to(root)), cwd=root)
    git("commit", "-qm", message, cwd=root, when=when)
    return git("rev-parse", "--short=7", "HEAD", cwd=root)


def deleted_env(root: Path) -> tuple[str, str]:
    """A repository whose first commit added ``.env`` and whose last deleted it."""
    git("init", "-q", "-b", "main", ".", cwd=root)
    added = commit(root, 1, "initial", README_dot_md="# hi\n", _dot_env="DB_PASSWORD=hunter2-Xy9\n")
    removed = commit(root, 2, "remove env", _dot_env=None)
    return added, removed


def outcome(gate: Gate, call: Call, command: str, **kw: object) -> tuple[Decision, tuple[str, ...]]:
    evaluation = gate.evaluate(call("shell", command=command, **kw))
    return evaluation.decision, tuple(dict.fromkeys(r.rule for r in evaluation.reasons))


DENIED = [
    "git show",
    "git show HEAD",
    "git show HEAD~1",
    "git show main",
    "git diff HEAD~1 HEAD",
    "git diff HEAD~1..HEAD",
    "git diff HEAD HEAD~1",
    "git diff HEAD~1",
    "git diff main~1...main",
    "git log -p",
    "git log -p -2",
    "git log -p -1",
    "git log --patch -n 1",
    "git log -p --max-count=1 main",
    "git log -p HEAD~1..HEAD",
    "git log -S DB_PASSWORD --all -p",
    "git log -p --all --oneline",
    "git log -p -- .",
    "git format-patch -1 --stdout",
    "git format-patch -1",
    "git format-patch --root HEAD --stdout",
    "git format-patch HEAD~1 --stdout",
    "git whatchanged -p -1",
]


@needs_git
@pytest.mark.parametrize("command", DENIED)
def test_a_command_printing_a_commit_that_changed_a_credential_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    deleted_env(workspace)
    assert outcome(make_gate(), call, command) == (Decision.DENY, ("hardline.credentials",))


@needs_git
def test_the_reason_names_the_file_and_the_commit(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    _, removed = deleted_env(workspace)
    evaluation = make_gate().evaluate(call("shell", command="git show HEAD"))
    assert evaluation.reasons == (
        Reason(
            Decision.DENY,
            "hardline.credentials",
            "built-in",
            str(workspace / ".env"),
            f"git show prints .env as commit {removed} changed it: a credential in the repository's "
            "history, never read by an agent",
        ),
    )


@needs_git
@pytest.mark.parametrize(
    "command",
    ["git show", "git show HEAD", "git log -p -1", "git diff HEAD~1 HEAD", "git log -p -- README.md",
     "git whatchanged -p -1", "git log -p HEAD~1..HEAD", "git log --oneline", "git log -S x"],
)  # fmt: skip
def test_commands_printing_only_later_commits_stay_readers(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    deleted_env(workspace)
    commit(workspace, 3, "docs", README_dot_md="# hello\n")
    assert outcome(make_gate(), call, command) == (Decision.ALLOW, ("mode.workspace",))


@needs_git
def test_a_packed_repository_is_read_like_a_loose_one(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    deleted_env(workspace)
    git("gc", "-q", "--prune=now", cwd=workspace)
    objects = workspace / ".git" / "objects"
    assert not [p for p in objects.iterdir() if len(p.name) == 2]  # no loose object is left
    assert list((objects / "pack").glob("*.pack"))
    gate = make_gate()
    assert outcome(gate, call, "git show HEAD") == (Decision.DENY, ("hardline.credentials",))
    assert outcome(gate, call, "git log -p -2 main") == (Decision.DENY, ("hardline.credentials",))


@needs_git
@pytest.mark.parametrize("command", ["git show", "git log -p", "git diff", "git whatchanged -p"])
def test_a_repository_with_no_commit_prints_no_history(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    git("init", "-q", ".", cwd=workspace)
    assert outcome(make_gate(), call, command) == (Decision.ALLOW, ("mode.workspace",))


@needs_git
@pytest.mark.parametrize(
    "command",
    ["git show nosuchref", "git log -p HEAD@{1}", "git diff HEAD~1 HEAD^{tree}", "git log -p --frobnicate",
     "git log -p -L1,5:README.md", "git diff A B C"],
)  # fmt: skip
def test_a_revision_or_option_the_check_cannot_read_asks(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    deleted_env(workspace)
    commit(workspace, 3, "docs", README_dot_md="# hello\n")
    assert outcome(make_gate(), call, command) == (Decision.ASK, ("hardline.credentials",))


@needs_git
def test_a_history_over_the_budget_asks(
    make_gate: GateFactory, call: Call, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deleted_env(workspace)
    for n in range(3, 8):
        commit(workspace, n, f"docs {n}", README_dot_md=f"# v{n}\n")
    monkeypatch.setattr(git_objects, "MAX_COMMITS", 4)
    gate = make_gate()
    assert outcome(gate, call, "git log -p") == (Decision.ASK, ("hardline.credentials",))
    assert outcome(gate, call, "git log -p -2") == (Decision.ALLOW, ("mode.workspace",))
    evaluation = gate.evaluate(call("shell", command="git log -p"))
    assert "the history is too long to look through" in evaluation.reasons[0].message


@needs_git
def test_a_merge_that_changes_a_credential_against_a_parent_asks(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    git("init", "-q", "-b", "main", ".", cwd=workspace)
    commit(workspace, 1, "initial", README_dot_md="# hi\n")
    git("checkout", "-q", "-b", "side", cwd=workspace)
    commit(workspace, 2, "side", _dot_env="TOKEN=x\n")
    git("checkout", "-q", "main", cwd=workspace)
    commit(workspace, 3, "main", a_dot_txt="a\n")
    git("merge", "-q", "--no-ff", "-m", "merge", "side", cwd=workspace, when=4)
    commit(workspace, 5, "drop env", _dot_env=None)
    gate = make_gate()
    assert outcome(gate, call, "git show HEAD~1") == (Decision.ASK, ("hardline.credentials",))
    assert outcome(gate, call, "git show HEAD~1^1") == (Decision.ALLOW, ("mode.workspace",))
    assert outcome(gate, call, "git log -p side") == (Decision.DENY, ("hardline.credentials",))
    assert outcome(gate, call, "git show HEAD") == (Decision.DENY, ("hardline.credentials",))


@needs_git
def test_a_nested_repository_named_with_dash_c_is_read(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    nested = workspace / "m" / "history"
    nested.mkdir(parents=True)
    deleted_env(nested)
    gate = make_gate()
    assert outcome(gate, call, "git -C m/history log -p") == (Decision.DENY, ("hardline.credentials",))
    assert outcome(gate, call, "git show HEAD", cwd=str(nested)) == (Decision.DENY, ("hardline.credentials",))


@needs_git
def test_a_secret_read_file_in_history_is_denied_too(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    git("init", "-q", ".", cwd=workspace)
    commit(workspace, 1, "vars", infra__prod_dot_tfvars='db_password = "x"\n')
    commit(workspace, 2, "drop", infra__prod_dot_tfvars=None)
    assert outcome(make_gate(), call, "git show") == (Decision.DENY, ("hardline.credentials",))


# -- what a command prints, read from its words ------------------------------------------

UNKNOWN = "unknown"
TABLE: list[tuple[str, tuple[str, ...], Printed | str | None]] = [
    ("show", (), Printed(Walk.EACH)),
    ("show", ("HEAD~2", "v1"), Printed(Walk.EACH, ("HEAD~2", "v1"))),
    ("show", ("HEAD~1:.env",), Printed(Walk.EACH, blobs=("HEAD~1:.env",))),
    ("show", ("main:src/a.py", "HEAD"), Printed(Walk.EACH, ("HEAD",), blobs=("main:src/a.py",))),
    ("show", ("--stat",), None),
    ("show", ("--stat", "-p"), Printed(Walk.EACH)),
    ("show", ("-s", "--format=%H"), None),
    ("log", ("-p", "-3"), Printed(Walk.LOG, limit=3)),
    ("log", ("-p", "-n", "4", "main"), Printed(Walk.LOG, ("main",), limit=4)),
    ("log", ("-p", "-n5"), Printed(Walk.LOG, limit=5)),
    ("log", ("--max-count=2", "-p"), Printed(Walk.LOG, limit=2)),
    ("log", ("-p", "--max-count", "x"), UNKNOWN),
    ("log", ("-p", "A..B", "^C"), Printed(Walk.LOG, ("A..B",), ("C",))),
    ("log", ("-p", "--all", "-1"), Printed(Walk.LOG, limit=1, all_refs=True)),
    ("log", ("-S", "DB_PASSWORD", "-p", "-1"), Printed(Walk.LOG, limit=1, filtered=True)),
    ("log", ("-SDB_PASSWORD", "-p"), Printed(Walk.LOG, filtered=True)),
    ("log", ("--grep=fix", "-p"), Printed(Walk.LOG, filtered=True)),
    ("log", ("-p", "--", "src", "-1"), Printed(Walk.LOG, paths=("src", "-1"))),
    ("log", ("-p", "--follow", "--", "a.txt"), Printed(Walk.LOG)),
    ("log", ("-p", "-U5", "--stat", "--color=always"), Printed(Walk.LOG)),
    ("log", ("-p", "-g"), UNKNOWN),
    ("log", ("-p", "--reflog"), UNKNOWN),
    ("log", ("-p", "-S"), UNKNOWN),
    ("whatchanged", ("-p", "-1"), Printed(Walk.LOG, limit=1)),
    ("format-patch", ("-1", "--stdout"), Printed(Walk.LOG, limit=1)),
    ("format-patch", ("origin/main",), Printed(Walk.LOG, ("origin/main",), since=True)),
    ("format-patch", ("A..B", "-o", "out"), Printed(Walk.LOG, ("A..B",))),
    ("diff", (), None),
    ("diff", ("--cached",), None),
    ("diff", ("--", "a.txt"), None),
    ("diff", ("A", "B"), Printed(Walk.TREES, ("A", "B"))),
    ("diff", ("A...B", "--stat"), Printed(Walk.TREES, ("A...B",), content=False)),
    ("log", (), Printed(Walk.LOG, content=False)),
    ("log", ("--stat", "-3"), Printed(Walk.LOG, limit=3, content=False)),
    ("diff", ("--no-index", "a", "b"), None),
    ("grep", ("x", "HEAD~1"), None),
    ("blame", ("-L", "1,5", "f"), None),
]


@pytest.mark.parametrize(("sub", "args", "expected"), TABLE)
def test_what_a_command_prints_is_read_from_its_words(
    sub: str, args: tuple[str, ...], expected: Printed | str | None
) -> None:
    if expected == UNKNOWN:
        with pytest.raises(HistoryUnknown):
            printed(sub, args)
    else:
        assert printed(sub, args) == expected


@needs_git
@pytest.mark.parametrize(
    "command", ["git log -p -- 'my notes.txt'", "git log -p 'my notes.txt'", "git show HEAD src"]
)
def test_a_path_given_without_dashes_is_a_pathspec(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    deleted_env(workspace)
    (workspace / "my notes.txt").write_text("x\n")
    git("add", "my notes.txt", cwd=workspace)
    git("commit", "-qm", "notes", cwd=workspace, when=3)
    assert outcome(make_gate(), call, command) == (Decision.ALLOW, ("mode.workspace",))


@needs_git
def test_a_shallow_clone_shows_its_cut_commits_as_roots(
    make_gate: GateFactory, call: Call, workspace: Path, tmp_path: Path
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    deleted_env(source)
    commit(source, 3, "docs", README_dot_md="# hello\n")
    git("clone", "-q", "--depth", "1", f"file://{source}", str(workspace / "clone"), cwd=tmp_path)
    assert (workspace / "clone" / ".git" / "shallow").is_file()
    gate = make_gate()
    assert outcome(gate, call, "git -C clone log -p") == (Decision.ALLOW, ("mode.workspace",))
    assert outcome(gate, call, "git -C clone show HEAD~1") == (Decision.ALLOW, ("mode.workspace",))


@needs_git
def test_a_repository_whose_refs_are_a_reftable_asks(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    deleted_env(workspace)
    (workspace / ".git" / "reftable").mkdir()
    assert outcome(make_gate(), call, "git show") == (Decision.ASK, ("hardline.credentials",))


def scrubbed_ini(root: Path) -> tuple[str, str]:
    """Suite F's repository: ``app.ini`` held a password, a later commit replaced it with a
    reference to the environment. The value looks like a placeholder (it says "secret")."""
    git("init", "-q", "-b", "main", ".", cwd=root)
    added = commit(root, 1, "app", app_dot_ini="[db]\npassword = BSTNCANARY_history_secret\n")
    scrubbed = commit(root, 2, "scrub", app_dot_ini="[db]\npassword = ${DB_PASSWORD}\n")
    return added, scrubbed


@needs_git
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git log -p", Decision.DENY),
        ("git show", Decision.DENY),
        ("git show HEAD~1:app.ini", Decision.DENY),
        ("git diff HEAD~1 HEAD", Decision.DENY),
        ("git format-patch -1 --stdout", Decision.DENY),
        # What prints no line of the file, or only its scrubbed version, stays a reader.
        ("git log", Decision.ALLOW),
        ("git log --stat", Decision.ALLOW),
        ("git show --name-only", Decision.ALLOW),
        ("git show HEAD:app.ini", Decision.ALLOW),
        ("git log -p -- README.md", Decision.ALLOW),
    ],
)
def test_a_patch_printing_a_value_a_later_commit_scrubbed_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, expected: Decision
) -> None:
    scrubbed_ini(workspace)
    assert outcome(make_gate(), call, command)[0] is expected


@needs_git
def test_a_patch_printing_a_token_under_an_ordinary_name_is_denied_with_its_commit(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    git("init", "-q", "-b", "main", ".", cwd=workspace)
    token = f"ghp_{'Zx9' * 13}"
    added = commit(workspace, 1, "ci", ci__deploy_dot_yml=f"env:\n  GH: {token}\n")
    commit(workspace, 2, "drop", ci__deploy_dot_yml="env: {}\n")
    evaluation = make_gate().evaluate(call("shell", command=f"git show {added}"))
    assert evaluation.reasons == (
        Reason(
            Decision.DENY,
            "hardline.credentials",
            "built-in",
            str(workspace / "ci" / "deploy.yml"),
            f"git show prints lines of ci/deploy.yml as commit {added} changed it, which holds a secret "
            "(a key, a token or a password): a credential in the repository's history, never read by "
            "an agent",
        ),
    )


@needs_git
def test_a_dev_default_in_history_is_no_secret(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    git("init", "-q", "-b", "main", ".", cwd=workspace)
    commit(workspace, 1, "db", config__database_dot_yml="password: postgres\n")
    commit(workspace, 2, "env", config__database_dot_yml="password: <%= ENV['DB_PASSWORD'] %>\n")
    assert outcome(make_gate(), call, "git log -p") == (Decision.ALLOW, ("mode.workspace",))


@needs_git
def test_a_file_of_the_index_named_by_colon_asks(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    scrubbed_ini(workspace)
    assert outcome(make_gate(), call, "git show :app.ini")[0] is Decision.ASK


@needs_git
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git grep password HEAD~2", Decision.DENY),
        ("git grep -n -e password HEAD~2 -- app.ini", Decision.DENY),
        ("git grep -n password $(git rev-list --all)", Decision.DENY),
        ("git archive HEAD~2", Decision.DENY),
        ("git blame HEAD~2 -- app.ini", Decision.DENY),
        ("git blame -C50 HEAD~2 app.ini", Decision.DENY),
        ("git cat-file -p HEAD~2:app.ini", Decision.DENY),
        ("git cat-file blob HEAD~2:app.ini", Decision.DENY),
        # Lines that hold nothing of it, only names, the type of an object, HEAD's own version.
        ("git grep user HEAD~2", Decision.ALLOW),
        ("git grep -l password HEAD~2", Decision.ALLOW),
        ("git grep password HEAD", Decision.ALLOW),
        ("git cat-file -t HEAD~2", Decision.ALLOW),
        ("git cat-file -p HEAD", Decision.ALLOW),
        ("git blame app.ini", Decision.ALLOW),
        # What cannot be read: a pager it runs, objects from its input.
        ("git grep -O password HEAD~2", Decision.ASK),
        ("git cat-file --batch", Decision.ASK),
        # Plumbing and porcelain that print patches too.
        ("git diff-tree -p HEAD~1", Decision.DENY),
        ("git diff-tree -p HEAD~2 HEAD~1", Decision.DENY),
        ("git diff-index -p HEAD~2", Decision.DENY),
        ("git range-diff HEAD~2 HEAD~1 HEAD", Decision.DENY),
        ("git fast-export --all", Decision.DENY),
        ("git diff-tree HEAD~1", Decision.ALLOW),  # names only
        ("git fast-export --no-data --all", Decision.ASK),  # no file printed; not a reader
        ("git reflog -p", Decision.ASK),
        ("git log -L1,3:app.ini", Decision.ASK),
    ],
)
def test_commands_printing_files_of_a_revision_are_judged_by_what_they_print(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, expected: Decision
) -> None:
    scrubbed_ini(workspace)
    commit(workspace, 3, "user", app_dot_ini="[db]\nuser = app\npassword = ${DB_PASSWORD}\n")
    assert outcome(make_gate(), call, command)[0] is expected


FILE_TABLE: list[tuple[str, tuple[str, ...], Printed | str | None]] = [
    ("grep", ("x",), None),
    ("grep", ("x", "HEAD~1"), Printed(Walk.FILES, ("HEAD~1",))),
    ("grep", ("-e", "x", "v1", "v2", "--", "src"), Printed(Walk.FILES, ("v1", "v2"), paths=("src",))),
    ("grep", ("-il", "x", "HEAD"), Printed(Walk.FILES, ("HEAD",), content=False)),
    ("grep", ("--cached", "x"), None),
    ("grep", ("-A3", "x", "$(git rev-list --all)"), Printed(Walk.FILES, all_refs=True)),
    ("grep", ("-O", "x", "HEAD"), UNKNOWN),
    ("archive", ("HEAD~1", "src"), Printed(Walk.FILES, ("HEAD~1",), paths=("src",))),
    ("archive", ("--format=tar", "-o", "a.tar", "v1"), Printed(Walk.FILES, ("v1",))),
    ("archive", ("--remote=x", "HEAD"), UNKNOWN),
    ("blame", ("-L", "1,5", "f"), None),
    ("blame", ("v1", "--", "f"), Printed(Walk.EACH, blobs=("v1:f",))),
    ("annotate", ("v1", "f"), Printed(Walk.EACH, blobs=("v1:f",))),
    ("blame", ("--contents", "x", "f"), UNKNOWN),
    ("cat-file", ("-t", "HEAD"), None),
    ("cat-file", ("-p", "HEAD:f"), Printed(Walk.EACH, blobs=("HEAD:f",))),
    ("cat-file", ("-p", "1a2b3c4d"), Printed(Walk.EACH, objects=("1a2b3c4d",))),
    ("cat-file", ("commit", "HEAD"), None),
    ("cat-file", ("--batch-check",), UNKNOWN),
]


@pytest.mark.parametrize(("sub", "args", "expected"), FILE_TABLE)
def test_what_a_command_prints_of_a_revision_s_files_is_read_from_its_words(
    sub: str, args: tuple[str, ...], expected: Printed | str | None
) -> None:
    if expected == UNKNOWN:
        with pytest.raises(HistoryUnknown):
            file_printed(sub, args)
    else:
        assert file_printed(sub, args) == expected


@needs_git
def test_the_latest_stash_printed_as_a_patch_is_judged_by_its_lines(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    git("init", "-q", "-b", "main", ".", cwd=workspace)
    commit(workspace, 1, "app", app_dot_ini="[db]\nuser = app\n")
    (workspace / "app.ini").write_text(f"[db]\nuser = app\ntoken = ghp_{'Qw7' * 13}\n")
    git("add", "app.ini", cwd=workspace)  # staged: the stash's index commit holds it too
    git("stash", "-q", cwd=workspace, when=2)
    gate = make_gate()
    assert outcome(gate, call, "git stash show -p")[0] is Decision.DENY
    assert outcome(gate, call, "git stash show -p stash@{0}")[0] is Decision.DENY
    assert outcome(gate, call, "git stash show -p stash@{1}")[0] is Decision.ASK  # not read
    assert outcome(gate, call, "git show stash@{0}")[0] is Decision.ASK  # a merge: the index holds it
    assert outcome(gate, call, "git show stash@{0}^2")[0] is Decision.DENY  # its index commit


@needs_git
def test_a_stash_of_an_unstaged_secret_shown_as_its_merge_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    # Suite J: `git show stash@{0}` prints a combined diff of each file that differs from both
    # of its work-tree commit's parents (HEAD and the index): an unstaged secret is one.
    git("init", "-q", "-b", "main", ".", cwd=workspace)
    commit(workspace, 1, "app", app_dot_ini="[db]\nuser = app\n")
    (workspace / "app.ini").write_text(f"[db]\nuser = app\ntoken = ghp_{'Qw7' * 13}\n")
    git("stash", "-q", cwd=workspace, when=2)
    shown = run_git("show", "stash@{0}", cwd=workspace)
    gate = make_gate()
    assert "ghp_" in shown
    assert outcome(gate, call, "git show stash@{0}") == (Decision.DENY, ("hardline.credentials",))
    assert outcome(gate, call, "git log -p -1 stash@{0}")[0] is Decision.ASK  # log -p prints no merge
