"""End to end with the real GitHub Copilot CLI (``@github/copilot`` 1.0.102), offline.

Copilot's own BYOK settings (``copilot help environment``) point it at the OpenAI Chat
Completions API the test serves on loopback: ``COPILOT_OFFLINE=true`` (no GitHub login, no
telemetry, no update) with ``COPILOT_PROVIDER_BASE_URL``; ``COPILOT_MODEL=claude-sonnet-4.5``
gives it the ``view``/``create``/``edit``/``bash`` tools (a GPT model id gets the freeform
``apply_patch`` instead, which Bastion refuses as an unknown tool). ``bastion install copilot``
writes ``.github/hooks/bastion.json``; Copilot loads it only in a trusted folder, so the
sandbox HOME's ``~/.copilot/config.json`` lists the project in ``trustedFolders`` (one test
leaves it out). Copilot runs headless (``-p``) with ``--allow-all-tools --allow-all-paths``,
so Bastion alone stops a call; each run has a hard deadline that kills its process group.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.agent_trust import copilot_trust
from bastion.adapters.hooks.install import install
from bastion.audit.redact import redact
from tests.adapters.hooks.conftest import Sandbox, agent_cli
from tests.adapters.hooks.fake_models import FakeModelServer, Script
from tests.exec.sandbox_helpers import require_bwrap

#: One headless turn takes a few seconds here; a run still going after this has hung.
COPILOT_DEADLINE = 120
BASTION = [sys.executable, "-m", "bastion.adapters.cli.main"]
#: How Copilot reports a hook's deny (``… (unable to ask user for confirmation): …`` for an ask).
DENIED = "Denied by preToolUse hook"


@pytest.fixture(scope="module")
def copilot_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copilot unpacks ≈235 MB into ``$XDG_CACHE_HOME/copilot`` on first start: once per module."""
    return tmp_path_factory.mktemp("copilot-cache")


def _source_path() -> dict[str, str]:
    """The hook Copilot spawns imports the Bastion under test (a worktree), not another one."""
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}


def install_copilot(sandbox: Sandbox, *, trusted: bool = True, executable: str | None = None) -> None:
    install(
        "copilot",
        scope="project",
        cwd=str(sandbox.project),
        env=sandbox.env(),
        executable=executable,
        out=lambda *_: None,
    )
    if trusted:
        (sandbox.home / ".copilot").mkdir(exist_ok=True)
        config = {"trustedFolders": [str(sandbox.project)]}
        (sandbox.home / ".copilot" / "config.json").write_text(json.dumps(config))


def run_copilot(sandbox: Sandbox, cache: Path, tool: str, arguments: dict[str, Any], **env: str) -> Script:
    """One headless Copilot run whose model asks for ``tool(arguments)``."""
    copilot = agent_cli("copilot")
    script = Script(tool, arguments)
    with FakeModelServer(script) as server:
        child = subprocess.Popen(
            [copilot, "-p", "do the task", "--allow-all-tools", "--allow-all-paths", "--no-auto-update"],
            cwd=sandbox.project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env=sandbox.env(
                COPILOT_OFFLINE="true",
                COPILOT_PROVIDER_BASE_URL=f"{server.url}/v1",
                COPILOT_PROVIDER_API_KEY="sk-dummy",
                COPILOT_MODEL="claude-sonnet-4.5",
                XDG_CACHE_HOME=str(cache),
                NO_COLOR="1",
                BASTION_HOOK_AUTOSTART="0",
                **_source_path(),
                **env,
            ),
        )
        try:
            stdout, stderr = child.communicate(timeout=COPILOT_DEADLINE)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            stdout, stderr = child.communicate()
            pytest.fail(f"Copilot still running after {COPILOT_DEADLINE} s (hung); stderr: {stderr[-2000:]}")
    assert (child.returncode, stdout.strip().splitlines()[-1:]) == (0, ["done"]), stderr[-2000:]
    assert len(script.results) == 1, stdout[-2000:]
    return script


def test_copilot_cli_reads_a_workspace_file_bastion_allows(sandbox: Sandbox, copilot_cache: Path) -> None:
    install_copilot(sandbox)
    notes = sandbox.project / "notes.txt"
    notes.write_text("hello from the workspace\n")

    script = run_copilot(sandbox, copilot_cache, "view", {"path": str(notes)})

    assert "hello from the workspace" in script.results[0]["content"]


