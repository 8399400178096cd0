"""An approved ``git push origin main`` succeeds contained (#30 item 2): the hook finds the
remote's host in the repository's configuration, the person is asked with it, and the
contained run reaches that host - and nothing else - through the egress proxy, over http(s)
or over ssh with the person's ssh agent (its socket only: ``~/.ssh`` stays unreadable).

Each case runs the real ``bastion hook claude`` and then the rewritten command exactly as
Claude Code would after the person says yes, against a real git server on loopback (the
test's policy allows loopback: ``allow_private``, ``allow_hosts``)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.hooks.conftest import Sandbox, bastion_exe, run_hook
from tests.exec.git_servers import (
    GitHttp,
    Sshd,
    bare_repo,
    git,
    pushed,
    start_agent,
    start_git_http,
    start_sshd,
)
from tests.exec.sandbox_helpers import require_bwrap

POLICY = '[network]\nallow_private = true\nallow_hosts = ["127.0.0.1", "127.0.0.2"]\n'


@pytest.fixture
def project(sandbox: Sandbox) -> Path:
    require_bwrap()
    (sandbox.root / "policy.toml").write_text(POLICY)
    git(sandbox.project, "init", "-q", ".")
    git(sandbox.project, "commit", "-q", "--allow-empty", "-m", "one")
    return sandbox.project


@pytest.fixture
def server(sandbox: Sandbox) -> Iterator[GitHttp]:
    served = start_git_http(sandbox.root / "srv")
    bare_repo(sandbox.root / "srv" / "widget.git")
    yield served
    served.close()


def _env(sandbox: Sandbox, **extra: str) -> dict[str, str]:
    return sandbox.env(
        CLAUDE_CODE_ENTRYPOINT="cli", BASTION_POLICY=str(sandbox.root / "policy.toml"), **extra
    )


def _asked(sandbox: Sandbox, command: str, env: dict[str, str]) -> tuple[str, str]:
    """What Claude's prompt shows for ``command``: the reason and the contained line."""
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    out = run_hook("claude", json.dumps(payload), env).json["hookSpecificOutput"]
    assert out["permissionDecision"] == "ask"
    return out["permissionDecisionReason"], out["updatedInput"]["command"]


def _run(sandbox: Sandbox, line: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=sandbox.project, env=env, capture_output=True, text=True, timeout=180
    )


def test_an_approved_push_over_http_reaches_the_remotes_host_and_lands(
    sandbox: Sandbox, project: Path, server: GitHttp
) -> None:
    git(project, "remote", "add", "origin", server.url("widget.git"))
    env = _env(sandbox)

    _, line = _asked(sandbox, "git push origin main", env)
    done = _run(sandbox, line, env)

    assert "--profile workspace-write --host 127.0.0.1 --cwd " in line
    assert (done.returncode, pushed(sandbox.root / "srv" / "widget.git")) == (0, "one\n"), done.stderr


def test_an_approved_push_whose_remote_moved_to_another_host_reaches_nothing(
    sandbox: Sandbox, project: Path, server: GitHttp
) -> None:
    other = start_git_http(sandbox.root / "other", host="127.0.0.2")
    bare_repo(sandbox.root / "other" / "widget.git")
    git(project, "remote", "add", "origin", server.url("widget.git"))
    env = _env(sandbox)
    try:
        _, line = _asked(sandbox, "git push origin main", env)
        # After the approval, the remote is pointed elsewhere (by a hook, a script, a race):
        # [network] would allow 127.0.0.2, the approved profile does not.
        git(project, "remote", "set-url", "origin", other.url("widget.git"))
        done = _run(sandbox, line, env)
    finally:
        other.close()

    assert done.returncode != 0
    assert "this run may reach only the hosts its decision saw (127.0.0.1), not 127.0.0.2" in done.stderr
    assert (other.seen, server.seen, pushed(sandbox.root / "other" / "widget.git")) == ([], [], "")


@pytest.fixture
def sshd(sandbox: Sandbox) -> Iterator[tuple[Sshd, str]]:
    agent, public = start_agent(sandbox.root / "agent")
    server = start_sshd(sandbox.root / "sshd", public)
    (sandbox.home / ".ssh" / "known_hosts").write_text(server.host_key_line)
    bare_repo(sandbox.root / "srv" / "widget.git")
    yield server, agent.socket
    server.close()
    agent.close()


