"""Issue 31, the causes the last blind suite left: a file is a credential by what it holds as
well as by its name; a write of what a later Python start or toolchain runs asks; and xargs
fed by a lister of workspace files reads files below that folder, as ``grep -r`` does. Each
table holds the calls to refuse and the everyday ones beside them that stay allowed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.policy.hardline import Hardline
from bastion.policy.secret_content import holds_secret
from bastion.shell.programs.toolchains import DIRECTIVE_FILES, TOOLCHAIN_FILES

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


def _shell(gate: Gate, call: Call, command: str) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, [r.rule for r in evaluation.reasons][:1]


#: Files outside the workspace (under home): asked as outside reads, denied when they hold a
#: secret (a name no list knows: the content says what it is).
OUTSIDE = [
    (".toolrc", "[auth]\ntoken = abcd1234efgh\n", D),
    (".config/tool/config.toml", 'test_mode_api_key = "sk_test_51abcdefghijkl"\n', D),
    ("notes/db.yml", "prod:\n  password: hunter2hunter2\n", D),
    ("notes/remote.txt", "origin https://bot:s3cr3tpass@git.example.com/x.git\n", D),
    ("keys/deploy", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", D),
    ("notes/todo.txt", "buy milk\nauthor = me\nmax_tokens = 100\n", Q),
    (".toolrc.example", "token = ${TOOL_TOKEN}\npassword: \n", Q),
]


@pytest.mark.parametrize(("name", "content", "decision"), OUTSIDE)
def test_a_file_outside_the_roots_holding_a_secret_is_a_credential(
    make_gate: GateFactory, call: Call, home: Path, name: str, content: str, decision: Decision
) -> None:
    (home / name).parent.mkdir(parents=True, exist_ok=True)
    (home / name).write_text(content)
    rule = ["hardline.credentials"] if decision is D else ["paths.outside-roots"]
    gate = make_gate()
    assert _shell(gate, call, f"cat ~/{name}") == (decision, rule)
    assert gate.evaluate(call("read", path=str(home / name))).decision is decision


def test_a_workspace_file_that_mentions_a_password_is_the_persons_project(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "settings.py").write_text('SECRET_KEY = "django-insecure-abcdefgh"\n')
    assert _shell(make_gate(), call, "cat settings.py") == (A, ["mode.workspace"])


#: Files that hold secrets by what they are for, recognised by name wherever they are.
NAMED = [".envrc", "prod.tfvars", "vars.tfvars.json", "kubeconfig", "ci.kubeconfig", ".pg_service.conf"]


@pytest.mark.parametrize("name", NAMED)
def test_a_secret_bearing_file_is_a_credential_by_its_name(
    make_gate: GateFactory, call: Call, workspace: Path, name: str
) -> None:
    (workspace / name).write_text("x\n")
    assert _shell(make_gate(), call, f"cat {name}") == (D, ["hardline.credentials"])


#: Credential stores of agents and tools, by name under home.
STORES = [
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".config/github-copilot/hosts.json",
    ".cache/huggingface/token",
    ".kaggle/kaggle.json",
    ".pulumi/credentials.json",
    ".config/git/credentials",
    ".password-store/prod/db.gpg",
    ".claude.json",
    ".age/me.txt",
    ".ansible/vault_pass.txt",
    ".linode-cli",
]


def test_secrets_a_container_runtime_mounts_are_credentials(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate()
    decided = [
        gate.evaluate(call("read", path=p)).decision
        for p in ("/var/run/secrets/kubernetes.io/serviceaccount/token", "/run/secrets/db_password")
    ]
    assert decided == [D, D]


@pytest.mark.parametrize("name", STORES)
def test_a_tools_credential_store_is_denied_however_it_is_read(
    make_gate: GateFactory, call: Call, home: Path, name: str
) -> None:
    (home / name).parent.mkdir(parents=True, exist_ok=True)
    (home / name).write_text("{}\n")
    gate = make_gate()
    assert _shell(gate, call, f"sort ~/{name}") == (D, ["hardline.credentials"])
    assert gate.evaluate(call("read", path=str(home / name))).decision is D


#: Writes of what a later Python start, or a toolchain command, runs.
LATER_CODE = [
    ".venv/lib/python3.11/site-packages/evil.pth",
    "sitecustomize.py",
    "lib/usercustomize.py",
    ".bazelrc",
    ".tool-versions",
    ".python-version",
    "json.py",
    "tools/json.py",
    "json/__init__.py",
]


@pytest.mark.parametrize("name", LATER_CODE)
def test_a_write_of_what_a_later_python_or_toolchain_runs_asks(
    make_gate: GateFactory, call: Call, workspace: Path, name: str
) -> None:
    evaluation = make_gate().evaluate(call("write", path=str(workspace / name), content="x\n"))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons][:1]) == (Q, ["hardline.agent-config"])


@pytest.mark.parametrize("name", ["src/json.py", "conftest.py", "src/app.py", "tests/test_json.py"])
def test_a_module_inside_a_package_or_an_ordinary_file_is_an_ordinary_write(
    make_gate: GateFactory, call: Call, workspace: Path, name: str
) -> None:
    (workspace / "src" / "__init__.py").write_text("")
    evaluation = make_gate().evaluate(call("write", path=str(workspace / name), content="x\n"))
    assert evaluation.decision is A


def test_every_file_that_chooses_a_toolchain_is_guarded_for_writes() -> None:
    hard = Hardline.build(home="/h", credentials_dir="/h/.c", policy_files=(), state_dir="/h/.s")
    names = [*TOOLCHAIN_FILES, *DIRECTIVE_FILES]
    unguarded = [
        n for n in names if not any(g.first_match(f"/w/p/{n}") for g in (hard.self_ask, hard.later_code))
    ]
    # project files every project has choose only by a directive: checked where they are read
    assert unguarded == list(DIRECTIVE_FILES)


#: xargs fed by a lister of the files below a folder reads files below it.
FED = [
    ("git ls-files | xargs wc -l", A),
    ("git ls-files '*.py' | xargs grep -n TODO", A),
    ("find . -name '*.py' -not -path './node_modules/*' | xargs wc -l", A),
    ("git ls-files | grep -v test | xargs cat", A),
    ("find src -name '*.py' | xargs cat", A),
    ("git grep -l TODO | xargs -n1 wc -l", A),
    ("git grep -l -O TODO | xargs cat", Q),
    ("git ls-files | sed s,^,/etc/, | xargs cat", Q),
    ("find . -printf '/etc/%p\\n' | xargs cat", Q),
    ("git ls-files | xargs rm", Q),
    ("git ls-files | xargs -I{} cat {}", Q),
    ("git ls-files --full-name | xargs cat", Q),
    ("git ls-files ../ | xargs cat", Q),
    # names of the work tree git prints (porcelain v1 and diff never say ".."), whole or a
    # word of each line: below the working directory too
    ("git status --porcelain | awk '{print $2}' | xargs wc -l", A),
    ("git status --porcelain | cut -c4- | xargs cat", A),
    ("git diff --name-only | xargs wc -l", A),
    ("git diff --cached --name-only -- src | xargs cat", A),
    ("git status -s | awk '{print $2}' | xargs cat", Q),  # --short may print ../x
    ("git diff --name-only --output=x | xargs cat", Q),
    ("find /etc -type f | awk '{print $2}' | xargs cat", Q),  # "b" of "/etc/a b" is not below /etc
    ("git status --porcelain | awk '{print $2; system(\"id\")}' | xargs cat", Q),
    ("echo README.md | xargs cat", A),  # echo's words are what xargs passes
    ("echo ~/.ssh/id_rsa | xargs cat", D),
    ("echo ~ | xargs rm -rf", D),
    ("echo README.md | xargs -0 cat", Q),
    # an unquoted $(LISTER) gives the command the same words (suite G: `cat $(git ls-files
    # --others --exclude-standard)` asked as "only known at run time")
    ("wc -l $(git ls-files)", A),
    ("grep -n TODO $(git ls-files '*.py' | grep -v test)", A),
    ("cat $(find src -name '*.py')", A),
    ("head $(git diff --name-only)", A),
    ("cat $(git ls-files | sed s,^,/etc/,)", Q),
    ("cat $(git -C /etc ls-files)", Q),
    ('cat "$(git ls-files)"', Q),  # one word of every name: no file
    ("rm $(git ls-files)", Q),  # what a delete gets is decided as written
    ("cat $(ls)", Q),
]


@pytest.mark.parametrize(("command", "decision"), FED)
def test_xargs_fed_by_a_lister_reads_files_below_its_folder(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    assert make_gate().evaluate(call("shell", command=command)).decision is decision


def test_xargs_fed_by_a_lister_reads_as_a_recursive_reader_of_its_folder(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (workspace / ".env").write_text("TOKEN=x\n")  # a project's own: a person may confirm
    assert _shell(make_gate(), call, "git ls-files | xargs cat") == (Q, ["hardline.credentials"])
    (workspace / ".env").unlink()
    (workspace / "linked").symlink_to(home / ".ssh")  # planted: denied
    assert _shell(make_gate(), call, "find . -name '*.py' | xargs cat") == (D, ["hardline.credentials"])
    git_names = "git status --porcelain | awk '{print $2}' | xargs cat"
    assert _shell(make_gate(), call, git_names) == (D, ["hardline.credentials"])


def test_a_listed_name_xargs_splits_into_other_paths_asks(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "x " / "etc").mkdir(parents=True)
    (workspace / "x " / "etc" / "passwd").write_text("x\n")  # listed as "x /etc/passwd"
    assert _shell(make_gate(), call, "git ls-files | xargs cat") == (Q, ["shell.dynamic-path"])
    assert _shell(make_gate(), call, "cat $(git ls-files)") == (Q, ["shell.dynamic-path"])


@pytest.mark.parametrize("command", ["git ls-files | xargs wc -l", "wc -l $(git ls-files)"])
def test_a_listed_name_that_is_an_option_asks(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    """``--files0-from=F`` listed first makes wc read the names in F (and print them in its
    errors); a glob character a ``$(…)`` word expands again only makes names below the folder."""
    (workspace / "src").mkdir(exist_ok=True)
    (workspace / "src" / "[id].tsx").write_text("x\n")  # a Next.js route: its names stay below
    assert _shell(make_gate(), call, command) == (A, ["mode.workspace"])
    (workspace / "--files0-from=names").write_text("x\n")
    assert _shell(make_gate(), call, command) == (Q, ["shell.dynamic-path"])


#: A recursive read reaching a credential: asked in the person's project (a .env beside the
#: code), denied when no project's layout explains it.
def test_a_recursive_read_of_a_planted_or_outside_credential_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (home / ".netrc").write_text("machine x password y\n")
    (workspace / "notes").mkdir()
    (workspace / "notes" / "db.txt").hardlink_to(home / ".netrc")
    gate = make_gate()
    assert _shell(gate, call, "grep -r password notes") == (D, ["hardline.credentials"])
    assert _shell(gate, call, "grep -r password ~") == (D, ["hardline.credentials"])
    (workspace / "notes" / "db.txt").unlink()
    (workspace / ".env").write_text("TOKEN=x\n")
    assert _shell(gate, call, "grep -r TODO .") == (Q, ["hardline.credentials"])


_KEYS = st.sampled_from(["password", "db_password", "api_key", "token", "client_secret", "_authToken"])
_VALUES = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd")), min_size=4, max_size=30)


@given(_KEYS, st.sampled_from([" = ", "=", ": "]), _VALUES)
def test_a_secret_named_key_with_a_value_is_a_secret(key: str, sep: str, value: str) -> None:
    assert holds_secret(f"[section]\n{key}{sep}{value}\n".encode())


@pytest.mark.parametrize(
    "line", ["bank password = Xq8pLm2v", "Work VPN token: 9f8e7d6c", "  gmail password=hunter22"]
)
def test_a_note_naming_its_secret_in_words_holds_one(line: str) -> None:
    assert holds_secret(f"{line}\n".encode())


@given(st.text(st.characters(whitelist_categories=("Ll", "Zs")), max_size=200))
def test_lower_case_prose_without_a_separator_holds_no_secret(text: str) -> None:
    assert not holds_secret(text.encode())