def test_copilot_cli_reads_no_ssh_key_bastion_denies(sandbox: Sandbox, copilot_cache: Path) -> None:
    install_copilot(sandbox)
    key = sandbox.home / ".ssh" / "id_rsa"

    script = run_copilot(sandbox, copilot_cache, "view", {"path": str(key)})

    content = script.results[0]["content"]
    assert "PRIVATE KEY" not in content
    assert content == (
        f"{DENIED}: [policy-denied] {key} is a credential location: never read by an agent; {key} is in deny_read. "
        "This cannot be allowed: the hardline check hardline.credentials refuses it whatever a policy, a grant "
        "or a person says."
    )


def test_copilot_cli_searches_no_credential_folder_its_grep_names_in_paths(
    sandbox: Sandbox, copilot_cache: Path
) -> None:
    install_copilot(sandbox)
    folder = sandbox.home / ".ssh"

    script = run_copilot(sandbox, copilot_cache, "grep", {"pattern": "PRIVATE", "paths": [str(folder)]})

    content = script.results[0]["content"]
    assert "PRIVATE KEY" not in content
    assert content.startswith(f"{DENIED}: [policy-denied] {folder} is a credential location")


def test_copilot_cli_reads_the_key_when_its_folder_is_untrusted_as_bastion_warns(
    sandbox: Sandbox, copilot_cache: Path
) -> None:
    """Why ``TrustModel.COPILOT_FOLDERS``: without a trust entry Copilot never runs the
    repository's hooks, so the call runs unasked -- and ``copilot_trust`` (install, doctor)
    says the install is not active."""
    install_copilot(sandbox, trusted=False)

    script = run_copilot(
        sandbox, copilot_cache, "bash", {"command": "cat ~/.ssh/id_rsa", "description": "key"}
    )
    trust = copilot_trust(str(sandbox.project), sandbox.env())

    assert "PRIVATE KEY" in script.results[0]["content"]  # the fake key: Bastion was never asked
    assert (trust.trusted, "does not trust" in trust.detail) == (False, True)