def test_an_approved_push_over_ssh_signs_with_the_agent_and_never_sees_a_key(
    sandbox: Sandbox, project: Path, sshd: tuple[Sshd, str]
) -> None:
    server, agent = sshd
    remote = f"ssh://root@127.0.0.1:{server.port}{sandbox.root}/srv/widget.git"
    git(project, "remote", "add", "origin", remote)
    env = _env(sandbox, SSH_AUTH_SOCK=agent)

    _, line = _asked(sandbox, "git push origin main", env)
    done = _run(sandbox, line, env)
    # The same profile, looking for the key the push signed with.
    profile = line.split(" -- ", 1)[0]
    snoop = _run(sandbox, f"{profile} -- bash -c 'cat ~/.ssh/id_rsa; ls -A ~/.ssh /run/bastion-ssh'", env)

    assert f"--host 127.0.0.1:{server.port} --cwd " in line
    assert (done.returncode, pushed(sandbox.root / "srv" / "widget.git")) == (0, "one\n"), done.stderr
    assert "PRIVATE KEY" not in snoop.stdout + snoop.stderr
    assert snoop.stdout == "/run/bastion-ssh:\nagent.sock\n"
    assert "No such file or directory" in snoop.stderr  # ~/.ssh is not there at all


@pytest.mark.parametrize("agent", ["", "~/.ssh/id_rsa"])
def test_an_approved_ssh_push_without_an_agent_fails_saying_so_and_binds_no_key(
    sandbox: Sandbox, project: Path, sshd: tuple[Sshd, str], agent: str
) -> None:
    server, _ = sshd
    git(
        project, "remote", "add", "origin", f"ssh://root@127.0.0.1:{server.port}{sandbox.root}/srv/widget.git"
    )
    env = _env(sandbox, SSH_AUTH_SOCK=agent.replace("~", str(sandbox.home)))

    _, line = _asked(sandbox, "git push origin main", env)
    done = _run(sandbox, line, env)

    assert done.returncode != 0
    assert "has no ssh agent to sign with" in done.stderr
    assert pushed(sandbox.root / "srv" / "widget.git") == ""


def test_an_approved_ssh_push_whose_remote_moved_reaches_nothing_and_says_why(
    sandbox: Sandbox, project: Path, sshd: tuple[Sshd, str]
) -> None:
    server, agent = sshd
    git(
        project, "remote", "add", "origin", f"ssh://root@127.0.0.1:{server.port}{sandbox.root}/srv/widget.git"
    )
    env = _env(sandbox, SSH_AUTH_SOCK=agent)

    _, line = _asked(sandbox, "git push origin main", env)
    git(
        project,
        "remote",
        "set-url",
        "origin",
        f"ssh://root@127.0.0.2:{server.port}{sandbox.root}/srv/widget.git",
    )
    done = _run(sandbox, line, env)

    assert done.returncode != 0
    assert (
        f"this run may reach only the hosts its decision saw (127.0.0.1:{server.port}), "
        f"not 127.0.0.2:{server.port}"
    ) in done.stderr
    assert pushed(sandbox.root / "srv" / "widget.git") == ""


# -- asked in Bastion's queue: the approval carries the run's hosts (#30 item 2) -------------

#: No ``allow_hosts``: the remote's host asks (loopback needs ``allow_private`` here only).
ASKS_IN_BASTION = 'ask_via = "bastion"\n[network]\nallow_private = true\n'
APPROVED = "--profile workspace-write --host 127.0.0.1 --cwd "


@pytest.fixture
def asks_in_bastion(sandbox: Sandbox, project: Path, server: GitHttp) -> dict[str, str]:
    (sandbox.root / "policy.toml").write_text(ASKS_IN_BASTION)
    git(project, "remote", "add", "origin", server.url("widget.git"))
    return _env(sandbox, BASTION_HOOK_INTERACTIVE="1")


