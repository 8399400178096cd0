"""Shell decisions that depend on what is really on disk (issue 13, root causes 4, 7, 9, 11):
globs expanded in the cwd, cd targets resolved like the kernel, recursive readers walked,
self and agent configuration protected, destructive targets judged after resolution."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.tree import Entry, MemoryTree
from tests.shell.helpers import deciding_rules

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
Outcome = tuple[Decision, tuple[str, ...]]


@pytest.fixture
def ws(workspace: Path, home: Path) -> Path:
    """The workspace with a symlink ``k`` to the fake HOME's key and a few ordinary files."""
    (workspace / "k").symlink_to(home / ".ssh" / "id_rsa")
    (workspace / "notes.md").write_text("notes\n")
    (home / "todo.txt").write_text("todo\n")
    return workspace


def outcome(gate: Gate, call: Call, command: str, **kw: object) -> Outcome:
    evaluation = gate.evaluate(call("shell", command=command, **kw))
    return evaluation.decision, tuple(deciding_rules(evaluation))


ASK_DEFAULT = (Decision.ASK, ("approval.interactive_default",))
ALLOWED = (Decision.ALLOW, ("mode.workspace",))
CREDENTIAL_DENY = (Decision.DENY, ("hardline.credentials", "paths.deny_read"))
#: A recursive reader that follows a planted symlink to a credential file reads that file.
FOLLOWED_TO_KEY = (Decision.DENY, ("hardline.credentials",))

# -- root cause 4: globs through the file system ---------------------------------------------

GLOBS: list[tuple[str, Outcome]] = [
    ("cat ?", CREDENTIAL_DENY),  # ? matches k -> ~/.ssh/id_rsa
    ("cat *", CREDENTIAL_DENY),
    ("cat [k]", CREDENTIAL_DENY),
    ("cat [!a-j]", CREDENTIAL_DENY),
    ("wc -l 'k'*", CREDENTIAL_DENY),
    ("head -1 ./?", CREDENTIAL_DENY),
    ("cat ~/.s*/id_rsa", CREDENTIAL_DENY),
    ("cat ~/.ss?/*", CREDENTIAL_DENY),
    ("cat *.md", ALLOWED),
    ("cat '*'", ALLOWED),  # quoted: the literal name "*", no expansion
    ("cat \\?", ALLOWED),  # escaped: the literal name "?"
    ("cat *.nothing-matches", ALLOWED),  # nullglob off: the literal word, inside the workspace
    ("cat **/*.py", ALLOWED),  # globstar off: */*.py
    ("ls -d */", ALLOWED),
    ("du -sh src/*", ALLOWED),
    ("cd src && cat *", ALLOWED),
    ("echo x > *.md", (Decision.ALLOW, ("mode.workspace",))),
    ("echo x > ?", (Decision.DENY, ("hardline.credentials",))),
    ("cat ../*", ASK_DEFAULT),  # ../todo.txt is outside the workspace
    # brace expansion of a literal word makes the words bash makes: each decided as a path
    ("cat {notes.md,k}", CREDENTIAL_DENY),  # k is a symlink to the key
    ("cat notes{.md,}", ALLOWED),
    ("cat {notes.md,$x}", ASK_DEFAULT),  # a brace list holding an expansion: unknown
]


@pytest.mark.parametrize(("command", "expected"), GLOBS)
def test_a_glob_is_decided_on_every_word_bash_would_expand_it_to(
    make_gate: GateFactory, call: Call, ws: Path, command: str, expected: Outcome
) -> None:
    assert outcome(make_gate(), call, command) == expected


def test_dot_files_are_matched_only_by_a_pattern_with_a_leading_dot(
    make_gate: GateFactory, call: Call, ws: Path
) -> None:
    (ws / "k").unlink()
    (ws / ".env").write_text("SECRET=1\n")
    gate = make_gate()
    assert outcome(gate, call, "cat *") == ALLOWED
    assert outcome(gate, call, "cat .e*") == CREDENTIAL_DENY
    assert outcome(gate, call, "cat .*") == (
        Decision.DENY,
        ("hardline.credentials", "paths.deny_read"),
    )


