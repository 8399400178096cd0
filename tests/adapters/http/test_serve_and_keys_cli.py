"""``bastion serve`` and ``bastion keys`` as a user runs them."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bastion.keys import MemoryKeyStore, Role, SqliteKeyStore, verify

BASTION = [sys.executable, "-m", "bastion.adapters.cli.main"]


@pytest.fixture
def cli_env(home: Path, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BASTION_")}
    return {**env, "HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state"), "COLUMNS": "200"}


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BASTION, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=60)


@contextlib.contextmanager
def serving(cli_env: dict[str, str], cwd: Path, *args: str) -> Iterator[tuple[str, str, list[str]]]:
    """The URL, the first-start key and the banner lines before it."""
    process = subprocess.Popen(
        [*BASTION, "serve", "--port", "0", *args],
        env=cli_env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    try:
        banner: list[str] = []
        while not banner or not banner[-1].startswith("First start"):
            line = process.stdout.readline()
            assert line, f"serve ended: {process.stderr.read() if process.stderr else ''}"
            banner.append(line.rstrip("\n"))
        url = banner[0].split(" on ", 1)[1].split(" ", 1)[0]
        yield url, process.stdout.readline().strip(), banner[:-1]
    finally:
        process.terminate()
        process.wait(timeout=30)
        assert process.stderr is not None
        process.stderr.close()
        process.stdout.close()


@pytest.fixture
def served(cli_env: dict[str, str], workspace: Path) -> Iterator[tuple[str, str]]:
    with serving(cli_env, workspace) as (url, key, _):
        yield url, key


def test_serve_workspace_guards_that_folder_and_the_banner_names_it_and_the_policy(
    cli_env: dict[str, str], workspace: Path, tmp_path: Path
) -> None:
    project = tmp_path / "real project"
    project.mkdir()
    with serving(cli_env, workspace, "--workspace", str(project)) as (url, _approver, banner):
        agent = run(["keys", "create", "--role", "agent"], cli_env, workspace).stdout.strip()
        call = {"tool": "write", "args": {"path": str(project / "notes.md")}, "interactive": False}
        decided = httpx.post(url + "v1/decide", json=call, headers={"X-API-Key": agent}).json()
    assert banner[1:] == [
        f"Guarding workspace: {project} (serve --workspace DIR to guard another folder)",
        "Policy: built-in defaults (no policy file found)",
    ]
    assert decided["decision"] == "allow"


def test_serve_refuses_a_workspace_that_is_not_a_folder(cli_env: dict[str, str], workspace: Path) -> None:
    result = run(["serve", "--port", "0", "--workspace", str(workspace / "missing")], cli_env, workspace)
    assert (result.returncode, "is not a folder" in result.stderr) == (2, True)


def test_the_first_start_prints_an_approver_key_once_with_the_page_url(
    served: tuple[str, str], cli_env: dict[str, str], workspace: Path
) -> None:
    url, key = served
    store = SqliteKeyStore.in_state_dir(cli_env["BASTION_STATE_DIR"])
    record = verify(store, key)
    store.close()
    page = httpx.post(url + "login", data={"key": key})
    assert (record is not None and record.role, page.status_code, page.headers["location"]) == (
        Role.APPROVER,
        303,
        "/",
    )


def test_a_key_created_while_the_daemon_runs_works_at_once_and_revoking_it_stops_it(
    served: tuple[str, str], cli_env: dict[str, str], workspace: Path
) -> None:
    url, _ = served
    created = run(["keys", "create", "--role", "agent", "--label", "ci"], cli_env, workspace)
    key = created.stdout.strip()
    call = {"tool": "shell", "args": {"command": "git status"}}
    before = httpx.post(url + "v1/decide", json=call, headers={"X-API-Key": key}).status_code
    listed = json.loads(run(["keys", "list", "--json"], cli_env, workspace).stdout)
    agent_id = next(k["id"] for k in listed if k["role"] == "agent")
    revoked = run(["keys", "revoke", agent_id], cli_env, workspace)
    after = httpx.post(url + "v1/decide", json=call, headers={"X-API-Key": key}).status_code
    assert (created.returncode, created.stdout.count("\n"), before, revoked.returncode, after) == (
        0,
        1,
        200,
        0,
        401,
    )
    assert [(k["role"], k["label"], k["active"]) for k in listed] == [
        ("approver", "created by bastion serve", True),
        ("agent", "ci", True),
    ]


def test_serve_refuses_a_public_address_without_keys(cli_env: dict[str, str], workspace: Path) -> None:
    result = run(["serve", "--host", "0.0.0.0", "--port", "0"], cli_env, workspace)
    assert (result.returncode, result.stdout) == (2, "")
    assert "not loopback" in result.stderr and "bastion keys create" in result.stderr


def test_serve_refuses_a_policy_that_does_not_load(
    cli_env: dict[str, str], workspace: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("mode = 3\n")
    result = run(["serve", "--policy", str(broken), "--port", "0"], cli_env, workspace)
    assert (result.returncode, result.stdout, str(broken) in result.stderr) == (2, "", True)


def test_revoking_an_unknown_key_fails(cli_env: dict[str, str], workspace: Path) -> None:
    result = run(["keys", "revoke", "nope"], cli_env, workspace)
    assert (result.returncode, "no active key 'nope'" in result.stderr) == (1, True)


def test_a_stored_key_is_only_its_hash_and_a_revoked_key_no_longer_verifies() -> None:
    store = MemoryKeyStore()
    record, key = store.create(Role.ADMIN, now=1.0, label="ops")
    assert key.startswith(f"bst_{record.id}_") and key not in repr(record) and record.hash != key
    assert verify(store, key) == record
    assert store.revoke(record.id, now=2.0) and verify(store, key) is None
    assert (store.list(), len(store.list(include_revoked=True))) == ([], 1)


def test_a_first_start_on_a_taken_port_makes_no_key_so_none_is_lost(
    cli_env: dict[str, str], workspace: Path
) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run(["serve", "--port", str(port)], cli_env, workspace)
    assert result.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
    store = SqliteKeyStore.in_state_dir(cli_env["BASTION_STATE_DIR"])
    try:
        assert store.list(include_revoked=True) == []  # the first working start will make and show it
    finally:
        store.close()


def test_a_later_start_says_how_to_get_an_approver_key(
    served: tuple[str, str], cli_env: dict[str, str], workspace: Path
) -> None:
    process = subprocess.Popen(
        [*BASTION, "serve", "--port", "0"],
        env=cli_env,
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        banner = [process.stdout.readline() for _ in range(4)]
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()
        process.stderr.close()
    assert banner[3].startswith("Log in at http://127.0.0.1:")
    assert banner[3].endswith("(lost it? bastion keys create --role approver --label page)\n")