def _bastion(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([bastion_exe(), *args], env=env, capture_output=True, text=True, timeout=60)


def _pending(env: dict[str, str]) -> list[dict[str, Any]]:
    listed = _bastion({**env, "COLUMNS": "200"}, "approvals", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    found: list[dict[str, Any]] = json.loads(listed.stdout or "[]")
    return found


def _answer_first(env: dict[str, str], key: str, verb: str, answered: list[dict[str, Any]]) -> None:
    """Wait for a pending request, then ``bastion approvals VERB`` it (once)."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        pending = _pending(env)
        if pending:
            done = _bastion(env, "approvals", verb, "--key", key, pending[0]["id"])
            answered.append({**pending[0], "exit": done.returncode, "stderr": done.stderr})
            return
        time.sleep(0.3)


def _answering(env: dict[str, str], verb: str) -> tuple[threading.Thread, list[dict[str, Any]]]:
    made = _bastion(env, "keys", "create", "--role", "approver")
    assert made.returncode == 0, made.stderr
    answered: list[dict[str, Any]] = []
    thread = threading.Thread(target=_answer_first, args=(env, made.stdout.strip(), verb, answered))
    thread.start()
    return thread, answered


def _approved_in_bastion(sandbox: Sandbox, command: str, env: dict[str, str]) -> tuple[str, str]:
    """The request id a person approved in Bastion's queue, and the line Claude then runs."""
    thread, answered = _answering(env, "approve")
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    hook = run_hook("claude", json.dumps(payload), env, "--timeout", "90", timeout=120)
    thread.join()
    out = hook.json["hookSpecificOutput"]
    assert (out["permissionDecision"], [a["exit"] for a in answered]) == ("allow", [0]), hook
    return answered[0]["id"], out["updatedInput"]["command"]


def _connections(env: dict[str, str], request: str) -> set[tuple[str, str, bool, tuple[str, ...]]]:
    """The proxy's connections in the ledger: kind, decision, whether the record names the
    approval (``a person approved request ID`` in its message) and its first two reasons' rules."""
    shown = _bastion(env, "logs", "--json", "--limit", "100")
    assert shown.returncode == 0, shown.stderr
    return {
        (row["kind"], row["decision"], f"a person approved request {request}," in row["message"],
         tuple(r["rule"] for r in row["reasons"][:2]))
        for row in json.loads(shown.stdout)
        if row["tool"] == "fetch"
    }  # fmt: skip


def test_an_approved_push_with_no_allowed_hosts_lands_without_a_second_question(
    sandbox: Sandbox, project: Path, server: GitHttp, asks_in_bastion: dict[str, str]
) -> None:
    env = asks_in_bastion

    request, line = _approved_in_bastion(sandbox, "git push origin main", env)
    done = _run(sandbox, line, env)

    assert APPROVED in line and f" --approval {request} -- bash -c " in line
    assert (done.returncode, pushed(sandbox.root / "srv" / "widget.git")) == (0, "one\n"), done.stderr
    assert (_pending(env), _connections(env, request)) == (
        [],
        {
            ("decided", "allow", True, ("exec.approved-host", "network.unlisted")),
            ("executed", "allow", True, ("egress.connection", "exec.approved-host")),
        },
    )


def _asked_again(sandbox: Sandbox, line: str, env: dict[str, str]) -> tuple[str, list[str]]:
    """Run ``line`` while a person denies whatever parks: its stderr, and the tools asked about."""
    thread, answered = _answering(env, "deny")
    done = _run(sandbox, line, env)
    thread.join()
    assert done.returncode != 0
    return done.stderr, [a["tool"] for a in answered]


@pytest.mark.parametrize(
    ("change", "told"),
    [
        ("reused", "was used by an earlier run"),
        ("forged", "no request AAAAAAAAAAAAAAAAAAAAAA"),
        ("another command", "approved another command"),
    ],
)
def test_a_reused_or_forged_approval_or_another_command_asks_about_the_host_again(
    sandbox: Sandbox, project: Path, server: GitHttp, asks_in_bastion: dict[str, str], change: str, told: str
) -> None:
    env = asks_in_bastion
    request, line = _approved_in_bastion(sandbox, "git push origin main", env)
    if change == "reused":
        assert _run(sandbox, line, env).returncode == 0
    git(project, "commit", "-q", "--allow-empty", "-m", "two")
    if change == "forged":
        line = line.replace(request, "A" * 22)
    if change == "another command":
        line = line.replace("'git push origin main'", "'git push origin main:other'")

    stderr, asked = _asked_again(sandbox, line, env)

    assert "no approval to run on: " in stderr and told in stderr, stderr
    assert asked == ["fetch"]  # the connection to 127.0.0.1 parked, and was denied
    assert pushed(sandbox.root / "srv" / "widget.git") == ("one\n" if change == "reused" else "")


def test_an_approved_push_whose_remote_moved_reaches_nothing_whatever_its_approval(
    sandbox: Sandbox, project: Path, server: GitHttp, asks_in_bastion: dict[str, str]
) -> None:
    other = start_git_http(sandbox.root / "other", host="127.0.0.2")
    bare_repo(sandbox.root / "other" / "widget.git")
    env = asks_in_bastion
    try:
        request, line = _approved_in_bastion(sandbox, "git push origin main", env)
        git(project, "remote", "set-url", "origin", other.url("widget.git"))
        done = _run(sandbox, line, env)
    finally:
        other.close()

    assert f" --approval {request} " in line and done.returncode != 0
    assert "this run may reach only the hosts its decision saw (127.0.0.1), not 127.0.0.2" in done.stderr
    assert (_pending(env), other.seen, pushed(sandbox.root / "other" / "widget.git")) == ([], [], "")


# -- asked in Claude's own prompt (the default ask_via): the line's running is the approval ---

#: No ``allow_hosts`` and the default ``ask_via = "agent"``: Claude's prompt asks about the push.
ASKS_IN_CLAUDE = "[network]\nallow_private = true\n"
HAND_OFF = re.compile(r" --hand-off ([A-Za-z0-9_-]{22}) -- bash -c ")


@pytest.fixture
def asks_in_claude(sandbox: Sandbox, project: Path, server: GitHttp) -> dict[str, str]:
    (sandbox.root / "policy.toml").write_text(ASKS_IN_CLAUDE)
    git(project, "remote", "add", "origin", server.url("widget.git"))
    return _env(sandbox, BASTION_HOOK_INTERACTIVE="1")


def _handed_to_claude(sandbox: Sandbox, command: str, env: dict[str, str]) -> tuple[str, str]:
    """The hand-off's decision id and the line Claude runs once the person says yes."""
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_1"}  # fmt: skip
    out = run_hook("claude", json.dumps(payload), env).json["hookSpecificOutput"]
    assert out["permissionDecision"] == "ask", out
    line = out["updatedInput"]["command"]
    found = HAND_OFF.search(line)
    assert found is not None and APPROVED in line, line
    return found.group(1), line


def test_a_push_approved_in_claudes_prompt_lands_without_a_second_question(
    sandbox: Sandbox, project: Path, server: GitHttp, asks_in_claude: dict[str, str]
) -> None:
    env = asks_in_claude

    hand_off, line = _handed_to_claude(sandbox, "git push origin main", env)
    done = _run(sandbox, line, env)

    assert (done.returncode, pushed(sandbox.root / "srv" / "widget.git")) == (0, "one\n"), done.stderr
    assert (_pending(env), _connections(env, hand_off)) == (
        [],
        {
            ("decided", "allow", True, ("exec.approved-host", "network.unlisted")),
            ("executed", "allow", True, ("egress.connection", "exec.approved-host")),
        },
    )


@pytest.mark.parametrize(
    ("change", "told"),
    [
        ("reused", "the hand-off {id} was used by an earlier run"),
        ("no such id", "no hand-off AAAAAAAAAAAAAAAAAAAAAA within the approval ttl"),
        ("another command", "hand-off {id} asked about another command"),
        ("resolved deny", "hand-off {id} was resolved deny already"),
    ],
)
def test_a_reused_unknown_or_denied_hand_off_or_another_command_asks_about_the_host_again(
    sandbox: Sandbox, project: Path, server: GitHttp, asks_in_claude: dict[str, str], change: str, told: str
) -> None:
    env = asks_in_claude
    hand_off, line = _handed_to_claude(sandbox, "git push origin main", env)
    if change == "reused":
        assert _run(sandbox, line, env).returncode == 0
    git(project, "commit", "-q", "--allow-empty", "-m", "two")
    if change == "no such id":
        line = line.replace(hand_off, "A" * 22)
    if change == "another command":
        line = line.replace("'git push origin main'", "'git push origin main:other'")
    if change == "resolved deny":  # the turn ended without running it: the person said no
        stop = {"hook_event_name": "Stop", "cwd": str(sandbox.project), "session_id": "s"}
        run_hook("claude", json.dumps(stop), env)

    stderr, asked = _asked_again(sandbox, line, env)

    assert "no approval to run on: " in stderr and told.format(id=hand_off) in stderr, stderr
    assert asked == ["fetch"]  # the connection to 127.0.0.1 parked in Bastion's queue, and was denied
    assert pushed(sandbox.root / "srv" / "widget.git") == ("one\n" if change == "reused" else "")


def test_a_hand_off_line_the_agent_writes_itself_is_decided_by_what_it_runs_under_a_new_hand_off(
    sandbox: Sandbox, project: Path, server: GitHttp, asks_in_claude: dict[str, str]
) -> None:
    env = asks_in_claude
    copied, line = _handed_to_claude(sandbox, "git push origin main", env)
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": line}, "tool_use_id": "toolu_2"}  # fmt: skip

    out = run_hook("claude", json.dumps(payload), env).json["hookSpecificOutput"]

    found = HAND_OFF.search(out["updatedInput"]["command"])
    outer, inner = out["updatedInput"]["command"].split(" -- bash -c ", 1)
    exe = line.split(" sandbox run ", 1)[0]

    # The agent's own line is decided as the push it runs (suite G: a sandbox line must not
    # hide `rm -rf ~`): the person is asked again, and only that new hand-off, never the id
    # the agent copied, lets the outer run reach the host.
    assert found is not None and found.group(1) != copied, out
    assert (out["permissionDecision"], outer, shlex.split(inner)) == (
        "ask",
        f"{exe} sandbox run --profile workspace-write --host 127.0.0.1 --cwd {sandbox.project} --timeout 120"
        f" --hand-off {found.group(1)}",
        [line],
    )
