"""The program text a command runs from a file is decided as what it spells, and only its
denials are taken (#31, suite F: ``sh scripts/dump.sh`` printing the project's secrets, ``sed
-f tidy.sed`` whose ``w`` replaces ~/.bashrc)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy.script_files import MAX_SCRIPT_BYTES

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
_TOKEN = "ghp" + "_" + "Ab3" * 13  # built at run time: no scanner takes this file for a leak


@pytest.fixture
def project(workspace: Path, home: Path) -> Path:
    (workspace / "config").mkdir()
    (workspace / "config" / "prod.yml").write_text(f"github:\n  token: {_TOKEN}\n")
    (workspace / "README.md").write_text("# project\n")
    (workspace / ".env").write_text("DB_PASSWORD=hunter2\n")
    scripts = workspace / "scripts"
    scripts.mkdir()
    files = {
        "dump.sh": "#!/bin/sh\ncat config/prod.yml README.md\n",
        "build.sh": "#!/usr/bin/env bash\nset -e\nmkdir -p dist\ncp README.md dist/\nrm -rf dist/tmp\n",
        "wipe.sh": "#!/bin/bash\nrm -rf ~\n",
        "self.sh": "#!/bin/sh\nsh scripts/self.sh\n",
        "outer.sh": "#!/bin/sh\nsh scripts/dump.sh\n",
        "tidy.sed": f"s/x/y/\nw {home}/.bashrc\n",
        "clean.sed": "s/[[:space:]]*$//\n",
        "steal.awk": 'BEGIN { system("cat ~/.ssh/id_rsa") }\n',
        "count.awk": "{ n++ } END { print n }\n",
        "keys.py": "#!/usr/bin/env python3\nprint(open('/home/u/.aws/credentials').read())\n",
        "dev.sh": "#!/bin/sh\nset -a; . ./.env; set +a\ncat .env.local\nnode server.js\n",
        "steal.sh": "#!/bin/sh\ncat ~/.ssh/id_rsa\n",
        "sample.sh": "#!/bin/sh\ncat fixtures/sample.txt\n",  # another name of ~/.aws/credentials
        "notes.txt": "cat config/prod.yml\n",  # no #! line: not a script git or a shell runs by path
    }
    for name, text in files.items():
        (scripts / name).write_text(text)
        (scripts / name).chmod(0o755)
    (workspace / "fixtures").mkdir()
    (home / ".aws").mkdir(exist_ok=True)
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = x\n")
    (workspace / "fixtures" / "sample.txt").hardlink_to(home / ".aws" / "credentials")
    (workspace / "package.json").write_text(
        '{"scripts": {"dump": "cat config/prod.yml", "test": "node test.js", "pretest": "echo ok",'
        ' "postbuild": "cat config/prod.yml", "build": "tsc"}}'
    )
    (workspace / "Makefile").write_text(
        "all: build\nbuild:\n\tcc -o x x.c\ndump: prep\n\t@cat config/prod.yml\nprep:\n\ttouch .p\n"
    )
    return workspace


DENIED = [
    ("sh scripts/dump.sh", "hardline.credentials"),
    ("bash -x scripts/dump.sh", "hardline.credentials"),
    ("./scripts/dump.sh", "hardline.credentials"),
    ("source scripts/dump.sh", "hardline.credentials"),
    (". scripts/dump.sh", "hardline.credentials"),
    (
        "cd scripts && sh dump.sh",
        "hardline.credentials",
    ),  # its cd is applied to the path, not to what it runs
    ("sh scripts/outer.sh", "hardline.credentials"),  # a script's own script, one level down
    ("sh scripts/wipe.sh", "hardline.destructive"),
    ("sed -f scripts/tidy.sed README.md", "hardline.destructive"),
    ("awk -f scripts/steal.awk README.md", "hardline.credentials"),
    ("sh scripts/steal.sh", "hardline.credentials"),  # a credential of HOME, named outright
    # another name of a HOME credential (suite H's `make test`): hidden in the sandbox too, but
    # no project's build reads one, so it is denied rather than run blind
    ("sh scripts/sample.sh", "hardline.credentials"),
    # A package.json script (with its pre- and post- scripts), a Makefile's recipes.
    ("npm run dump", "hardline.credentials"),
    ("yarn dump", "hardline.credentials"),
    ("pnpm run dump", "hardline.credentials"),
    ("bun run dump", "hardline.credentials"),
    ("npm run build", "hardline.credentials"),
    ("make dump", "hardline.credentials"),
    ("make -f Makefile dump", "hardline.credentials"),
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_a_script_whose_text_earns_a_denial_is_denied(
    make_gate: GateFactory, call: Call, project: Path, command: str, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (D, rule)


def test_the_reason_names_the_script_and_what_it_does(
    make_gate: GateFactory, call: Call, project: Path
) -> None:
    evaluation = make_gate().evaluate(call("shell", command="sh scripts/dump.sh"))
    secret = project / "config" / "prod.yml"
    assert [(r.matched, r.message) for r in evaluation.reasons if r.decision is D] == [
        (
            f"scripts/dump.sh: {secret}",
            f"scripts/dump.sh, which sh runs, holds what is denied: {secret} holds a secret (a key, a "
            "token or a password): a credential, never read by an agent",
        )
    ]


KEPT = [
    "sh scripts/build.sh",
    "./scripts/build.sh",
    "sh scripts/self.sh",  # followed only so far: no endless reading
    "sed -f scripts/clean.sed README.md",
    "awk -f scripts/count.awk README.md",
    "sh scripts/dev.sh",  # the project's .env, hidden by its name in the sandbox: no denial
    "python3 scripts/keys.py",  # another language's script is not read: the sandbox holds it
    "./scripts/keys.py",
    "npm test",
    "yarn test",
    "npm run missing",
    "make",
    "make build",
    "make -n dump",  # prints the recipes, runs none
]


@pytest.mark.parametrize("command", KEPT)
def test_a_script_that_earns_no_denial_is_decided_as_the_code_it_is(
    make_gate: GateFactory, call: Call, project: Path, command: str
) -> None:
    assert make_gate().evaluate(call("shell", command=command)).decision is Q


def test_a_file_run_by_its_path_is_read_only_with_a_shell_s_first_line(
    make_gate: GateFactory, call: Call, project: Path
) -> None:
    gate = make_gate()
    # A shell given the file runs it whatever its first line; run by its path, the kernel
    # needs a #! line (without one, the shell the agent's tool runs in would: it asks).
    assert gate.evaluate(call("shell", command="sh scripts/notes.txt")).decision is D
    assert gate.evaluate(call("shell", command="./scripts/notes.txt")).decision is Q


def test_a_script_too_long_to_read_is_decided_as_code(
    make_gate: GateFactory, call: Call, project: Path
) -> None:
    big = project / "scripts" / "big.sh"
    big.write_text("cat config/prod.yml\n" + "# padding\n" * (MAX_SCRIPT_BYTES // 10 + 1))
    assert make_gate().evaluate(call("shell", command="sh scripts/big.sh")).decision is Q


def test_a_script_outside_the_roots_is_not_read(
    make_gate: GateFactory, call: Call, project: Path, tmp_path: Path
) -> None:
    # Its read is the command's own path, asked about: the gate reads nothing outside the roots.
    outside = tmp_path / "elsewhere.sh"
    outside.write_text("rm -rf ~\n")
    evaluation = make_gate().evaluate(call("shell", command=f"sh {outside}"))
    assert evaluation.decision is Q
    assert not any("holds what is denied" in r.message for r in evaluation.reasons)