def _approver_key(sandbox: Sandbox) -> str:
    made = subprocess.run(
        [*BASTION, "keys", "create", "--role", "approver"],
        env={**sandbox.env(), **_source_path()},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _answer_when_parked(sandbox: Sandbox, verb: str, key: str, answered: list[dict[str, Any]]) -> None:
    """Wait for the one pending request, then ``bastion approvals VERB`` it."""
    env = {**sandbox.env(), **_source_path(), "COLUMNS": "200"}
    end = time.monotonic() + COPILOT_DEADLINE
    while time.monotonic() < end:
        listed = subprocess.run(
            [*BASTION, "approvals", "list", "--json"], env=env, capture_output=True, text=True, timeout=60
        )
        pending = json.loads(listed.stdout or "[]") if listed.returncode == 0 else []
        if pending:
            request = pending[0]
            done = subprocess.run(
                [*BASTION, "approvals", verb, "--key", key, request["id"]],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )
            answered.append({**request, "exit": done.returncode})
            return
        time.sleep(0.5)


@pytest.mark.parametrize("verb", ["approve", "deny"])
def test_copilot_cli_writes_outside_the_workspace_only_once_a_person_approves_through_bastion(
    sandbox: Sandbox, copilot_cache: Path, verb: str
) -> None:
    install_copilot(sandbox)
    (sandbox.home / ".config" / "bastion").mkdir(parents=True)
    (sandbox.home / ".config" / "bastion" / "policy.toml").write_text('ask_via = "bastion"\n')
    key = _approver_key(sandbox)
    target = sandbox.victim / "report.txt"
    answered: list[dict[str, Any]] = []
    person = threading.Thread(target=_answer_when_parked, args=(sandbox, verb, key, answered))
    person.start()
    try:
        script = run_copilot(
            sandbox,
            copilot_cache,
            "create",
            {"path": str(target), "file_text": "approved\n"},
            BASTION_HOOK_INTERACTIVE="1",
        )
    finally:
        person.join(timeout=COPILOT_DEADLINE)

    assert [(a["state"], a["tool"], a["summary"], a["exit"]) for a in answered] == [
        # as the queue redacts a long path; the content's size, never the content, beside it
        ("pending", "write", redact(f"write: {target}") + " (9 chars)", 0)
    ]
    if verb == "approve":
        assert target.read_text() == "approved\n"
        assert script.results[0]["content"].startswith("Created file")
    else:
        assert not target.exists()
        assert script.results[0]["content"].startswith(DENIED)


def test_copilot_cli_writes_nothing_when_the_project_policy_is_broken(
    sandbox: Sandbox, copilot_cache: Path
) -> None:
    install_copilot(sandbox)
    (sandbox.project / ".bastion").mkdir()
    (sandbox.project / ".bastion" / "policy.toml").write_text("mode = [broken\n")
    marker = sandbox.project / "marker"

    script = run_copilot(sandbox, copilot_cache, "create", {"path": str(marker), "file_text": "ok\n"})

    assert not marker.exists()
    content = script.results[0]["content"]
    assert content.startswith(DENIED) and str(Path(".bastion") / "policy.toml") in content


@pytest.fixture
def dead_socket(sandbox: Sandbox) -> Iterator[Path]:
    """``hooks.sock`` left behind by a daemon that is gone: nothing listens on it."""
    sandbox.state.mkdir(parents=True, exist_ok=True)
    path = sandbox.state / "hooks.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.close()
    yield path


def test_copilot_cli_is_gated_in_process_when_no_daemon_answers(
    sandbox: Sandbox, copilot_cache: Path, dead_socket: Path
) -> None:
    install_copilot(sandbox)

    denied = run_copilot(
        sandbox, copilot_cache, "bash", {"command": f"rm -rf {sandbox.victim}", "description": "x"}
    )
    run_copilot(sandbox, copilot_cache, "bash", {"command": "echo ok > marker", "description": "mark"})

    assert dead_socket.is_socket()
    assert (sandbox.victim / "keep.txt").read_text() == "precious\n"
    assert denied.results[0]["content"].startswith(DENIED)
    assert (sandbox.project / "marker").read_text() == "ok\n"


def test_copilot_cli_runs_nothing_when_the_hook_cannot_start(sandbox: Sandbox, copilot_cache: Path) -> None:
    install_copilot(sandbox, executable=str(sandbox.root / "no-such-bastion"))

    script = run_copilot(
        sandbox, copilot_cache, "bash", {"command": f"rm -rf {sandbox.victim}", "description": "x"}
    )

    assert (sandbox.victim / "keep.txt").read_text() == "precious\n"
    assert script.results[0]["content"].startswith(DENIED)


ESCAPE = """
import os
home = os.environ["HOME"]
try:
    with open(os.path.join(home, ".bashrc"), "a") as handle:
        handle.write("evil\\n")
except OSError as exc:
    print("bashrc refused:", type(exc).__name__)
try:
    print("key:", open(os.path.join(home, ".ssh", "id_rsa")).read().strip())
except OSError as exc:
    print("key refused:", type(exc).__name__)
with open("out.txt", "w") as handle:
    handle.write("built\\n")
"""


def test_copilot_cli_runs_an_allowed_shell_call_inside_bastions_sandbox_through_modified_args(
    sandbox: Sandbox, copilot_cache: Path
) -> None:
    require_bwrap()
    (sandbox.home / ".config" / "bastion").mkdir(parents=True)
    (sandbox.home / ".config" / "bastion" / "policy.toml").write_text(
        '[[rule]]\ntool = "shell"\npattern = "python3 scripts/*"\naction = "allow"\n'
    )
    (sandbox.home / ".bashrc").write_text("# rc\n")
    (sandbox.project / "scripts").mkdir()
    (sandbox.project / "scripts" / "build.py").write_text(ESCAPE)
    install_copilot(sandbox)

    script = run_copilot(
        sandbox, copilot_cache, "bash", {"command": "python3 scripts/build.py", "description": "b"}
    )

    assert (sandbox.home / ".bashrc").read_text() == "# rc\n"  # its private HOME took the write
    assert (sandbox.project / "out.txt").read_text() == "built\n"  # its workspace write landed
    assert "key refused: FileNotFoundError" in script.results[0]["content"]  # the key is hidden


def test_copilot_cli_cannot_turn_bastions_hook_off_through_its_repository_settings(
    sandbox: Sandbox, copilot_cache: Path
) -> None:
    """1.0.102 reads ``disableAllHooks`` from ``.github/copilot/settings.local.json``: written,
    every later call would run without Bastion. Headless, the ask it gets is a deny."""
    install_copilot(sandbox)
    settings = sandbox.project / ".github" / "copilot" / "settings.local.json"

    script = run_copilot(
        sandbox, copilot_cache, "create", {"path": str(settings), "file_text": '{"disableAllHooks": true}'}
    )
    after = run_copilot(sandbox, copilot_cache, "view", {"path": str(sandbox.home / ".ssh" / "id_rsa")})

    assert not settings.exists()
    assert script.results[0]["content"].startswith(DENIED)
    assert "controls agent permissions" in script.results[0]["content"]
    assert after.results[0]["content"].startswith(DENIED)  # the hook still runs