def test_a_glob_over_the_entry_budget_asks(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    tree = MemoryTree(huge={str(workspace): 25_000})
    gate = Gate(make_gate().policy, fs=tree, tree=tree)
    evaluation = gate.evaluate(call("shell", command="cat *.txt"))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (
        Decision.ASK,
        ["shell.reach-budget"],
    )
    assert str(workspace) in evaluation.reasons[0].matched


def test_a_glob_on_the_fake_file_system_reaches_through_its_symlinks(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    tree = MemoryTree(
        files={f"{home}/.ssh/id_rsa": b"KEY", f"{workspace}/a.txt": b"a"},
        links={f"{workspace}/b": f"{home}/.ssh/id_rsa"},
    )
    gate = Gate(make_gate().policy, fs=tree, tree=tree)
    assert outcome(gate, call, "cat a*") == ALLOWED
    assert outcome(gate, call, "cat ?") == CREDENTIAL_DENY


# -- root cause 4: cd targets ---------------------------------------------------------------

CD: list[tuple[str, Outcome]] = [
    ("cd s* && cat app.py", ASK_DEFAULT),  # a globbed cd: later relative paths unknown
    ("CDPATH=/etc cd src && cat app.py", ASK_DEFAULT),
    ("CDPATH=/etc; cd src; cat app.py", ASK_DEFAULT),
    ("export CDPATH=/; cd src && cat app.py", ASK_DEFAULT),
    # ./ is never looked up in CDPATH, but the CDPATH= prefix itself is an unknown variable
    ("CDPATH=/etc cd ./src && cat app.py", ASK_DEFAULT),
    ("cd $DIR && cat app.py", ASK_DEFAULT),
    ("cd src && cat app.py", ALLOWED),
    ("cd / && cat *", ASK_DEFAULT),
]


@pytest.mark.parametrize(("command", "expected"), CD)
def test_a_cd_that_is_globbed_dynamic_or_under_cdpath_makes_later_paths_unknown(
    make_gate: GateFactory, call: Call, ws: Path, command: str, expected: Outcome
) -> None:
    assert outcome(make_gate(), call, command) == expected


def test_a_cd_through_a_symlink_and_dotdot_is_checked_as_bash_and_the_kernel_see_it(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    # bash's logical cd makes kd/.. the workspace; the kernel makes it the HOME: both count.
    (home / "notes").mkdir()
    (home / "notes" / "secret.txt").write_text("s")
    (workspace / "notes").mkdir()
    (workspace / "notes" / "secret.txt").write_text("ok")
    (workspace / "kd").symlink_to(home / "notes")
    gate = make_gate()
    assert outcome(gate, call, "cat notes/secret.txt") == ALLOWED
    assert outcome(gate, call, "cd kd/.. && cat notes/secret.txt") == ASK_DEFAULT
    assert outcome(gate, call, "cd kd/.. && cat notes/s*") == ASK_DEFAULT


# -- root cause 7: self and agent configuration ------------------------------------------------

SELF = [
    "echo x > .bastion/policy.toml",
    "echo x >> sub/dir/.bastion/policy.toml",
    "tee ~/.config/bastion/policy.toml",
    "cp evil.toml .bastion/policy.toml",
    "mv .bastion gone",
    "rm -rf .bastion",
    "cd .bastion && echo x > policy.toml",  # a list's redirection is not the cd target
    "cd sub && cd .bastion && cat x > policy.toml",
]


@pytest.mark.parametrize("command", SELF)
@pytest.mark.parametrize("mode", ["workspace", "full-access"])
def test_writing_any_policy_file_bastion_would_load_is_denied_in_every_mode(
    make_gate: GateFactory, call: Call, ws: Path, command: str, mode: str
) -> None:
    decision, rules = outcome(make_gate(f'mode = "{mode}"'), call, command)
    assert decision is Decision.DENY and "hardline.self" in rules, rules


def test_writing_the_state_dir_and_trust_store_is_denied(
    make_gate: GateFactory, call: Call, ws: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    decision, rules = outcome(
        make_gate('mode = "full-access"'), call, f"echo {{}} > {state}/trusted-policies.json"
    )
    assert (decision, rules) == (Decision.DENY, ("hardline.self",))


AGENT_CONFIG = [
    ".cursor/rules/x.mdc",
    ".vscode/settings.json",
    ".vscode/tasks.json",
    ".mcp.json",
    "opencode.json",
    ".husky/pre-commit",
    ".githooks/pre-commit",
    ".git/config",
    ".git/hooks/post-checkout",
    ".git/info/attributes",
    ".git/modules/lib/config",
    ".gitmodules",
    ".envrc",
    "sub/.envrc",
    "~/.gitconfig",
    "~/.config/git/config",
    "~/.config/git/attributes",
]


@pytest.mark.parametrize("target", AGENT_CONFIG)
def test_writing_agent_and_repository_configuration_always_asks(
    make_gate: GateFactory, call: Call, ws: Path, target: str
) -> None:
    asks = (Decision.ASK, ("hardline.agent-config",))
    gate = make_gate('mode = "full-access"')
    assert outcome(gate, call, f"echo x > {target}") == asks
    folder, _, name = target.rpartition("/")
    if folder:
        assert outcome(gate, call, f"cd {folder} && echo x > {name}") == asks


# -- root cause 9: recursive readers -------------------------------------------------------------


@pytest.mark.parametrize(
    "secret", [".env", "config/.env.production", "deploy/keys/server.pem", "a/b/c/id_ed25519"]
)
@pytest.mark.parametrize("command", ["grep -rn PASSWORD .", "grep -rn PASSWORD", "rg --hidden PASSWORD"])
def test_a_recursive_reader_reaching_a_credential_file_is_not_a_pure_reader(
    make_gate: GateFactory, call: Call, workspace: Path, secret: str, command: str
) -> None:
    """It asks (it may print nothing of it); when it prints a line of it, it is denied."""
    path = workspace / secret
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("PASSWORD=x\n")
    gate = make_gate()
    for searched, decision in ((command.replace("PASSWORD", "TODO"), Decision.ASK), (command, Decision.DENY)):
        evaluation = gate.evaluate(call("shell", command=searched))
        assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (
            decision,
            ["hardline.credentials"],
        )
        assert evaluation.reasons[0].matched == str(path)
        assert Effect.CREDENTIALS in evaluation.effects


RECURSION: list[tuple[str, Outcome]] = [
    ("grep -rn TODO src", ALLOWED),
    ("grep -rn TODO .", ALLOWED),  # grep -r does not follow k found while recursing
    ("grep -R TODO .", FOLLOWED_TO_KEY),  # grep -R follows k, a symlink to a credential
    ("grep --dereference-recursive TODO .", FOLLOWED_TO_KEY),
    ("grep -r TODO k", CREDENTIAL_DENY),  # a command-line symlink is followed
    ("rg TODO", ALLOWED),
    ("rg -L TODO", FOLLOWED_TO_KEY),
    ("find . -name '*.py'", ALLOWED),
    ("find -L . -name '*.py'", FOLLOWED_TO_KEY),
]


@pytest.mark.parametrize(("command", "expected"), RECURSION)
def test_a_recursive_reader_follows_symlinks_only_where_the_program_does(
    make_gate: GateFactory, call: Call, ws: Path, command: str, expected: Outcome
) -> None:
    assert outcome(make_gate(), call, command) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("tar chf - .", FOLLOWED_TO_KEY),  # -h stores what k points to
        ("zip -r - .", FOLLOWED_TO_KEY),  # zip follows links unless -y
        ("tar cf - .", (Decision.ALLOW, ("mode.full-access",))),
        ("zip -ry - .", (Decision.ALLOW, ("mode.full-access",))),
    ],
)
def test_an_archiver_that_follows_symlinks_is_checked_in_every_mode(
    make_gate: GateFactory, call: Call, ws: Path, command: str, expected: Outcome
) -> None:
    assert outcome(make_gate('mode = "full-access"'), call, command) == expected


def test_rg_skips_hidden_files_unless_told_and_find_only_lists_names(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / ".env").write_text("API_TOKEN=1\n")
    gate = make_gate()
    assert outcome(gate, call, "rg SECRET") == ALLOWED
    assert outcome(gate, call, "rg -uu SECRET") == (Decision.ASK, ("hardline.credentials",))
    assert outcome(gate, call, "find . -name '*.py'") == ALLOWED


GREP_FILTERS: list[tuple[str, Outcome]] = [
    ("grep -rn PASSWORD --include='*.py' .", ALLOWED),
    ("grep -rn PASSWORD --include '*.py' .", ALLOWED),
    ("grep -rn PASSWORD --exclude='.env*' .", ALLOWED),
    ("grep -rn PASSWORD --exclude-dir=config --exclude='.e*' .", ALLOWED),
    ("grep -rn PASSWORD --exclude-dir=config --exclude=.env .", ALLOWED),  # a pattern, not a read
    ("grep -rn PASSWORD --exclude='*.md' .", (Decision.ASK, ("hardline.credentials",))),
    ("grep -rn PASSWORD --include='*.py' --exclude='*.py' .", ALLOWED),
    ("grep -rn PASSWORD --exclude='*.py' --include='.env*' .", (Decision.ASK, ("hardline.credentials",))),
    (
        "grep -rn PASSWORD --include='*.py' --include='*.production' .",
        (Decision.ASK, ("hardline.credentials",)),
    ),
    ("grep -rn PASSWORD --exclude-from=list .", (Decision.ASK, ("hardline.credentials",))),
]


@pytest.mark.parametrize(("command", "expected"), GREP_FILTERS)
def test_grep_include_and_exclude_decide_which_files_are_read_as_grep_does(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, expected: Outcome
) -> None:
    (workspace / ".env").write_text("DB_PASS=1\n")
    (workspace / "config").mkdir()
    (workspace / "config" / ".env.production").write_text("DB_PASS=1\n")
    assert outcome(make_gate(), call, command) == expected


@pytest.mark.parametrize("ignore", [".ignore", ".rgignore", ".gitignore", "src/.ignore"])
def test_an_ignore_file_whitelisting_a_hidden_name_makes_rg_search_hidden_files(
    make_gate: GateFactory, call: Call, workspace: Path, ignore: str
) -> None:
    (workspace / ".env").write_text("API_TOKEN=1\n")
    gate = make_gate()
    assert outcome(gate, call, "rg SECRET") == ALLOWED
    (workspace / ignore).write_text("build/\n!.env\n")
    assert outcome(gate, call, "rg SECRET") == (Decision.ASK, ("hardline.credentials",))


def test_a_symlinked_folder_inside_the_workspace_is_walked_once(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "src" / "loop").symlink_to(workspace / "src")
    (workspace / "src" / "inner").symlink_to(workspace)
    assert outcome(make_gate(), call, "grep -R TODO src") == ALLOWED


def test_a_recursive_reader_over_the_entry_budget_asks_naming_the_tree(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    tree = MemoryTree(huge={f"{workspace}/node_modules": 25_000}, files={f"{workspace}/a.py": b""})
    gate = Gate(make_gate().policy, fs=tree, tree=tree)
    evaluation = gate.evaluate(call("shell", command="grep -rn x ."))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (
        Decision.ASK,
        ["shell.reach-budget"],
    )
    assert "below ." in evaluation.reasons[0].message and "exclude" in evaluation.reasons[0].message
    assert outcome(gate, call, "grep -rn x a.py") == ALLOWED


def test_deciding_a_command_without_glob_recursion_or_git_lists_no_directory_and_reads_only_its_operands(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    class Counting(MemoryTree):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[str] = []

        def scandir(self, path: str) -> tuple[Entry, ...]:
            self.calls.append(f"scandir {path}")
            return super().scandir(path)

        def read(self, path: str, limit: int) -> bytes:
            self.calls.append(f"read {path}")
            return super().read(path, limit)

    counting = Counting()
    gate = Gate(make_gate().policy, tree=counting)
    assert outcome(gate, call, "cat README.md src/app.py | wc -l; ls -la src") == ALLOWED
    # Each operand's first bytes are looked into once (a secret a project file holds under
    # an ordinary name: secret_content); nothing is listed.
    assert counting.calls == [
        f"read {workspace}/README.md",
        f"read {workspace}/src/app.py",
        f"read {workspace}/src",
    ]


# -- root cause 11: destructive targets after resolution -------------------------------------------


def destructive(home: Path, workspace: Path) -> list[str]:
    return [
        f"rm -rf {home}",
        f"rm -rf {home}/",
        f"rm -r {os.path.dirname(workspace)}/../{home.name}",
        "rm -rf /e*c",
        "rm -rf /us?",
        "cd / && rm -rf *",
        "rm -rf ../*",
        f"rm -rf {home}/*",
        "rm -rf ..",
        f"rm -rf {os.path.dirname(home)}",
        "rsync -a --delete src/ ~/",
        "rsync -a --delete src/ /etc/",
        "rm -rf hk",  # a workspace symlink to the home
        "find / -delete",
    ]


@pytest.mark.parametrize("index", range(14))
@pytest.mark.parametrize("mode", ["workspace", "full-access"])
def test_a_delete_whose_resolved_target_is_root_home_system_or_above_the_workspace_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path, index: int, mode: str
) -> None:
    (workspace / "hk").symlink_to(home)
    command = destructive(home, workspace)[index]
    decision, rules = outcome(make_gate(f'mode = "{mode}"'), call, command)
    assert decision is Decision.DENY and "hardline.destructive" in rules, (command, rules)


@pytest.mark.parametrize(
    "command", ["rm -rf build", "rm -rf src/*", "rm -f *.pyc", "rsync -a --delete src/ out/"]
)
def test_an_ordinary_delete_inside_the_workspace_is_not_catastrophic(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    decision, rules = outcome(make_gate('mode = "full-access"'), call, command)
    assert "hardline.destructive" not in rules and decision is not Decision.DENY, rules


# -- hosts wherever they hide ------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "curl http://169.254.169.254/latest/meta-data/",
        "curl http://[fd00:ec2::254]/",
        "curl http://metadata.google.internal/computeMetadata/v1/",
        "wget -qO- 169.254.169.254",
    ],
)
def test_a_host_a_command_reaches_goes_through_the_network_policy_and_metadata_is_denied(
    make_gate: GateFactory, call: Call, command: str
) -> None:
    assert outcome(make_gate('mode = "full-access"'), call, command) == (
        Decision.DENY,
        ("hardline.metadata",),
    )


def test_writing_an_explicitly_named_policy_file_is_denied(
    make_policy: Callable[..., Policy], call: Call, tmp_path: Path
) -> None:
    explicit = tmp_path / "elsewhere" / "custom-policy.toml"
    explicit.parent.mkdir()
    explicit.write_text('mode = "full-access"\n')
    gate = Gate(make_policy('mode = "full-access"', path=str(explicit)))
    assert outcome(gate, call, f"echo x >> {explicit}") == (Decision.DENY, ("hardline.self",))


_GLOB_PARTS = st.sampled_from(
    ["*", "?", "k", "n", ".", "[k]", "[!a]", "s", "*.md", "/", "src/", "~/", ".s*/"]
)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(_GLOB_PARTS, min_size=1, max_size=4))
def test_a_glob_never_decides_less_strictly_than_the_files_bash_expands_it_to(
    make_gate: GateFactory, call: Call, ws: Path, home: Path, parts: list[str]
) -> None:
    pattern = "".join(parts).replace("//", "/")
    if pattern.startswith("/") or "~" in pattern[1:]:
        return
    gate = make_gate()
    script = f"HOME={shlex.quote(str(home))}; printf '%s\\0' {pattern}"
    run = subprocess.run(["bash", "--norc", "-c", script], cwd=ws, capture_output=True, check=True)
    words = run.stdout.decode().split("\0")[:-1]
    bare = max(gate.evaluate(call("shell", command=f"cat {shlex.quote(w)}")).decision for w in words)
    assert gate.evaluate(call("shell", command=f"cat {pattern}")).decision >= bare, (pattern, words)


def test_what_a_call_saw_on_disk_is_not_kept_for_the_next_call(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    gate = make_gate()
    assert outcome(gate, call, "grep -rn PASSWORD .") == ALLOWED
    assert outcome(gate, call, "cat .env*") == ALLOWED  # no match: the literal name
    (workspace / ".env.local").write_text("DB_PASS=1\n")
    assert outcome(gate, call, "grep -rn PASSWORD .") == (Decision.ASK, ("hardline.credentials",))
    assert outcome(gate, call, "cat .env*") == (Decision.DENY, ("hardline.credentials",))
