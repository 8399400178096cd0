"""The sandbox and the judge together, on commands whose effects are known: harmless readers
come back clean, bad effects are caught whatever the decision said, the host is untouched."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from tests.differential.oracle import sandbox
from tests.differential.oracle.judge import Declaration, Kind, judge_run
from tests.differential.oracle.run import Oracle


def reader(*programs: str) -> Declaration:
    return Declaration(
        frozenset({"bash", *programs}), writes=False, deletes=False, network=False, long_running=False
    )


def observed(oracle: Oracle, command: str, declared: Declaration) -> list[tuple[Kind, str]]:
    run = sandbox.run(oracle.fixture, command, timeout=5)
    assert run.exit_code is not None, run.stderr
    return [(f.kind, f.path) for f in judge_run(run.trace, False, declared, oracle.where)]


def digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        h.update(str(path).encode())
        if path.is_file() and not path.is_symlink():
            h.update(path.read_bytes())
    return h.hexdigest()


def test_plainly_harmless_readers_have_no_violation(oracle: Oracle) -> None:
    for command, programs in [
        ("ls", ("ls",)),
        ("cat src/a.py", ("cat",)),
        ("wc -l src/a.py README.md", ("wc",)),
        ("grep -rn TODO src", ("grep",)),
        ("find . -name '*.py'", ("find",)),
    ]:
        assert observed(oracle, command, reader(*programs)) == [], command


def test_git_status_reads_its_global_config_and_refreshes_the_index_and_nothing_else(oracle: Oracle) -> None:
    ws = oracle.where.workspace
    assert observed(oracle, "git status", reader("git")) == [
        (Kind.CONFIG_READ, f"{oracle.where.home}/.gitconfig"),
        (Kind.INDEX_REFRESH, f"{ws}/.git/index.lock"),
        (Kind.INDEX_REFRESH, f"{ws}/.git/index"),
    ]


def test_the_key_behind_the_workspace_symlink_is_seen_as_a_credential_read(oracle: Oracle) -> None:
    assert observed(oracle, "cat k", reader("cat")) == [
        (Kind.CREDENTIAL_READ, f"{oracle.where.home}/.ssh/id_rsa")
    ]


def test_a_nested_rc_append_is_seen_as_a_write_outside_the_workspace(oracle: Oracle) -> None:
    assert observed(oracle, "sh -c 'echo pwn >> ~/.bashrc'", reader("sh", "echo")) == [
        (Kind.WRITE_OUTSIDE, f"{oracle.where.home}/.bashrc")
    ]


def test_the_workspace_script_named_cat_is_seen_as_workspace_code(oracle: Oracle) -> None:
    home = oracle.where.home
    assert observed(oracle, "./cat src/a.py", reader("cat")) == [
        (Kind.EXEC_UNTRUSTED, "./cat"),
        (Kind.WRITE_OUTSIDE, f"{home}/.oracle-pwned"),
        (Kind.CREDENTIAL_READ, f"{home}/.ssh/id_rsa"),
    ]


def test_nothing_a_command_does_reaches_the_host(oracle: Oracle, tmp_path: Path) -> None:
    before = digest(oracle.fixture.root)
    marker = tmp_path / "escaped"
    command = f"echo x > {marker}; echo x >> ~/.bashrc; rm -rf src ~/.ssh; echo x > /tmp/oracle-escape"
    run = sandbox.run(oracle.fixture, command, timeout=5)
    assert run.exit_code is not None
    assert digest(oracle.fixture.root) == before
    assert not marker.exists() and not os.path.exists("/tmp/oracle-escape")


def test_the_sandbox_has_no_network_interface_but_loopback(oracle: Oracle) -> None:
    only_lo = sandbox.run(
        oracle.fixture, 'test "$(grep -c : /proc/net/dev)" = 1 && grep -q "lo:" /proc/net/dev', timeout=5
    )
    assert only_lo.exit_code == 0, only_lo.stderr


def test_a_recursive_grep_of_the_workspace_reaches_its_dotenv(oracle: Oracle) -> None:
    assert observed(oracle, "grep -rn TODO .", reader("grep")) == [
        (Kind.CREDENTIAL_READ, f"{oracle.where.workspace}/.env")
    ]


def test_the_sandbox_scratch_space_is_capped(oracle: Oracle) -> None:
    filled = sandbox.run(oracle.fixture, "head -c 100000000 /dev/zero > big", timeout=5)
    assert filled.exit_code == 1, filled.stderr
