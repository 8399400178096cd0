"""Issue #14 end to end: through the real Claude Code with a model served on loopback, a shell
call a user rule allows runs *contained* (the hook's ``updatedInput`` rewrites it to
``bastion sandbox run``): its attacks achieve nothing, its workspace write lands."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import Sandbox, agent_cli
from tests.adapters.hooks.fake_models import FakeModelServer, Script
from tests.exec.sandbox_helpers import require_bwrap

AGENT_TIMEOUT = 240
USER_POLICY = """
[[rule]]
tool = "shell"
pattern = "python3 scripts/*"
action = "allow"

[exec]
max_processes = 200
"""

ATTACK = """
import json, os, socket, sys
target = json.load(open("scripts/target.json"))
home, port = target["home"], target["port"]
out = {}
def attempt(name, fn):
    try:
        out[name] = fn()
    except Exception as exc:
        out[name] = type(exc).__name__
def append(path):
    with open(path, "a") as handle:
        handle.write("\\nevil\\n")
    return "written"
attempt("bashrc", lambda: append(os.path.join(home, ".bashrc")))
attempt("ssh", lambda: open(os.path.join(home, ".ssh", "id_rsa")).read())
attempt("git config", lambda: append(".git/config"))
def forks():
    made = 0
    for _ in range(10_000):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            import time; time.sleep(3); os._exit(0)
        made += 1
    return made
attempt("forks", forks)
attempt("tcp", lambda: socket.create_connection(("127.0.0.1", port), timeout=2).close() or "connected")
attempt("workspace", lambda: append("out.txt"))
print("RESULT " + json.dumps(out))
"""


@pytest.fixture
def listener() -> Iterator[tuple[int, list[str]]]:
    """A TCP port on the host's loopback; records every connection it accepts."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[str] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            accepted.append("connection")
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    server.close()
    thread.join(timeout=5)


def _project(sandbox: Sandbox) -> None:
    require_bwrap()
    (sandbox.home / ".config" / "bastion").mkdir(parents=True)
    (sandbox.home / ".config" / "bastion" / "policy.toml").write_text(USER_POLICY)
    (sandbox.home / ".bashrc").write_text("# rc\n")
    subprocess.run(["git", "init", "-q", str(sandbox.project)], check=True)
    (sandbox.project / "scripts").mkdir()
    (sandbox.project / "scripts" / "attack.py").write_text(ATTACK)
    install("claude", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lambda *_: None)


def _claude(sandbox: Sandbox, arguments: dict[str, Any], *, allowed_tools: bool) -> Script:
    claude = agent_cli("claude")
    script = Script("Bash", arguments)
    flags = ["--allowedTools", "Bash"] if allowed_tools else []
    with FakeModelServer(script) as server:
        done = subprocess.run(
            [claude, "-p", "do the task", "--settings", str(sandbox.project / ".claude" / "settings.json"),
             "--output-format", "json", *flags],
            cwd=sandbox.project, capture_output=True, text=True, timeout=AGENT_TIMEOUT,
            env=sandbox.env(ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="sk-ant-dummy",
                            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1",
                            **_source_path()),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return script


def _source_path() -> dict[str, str]:
    """The hook and ``bastion sandbox run`` import this tree's code (a worktree run)."""
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}


def _outcome(script: Script) -> dict[str, Any]:
    content = script.results[0]["content"]
    assert "RESULT " in content, content
    line = next(line for line in content.splitlines() if line.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    return result


@pytest.mark.parametrize("allowed_tools", [True, False], ids=["allowedTools-Bash", "no-allowedTools"])
def test_a_rule_allowed_script_run_by_claude_code_achieves_none_of_its_attacks(
    sandbox: Sandbox, listener: tuple[int, list[str]], allowed_tools: bool
) -> None:
    _project(sandbox)
    port, accepted = listener
    git_config = (sandbox.project / ".git" / "config").read_text()
    target = {"home": str(sandbox.home), "port": port}
    (sandbox.project / "scripts" / "target.json").write_text(json.dumps(target))
    command = "python3 scripts/attack.py"

    script = _claude(sandbox, {"command": command, "description": "run"}, allowed_tools=allowed_tools)

    outcome = _outcome(script)
    assert (sandbox.home / ".bashrc").read_text() == "# rc\n"  # the private HOME took it
    assert outcome["ssh"] == "FileNotFoundError"
    assert outcome["git config"] == "OSError"
    assert (sandbox.project / ".git" / "config").read_text() == git_config
    assert 0 < outcome["forks"] < 200
    assert outcome["tcp"] == "ConnectionRefusedError" and accepted == []  # its own empty loopback
    assert outcome["workspace"] == "written"
    assert (sandbox.project / "out.txt").read_text() == "\nevil\n"


def test_a_background_call_is_contained_too(sandbox: Sandbox) -> None:
    _project(sandbox)
    (sandbox.project / "scripts" / "bg.py").write_text(
        "import os\n"
        "try:\n    open('.git/config', 'a').write('x')\n    state = 'written'\n"
        "except OSError:\n    state = 'refused'\n"
        "open('bg.txt', 'w').write(state)\n"
    )
    command = "python3 scripts/bg.py"

    script = _claude(sandbox, {"command": command, "description": "bg", "run_in_background": True},
                     allowed_tools=True)  # fmt: skip

    assert script.results and not script.results[0]["is_error"]
    wait = subprocess.run(["sh", "-c", "for i in $(seq 100); do [ -s bg.txt ] && exit 0; sleep 0.1; done"],
                          cwd=sandbox.project, timeout=30)  # fmt: skip
    assert wait.returncode == 0
    assert (sandbox.project / "bg.txt").read_text() == "refused"
    assert "[core]" in (sandbox.project / ".git" / "config").read_text()
    assert not (sandbox.project / ".git" / "config").read_text().endswith("x")


def test_the_hook_answer_keeps_the_original_command_in_the_rewritten_one(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    from tests.adapters.hooks.conftest import run_hook
    from tests.adapters.hooks.contained import canonical

    _project(sandbox)
    payload = {
        "hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
        "tool_name": "Bash", "tool_input": {"command": "python3 scripts/attack.py", "timeout": 60000},
    }  # fmt: skip

    env = sandbox.env(CLAUDE_CODE_ENTRYPOINT="sdk-cli", **_source_path())
    answer = run_hook("claude", json.dumps(payload), env)

    output = answer.json["hookSpecificOutput"]
    assert output["permissionDecision"] == "allow"
    rewritten = output["updatedInput"]["command"]
    assert canonical(rewritten) == (
        "$CONTAINED(workspace-write, network: none) --timeout 65 -- bash -c 'python3 scripts/attack.py'"
    )
    assert output["updatedInput"]["timeout"] == 60000
