"""Issue 31: a command that reads *as text* is decided by what it will read and run. Each
table is one root cause: the calls it must refuse, and the everyday calls beside them that
must stay allowed (so a fix cannot pass by refusing everything)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


def _decide(gate: Gate, call: Call, command: str, cwd: Path | None = None) -> Decision:
    return gate.evaluate(call("shell", command=command, cwd=str(cwd) if cwd else None)).decision


#: 3. `python -m` puts the working directory first on sys.path: a workspace json.py runs
#: (the folder is looked at: test_a_standard_library_shadow_in_the_working_directory_asks).
IMPORT_PATH = [
    ("python3 -m json.tool data.json", A),
    ("python -m json.tool data.json", A),
    ("python3 -m tabnanny data.json", A),
    ("python3 -m pydoc json", Q),  # imports the module it names, which the folder may hold
    ("python3 -m pydoc app", Q),
    ("PYTHONPATH=. python3 -m json.tool data.json", Q),
    ("PYTHONPATH=. python3 -I -m json.tool data.json", Q),
    ("python3 -I -m json.tool data.json", A),
    ("python3 -P -m json.tool data.json", A),
    ("python3 -I -m pydoc json", A),
    ("python3 -I -m pydoc ./json.py", Q),
]
#: 5. An output file read as an input: json.tool [infile [outfile]] writes its second.
ARGUMENTS = [
    ("python3 -I -m json.tool data.json out.json", A),  # a workspace write, as the write tool's
    ("python3 -I -m json.tool data.json ~/.bashrc", D),  # it replaces a start-up file
    ("python3 -I -m json.tool --sort-keys data.json", A),
    ("python3 -I -m json.tool --indent 2 data.json", A),
    ("python3 -I -m json.tool --weird data.json", Q),
]
#: 4. Config printers print secrets: reading a credential, denied.
SECRET_PRINTERS = [
    ("kubectl config view", D),
    ("kubectl config view --raw", D),
    ("kubectl --context prod config view", D),
    ("kubectl create token default", D),
    ("kubectl get secret x -o yaml", D),
    ("kubectl get all,secrets", D),
    ("docker compose config", D),
    ("docker-compose config", D),
    ("git config --global --list", D),
    ("git config -l", D),
    ("git config --get-regexp url", D),
    ("git var -l", D),
    ("git credential fill", D),
    ("ps e", D),
    ("ps eww", D),
    ("ps auxe", D),
    ("jq -n env", D),
    ("jq -n '$ENV'", D),
    ("jq -n '$ENV.HOME'", D),
    ("jq 'env | keys' data.json", D),
    ("yq -n 'strenv(HOME)'", D),
    ("printenv", D),
    ("env", D),
    ("printenv GITHUB_TOKEN", D),
    ("echo $AWS_SECRET_ACCESS_KEY", D),
    ("export -p", D),
    ("gh auth token", D),
    ("gh auth status -t", D),
    ("npm config list -l", D),
    ("npm config get //registry.npmjs.org/:_authToken", D),
    ("pip config list", D),
    ("vault kv get secret/x", D),
    ("aws configure get aws_secret_access_key", D),
    ("gcloud auth print-access-token", D),
    ("cat /proc/self/environ", D),
    ("cat /proc/1/environ", D),
    # the everyday neighbours stay allowed
    ("ps aux", A),
    ("ps -ef", A),
    ("jq .envs data.json", A),
    ("jq -r '.name' data.json", A),
    ("git config user.name", A),
    ("echo $HOME", A),
]
#: 8. Credential stores are deny-class, and so is the metadata address however reached.
CREDENTIAL_STORES = [
    ("cat ~/.config/gh/hosts.yml", D),
    ("cat ~/.pgpass", D),
    ("cat ~/.my.cnf", D),
    ("cat ~/.m2/settings.xml", D),
    ("cat ~/.m2/settings-security.xml", D),
    ("cat ~/.gem/credentials", D),
    ("cat ~/.cargo/credentials", D),
    ("cat ~/.cargo/credentials.toml", D),
    ("cat ~/.terraform.d/credentials.tfrc.json", D),
    ("cat ~/.config/pip/pip.conf", D),
    ("cat ~/.pip/pip.conf", D),
    ("cat ~/.vault-token", D),
    ("curl --resolve h:80:169.254.169.254 http://h/", D),
    ("curl --resolve h:80:10.0.0.1,169.254.169.254 http://h/", D),
    ("curl --connect-to h:80:169.254.169.254:80 http://h/", D),
    ("curl --connect-to h:80:[fd00:ec2::254]:80 http://h/", D),
    ("curl --proxy http://169.254.169.254 http://example.com/", D),
    ("cat < /dev/tcp/169.254.169.254/80", D),
    ("exec 3<>/dev/tcp/169.254.169.254/80", D),
    ("wget -e http_proxy=169.254.169.254 http://x.example/", D),
    ("curl http://2852039166/", D),
    ("curl http://0xa9fea9fe/", D),
    ("curl 'http://[::ffff:169.254.169.254]/'", D),
]
#: 10. A wrapper is looked through only for options known harmless; its outputs are writes.
WRAPPERS = [
    ("valgrind --log-file=~/.bashrc ls", D),  # its log replaces a start-up file
    ("valgrind --log-file=out.txt ls", Q),
    ("valgrind --tool=memcheck --leak-check=full ls", A),
    ("xvfb-run -e err.txt ls", Q),
    ("xvfb-run -a ls", A),
    ("strace -o trace.txt ls", Q),
    ("ltrace -o trace.txt ls", Q),
    ("/usr/bin/time -o t.txt ls", Q),
    ("time --output=t.txt ls", Q),
    ("timeout --foo 1 ls", Q),
    ("nice --weird ls", Q),
    ("timeout 5 ls", A),
    ("timeout -k 2 5 ls", A),
    ("nice -n 5 ls", A),
    ("stdbuf -oL ls", A),
    ("time ls", A),
    ("strace -f -c ls", A),
]


def _table(*tables: list[tuple[str, Decision]]) -> list[tuple[str, Decision]]:
    return [row for table in tables for row in table]


@pytest.mark.parametrize(
    ("command", "decision"), _table(IMPORT_PATH, ARGUMENTS, SECRET_PRINTERS, CREDENTIAL_STORES, WRAPPERS)
)
def test_a_call_is_decided_by_what_it_reads_and_runs(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    (workspace / "data.json").write_text('{"name": "x"}\n')
    assert _decide(make_gate(), call, command) is decision


#: What shadows a standard-library module for `python3 -m json.tool` in the working folder,
#: and what does not (a namespace folder, a module inside a package, a non-module file).
SHADOWS = [
    ({"json.py": ""}, Q),
    ({"re.py": ""}, Q),
    ({"argparse.pyc": ""}, Q),
    ({"_json.cpython-311-x86_64-linux-gnu.so": ""}, Q),
    ({"_colorize.py": ""}, Q),  # 3.13's: the python3 a command starts may be newer
    ({"json/__init__.py": ""}, Q),
    ({"encodings/__init__.pyc": ""}, Q),
    ({"json/notes.txt": ""}, A),  # a namespace portion: the standard library's json wins
    ({"src/json.py": ""}, A),  # not on sys.path
    ({"app/__init__.py": "", "app/json.py": ""}, A),  # app.json, not json
    ({"json.txt": "", "README.md": ""}, A),
]


@pytest.mark.parametrize(("files", "decision"), SHADOWS)
def test_a_standard_library_shadow_in_the_working_directory_asks(
    make_gate: GateFactory, call: Call, workspace: Path, files: dict[str, str], decision: Decision
) -> None:
    (workspace / "data.json").write_text('{"name": "x"}\n')
    for name, text in files.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    gate = make_gate()
    assert [
        _decide(gate, call, c)
        for c in ("python3 -m json.tool data.json", "python3 -I -m json.tool data.json")
    ] == [
        decision,
        A,
    ]


def test_a_shadow_in_the_folder_a_cd_moves_to_asks(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "sub").mkdir()
    (workspace / "sub" / "json.py").write_text("")
    (workspace / "data.json").write_text("{}\n")
    gate = make_gate()
    assert [
        _decide(gate, call, "python3 -m json.tool data.json"),
        _decide(gate, call, "cd sub && python3 -m json.tool ../data.json"),
        _decide(gate, call, "cd $D && python3 -m json.tool data.json"),
    ] == [A, Q, Q]


#: py_compile writes the bytecode beside each source, in its __pycache__: a workspace write.
PY_COMPILE = [
    ("python3 -m py_compile app.py", A),
    ("python3 -m py_compile -q app.py lib/util.py", A),
    ("python3 -m py_compile", Q),  # the names come from stdin
    ("python3 -m py_compile -", Q),
    ("python3 -m py_compile ~/.bashrc", Q),  # ~/__pycache__ is outside the workspace
    ("python3 -m py_compile --weird app.py", Q),
]


@pytest.mark.parametrize(("command", "decision"), PY_COMPILE)
def test_py_compile_is_a_write_of_the_bytecode_cache(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    (workspace / "app.py").write_text("x = 1\n")
    (workspace / "lib").mkdir()
    (workspace / "lib" / "util.py").write_text("y = 2\n")
    assert _decide(make_gate(), call, command) is decision


def test_py_compile_asks_in_ask_before_edit_mode(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    (workspace / "app.py").write_text("x = 1\n")
    gate = make_gate('mode = "ask-before-edit"')
    assert [
        _decide(gate, call, "python3 -m py_compile app.py"),
        _decide(gate, call, "python3 -I -m json.tool app.py"),
    ] == [Q, A]


#: 11. An allow entry grants only its program's base effect: these ride no longer.
RIDING = [
    ("kubectl get secret x", D),
    ("kubectl get secrets", D),
    ("kubectl get pods --raw /api", Q),
    ("kubectl get --raw /api/v1/secrets", D),
    ("kubectl get pods -v=9", D),  # it logs each request's headers and bodies
    ("kubectl get pods --v=9", D),
    ("kubectl get pods -v=2", Q),
    ("kubectl get pods --kubeconfig kubeconfig", D),  # a file named kubeconfig is a credential
    ("KUBECONFIG=kubeconfig kubectl get pods", Q),
    ("npm run test --script-shell=/bin/evil", Q),
    ("npm run test --node-options=--require=./x.js", Q),
    ("npm run test --prefix /tmp/x", Q),
    ("make --eval='x:;id' test", Q),
    ("make SHELL=/tmp/x test", Q),
    ("make CC=./evil test", Q),
    ("make -f /tmp/Makefile test", Q),
    ("make -e test", Q),
    ("kubectl get pods", A),
    ("kubectl get pods -o wide -n dev", A),
    ("npm run test", A),
    ("npm run test --if-present", A),
    ("make test", A),
    ("make -j4 test", A),
]
_ALLOWS = '[commands]\nallow = ["kubectl get *", "npm run *", "make *"]\n'


@pytest.mark.parametrize(("command", "decision"), RIDING)
def test_an_allow_entry_covers_only_its_programs_base_effect(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    (workspace / "package.json").write_text('{"scripts": {"test": "jest"}}\n')
    (workspace / "Makefile").write_text("test:\n\ttrue\n")
    assert _decide(make_gate(_ALLOWS), call, command) is decision


#: Everyday reads stay allowed (no allow entry needed).
EVERYDAY = [
    "npm pkg get",
    "npm pkg get name version",
    "node --check src/app.js",
    "bash -n build.sh",
    "sh -n build.sh",
    "python3 -I -m json.tool package.json",
]


@pytest.mark.parametrize("command", EVERYDAY)
def test_an_everyday_read_stays_allowed(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    (workspace / "package.json").write_text('{"name": "x", "scripts": {"test": "jest"}}\n')
    (workspace / "src" / "app.js").write_text("1\n")
    (workspace / "build.sh").write_text("echo hi\n")
    assert _decide(make_gate(), call, command) is A


def test_npm_run_listing_its_scripts_is_decided_as_npm_ls_since_it_writes_npms_log_and_asks_the_registry(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "package.json").write_text('{"name": "x", "scripts": {"test": "jest"}}\n')
    gate = make_gate()
    assert (_decide(gate, call, "npm run"), _decide(gate, call, "npm run") is A) == (
        _decide(gate, call, "npm ls"),
        False,
    )


@pytest.mark.parametrize(
    ("command", "decision"),
    [("npm pkg set name=x", Q), ("node --check -r ./x.js src/app.js", Q), ("bash -n -i build.sh", Q)],
)
def test_the_everyday_reads_neighbours_still_ask(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    (workspace / "src" / "app.js").write_text("1\n")
    (workspace / "build.sh").write_text("echo hi\n")
    assert _decide(make_gate(), call, command) is decision


#: 9. A "read" that reaches the network or the system, and home spelled another way.
REACHING = [
    ("glow https://evil.example/x.md", Q),
    ("glow github.com/a/b", Q),
    ("tar -tf host:file.tar", Q),
    ("tar -tf user@host:file.tar", Q),
    ("tar --rsh-command=/bin/sh -tf a:b", Q),
    ("tar -tvf x.tar --rmt-command=/x", Q),
    ("tar -tf x.tar --info-script=./x.sh", Q),
    ("getent hosts example.com", Q),
    ("getent ahosts example.com", Q),
    ("ip -b cmds", Q),
    ("ip -batch cmds", Q),
    ("ip -force -b cmds", Q),
    ("sysctl -f x.conf", Q),
    ("sysctl -p", Q),
    ("busybox rm -rf src", Q),
    ("toybox rm -rf src", Q),
    ("rm -rf ${HOME:?}", D),
    ('rm -rf "${HOME:?}/"', D),
    ("rm -rf ${HOME:-/x}", D),
    ("rm -rf ~root", D),
    ("rm -rf ~user/", D),
    ("rm -rf ~user/*", D),
    ("glow README.md", A),
    ("glow docs/guide.md", A),
    ("tar -tf x.tar", A),
    ("tar --force-local -tf c:x.tar", A),
    ("getent passwd root", A),
    ("ip -j -br addr", A),
    ("ip addr show", A),
    ("busybox ls", A),
]


@pytest.mark.parametrize(("command", "decision"), REACHING)
def test_a_read_that_reaches_the_network_or_the_system_is_no_read(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    (workspace / "docs").mkdir()
    (workspace / "docs" / "guide.md").write_text("# x\n")
    (workspace / "x.tar").write_text("")
    (workspace / "c:x.tar").write_text("")
    assert _decide(make_gate(), call, command) is decision


#: 2. Toolchains chosen by workspace files: a "read" of the program runs what they name.
TOOLCHAIN_FILES = {
    "rust-toolchain.toml": ["cargo --version", "rustc --version", "cargo metadata --format-version 1"],
    ".yarnrc.yml": ["yarn -v", "yarn --version"],
    ".mvn/jvm.config": ["mvn -v"],
    ".bazeliskrc": ["bazel version"],
    ".nvmrc": ["node --version", "npm --version"],
    ".python-version": ["python3 --version", "python --version"],
    ".tool-versions": ["node --version", "go version", "cargo --version"],
    "mise.toml": ["mise ls", "python3 --version"],
    "toxfile.py": ["tox --version"],  # suite G: tox imports its inline plugin first
}
#: Not reads even in a clean project (they ask there already): only the reason is checked.
_ASKED_ANYWAY = frozenset({"cargo metadata --format-version 1", "mvn -v", "bazel version"})
_TOOLCHAIN_CASES = [(name, command) for name, commands in TOOLCHAIN_FILES.items() for command in commands]


@pytest.mark.parametrize(("name", "command"), _TOOLCHAIN_CASES)
def test_a_toolchain_read_beside_a_file_that_chooses_the_toolchain_asks(
    make_gate: GateFactory, call: Call, workspace: Path, name: str, command: str
) -> None:
    gate = make_gate()
    if command not in _ASKED_ANYWAY:
        assert _decide(gate, call, command) is A  # a clean project: a read
    (workspace / name).parent.mkdir(parents=True, exist_ok=True)
    (workspace / name).write_text("path = './tc'\n")
    evaluation = gate.evaluate(call("shell", command=command))
    assert evaluation.decision is Q
    assert "shell.toolchain" in [r.rule for r in evaluation.reasons]


#: Project files every project of a kind has choose the toolchain only by a directive in them.
DIRECTIVES = [
    ("go.mod", "module m\n\ngo 1.22\n", "module m\n\ngo 1.22\n\ntoolchain go1.99.1\n", "go version"),
    ("go.work", "go 1.22\n\nuse ./a\n", "go 1.22\ntoolchain go1.99.1\n", "go env GOVERSION"),
    ("package.json", '{"name": "x"}\n', '{"name": "x", "packageManager": "yarn@9.9.9"}\n', "yarn --version"),
    ("package.json", '{"name": "x"}\n', '{"name": "x", "packageManager": "pnpm@9.9.9"}\n', "pnpm --version"),
]


@pytest.mark.parametrize(("name", "plain", "directed", "command"), DIRECTIVES)
def test_a_project_file_chooses_the_toolchain_only_by_its_directive(
    make_gate: GateFactory, call: Call, workspace: Path, name: str, plain: str, directed: str, command: str
) -> None:
    (workspace / name).write_text(plain)
    assert _decide(make_gate(), call, command) is A  # an ordinary project: a read
    (workspace / name).write_text(directed)
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons][:1]) == (Q, ["shell.toolchain"])


def test_a_toolchain_file_in_a_parent_of_the_cwd_chooses_too(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "rust-toolchain").write_text("./tc\n")
    assert _decide(make_gate(), call, "cargo --version", workspace / "src") is Q
    assert _decide(make_gate(), call, "cd src && cargo --version") is Q


def test_the_persons_own_toolchain_file_in_home_is_their_choice(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (home / ".tool-versions").write_text("nodejs 20\n")
    (workspace / "README.md").write_text("x\n")
    assert _decide(make_gate(), call, "node --version") is A
    assert _decide(make_gate(), call, "ls") is A


#: 6. A hard link is the same file under another name: recognised by (device, inode). A
#: recursive read of a folder holding one is denied (a planted link, not a project's layout).
@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("cat notes.txt", D),
        ("head -1 notes.txt", D),
        ("cp notes.txt copy.txt", D),
        ("echo x > notes.txt", D),
        ("grep -r secret .", D),  # a planted hard link reached by a recursive read: denied
    ],
)
def test_a_hard_link_to_a_credential_file_is_the_credential_file(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path, command: str, decision: Decision
) -> None:
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = x\n")
    (workspace / "notes.txt").hardlink_to(home / ".aws" / "credentials")
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert evaluation.decision is decision
    assert "hardline.credentials" in [r.rule for r in evaluation.reasons]


def test_a_hard_link_is_recognised_by_the_file_tools_too(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (workspace / "key").hardlink_to(home / ".ssh" / "id_rsa")
    assert make_gate().evaluate(call("read", path="key")).decision is D


def test_a_file_with_two_names_that_is_no_credential_is_a_file(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("a\n")
    (workspace / "b.txt").hardlink_to(workspace / "a.txt")
    assert _decide(make_gate(), call, "cat b.txt") is A


#: 6b. A write through a name of a file with more than one name changes it under all of
#: them (the workspace's scripts/env.sh may be the home's .bashrc): never a plain workspace
#: write. A home start-up file or a credential under another name is denied; any other asks.
@pytest.mark.parametrize(
    ("target", "tool", "command", "decision", "rule"),
    [
        (".bashrc", "shell", "echo x >> scripts/env.sh", D, "hardline.agent-config"),
        (".bashrc", "shell", "tee -a scripts/env.sh", D, "hardline.agent-config"),
        (".bashrc", "shell", "cp a.txt scripts/env.sh", D, "hardline.agent-config"),
        (".bashrc", "write", "scripts/env.sh", D, "hardline.agent-config"),
        (".bashrc", "edit", "scripts/env.sh", D, "hardline.agent-config"),
        (".aws/credentials", "write", "scripts/env.sh", D, "hardline.credentials"),
        ("other/file.sh", "shell", "echo x > scripts/env.sh", Q, "paths.hard-link"),
        ("other/file.sh", "shell", "sed -i s/a/b/ scripts/env.sh", Q, "paths.hard-link"),
        ("other/file.sh", "write", "scripts/env.sh", Q, "paths.hard-link"),
        ("other/file.sh", "edit", "scripts/env.sh", Q, "paths.hard-link"),
    ],
)
def test_a_write_through_a_hard_link_is_not_a_plain_workspace_write(
    make_gate: GateFactory,
    call: Call,
    workspace: Path,
    home: Path,
    target: str,
    tool: str,
    command: str,
    decision: Decision,
    rule: str,
) -> None:
    (home / target).parent.mkdir(parents=True, exist_ok=True)
    (home / target).write_text("export X=1\n")
    (workspace / "scripts").mkdir()
    (workspace / "a.txt").write_text("a\n")
    (workspace / "scripts" / "env.sh").hardlink_to(home / target)
    if tool == "shell":
        evaluation = make_gate().evaluate(call("shell", command=command))
    elif tool == "write":
        evaluation = make_gate().evaluate(call("write", path=command, content="x"))
    else:
        evaluation = make_gate().evaluate(call("edit", path=command, old="export", new="unset"))
    assert evaluation.decision is decision
    assert rule in [r.rule for r in evaluation.reasons]


def test_a_file_with_one_name_is_a_plain_workspace_write(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("a\n")
    assert make_gate().evaluate(call("write", path="a.txt", content="x")).decision is A
    assert _decide(make_gate(), call, "echo x > a.txt") is A


def test_reading_a_hard_link_to_a_start_up_file_asks_as_reading_the_file_itself_does(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (home / ".bashrc").write_text("export GITHUB_TOKEN=x\n")
    (workspace / "env.sh").hardlink_to(home / ".bashrc")
    (workspace / "plain.sh").write_text("export X=1\n")
    gate = make_gate()
    decided = [_decide(gate, call, c) for c in ("cat env.sh", "cat ~/.bashrc", "cat plain.sh")]
    assert decided == [Q, Q, A]


def test_a_hard_link_to_a_start_up_file_that_exports_a_token_is_a_credential_as_the_file_is(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (home / ".zshenv").write_text("export HOMEBREW_GITHUB_API_TOKEN=ghp_" + "a1B2" * 9 + "\n")
    (workspace / "zshenv.sh").hardlink_to(home / ".zshenv")
    gate = make_gate()
    assert [_decide(gate, call, c) for c in ("cat zshenv.sh", "cat ~/.zshenv")] == [D, D]


#: 6c. The agent's own search tool reads every file below its path, as `grep -r` does: a
#: hard link or a symlink to a credential file below it is reached the same way.
@pytest.mark.parametrize(
    ("plant", "path", "decision"),
    [
        ("hard", ".", D),
        ("hard", "notes", D),
        ("symlink", ".", D),
        ("symlink", "notes", D),
        ("none", ".", A),
        ("none", "notes", A),
    ],
)
def test_the_search_tool_reaches_what_a_recursive_grep_reaches(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path, plant: str, path: str, decision: Decision
) -> None:
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = x\n")
    (workspace / "notes").mkdir()
    (workspace / "notes" / "todo.md").write_text("TODO\n")
    if plant == "hard":
        (workspace / "notes" / "db.txt").hardlink_to(home / ".aws" / "credentials")
    elif plant == "symlink":
        (workspace / "notes" / "db.txt").symlink_to(home / ".aws" / "credentials")
    evaluation = make_gate().evaluate(call("grep", path=path, pattern="secret"))
    assert evaluation.decision is decision
    rules = [r.rule for r in evaluation.reasons]
    assert ("hardline.credentials" in rules) is (decision is D)
    assert _decide(make_gate(), call, f"grep -R secret {path}") is decision


def test_the_search_tool_leaves_a_project_env_and_a_link_out_to_the_tool(
    make_gate: GateFactory, call: Call, workspace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "data.txt").write_text("x\n")
    (workspace / "data").symlink_to(outside)
    (workspace / ".env").write_text("TOKEN=x\n")
    evaluation = make_gate().evaluate(call("grep", path=".", pattern="x"))
    assert evaluation.decision is A
