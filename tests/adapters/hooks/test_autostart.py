"""An installed hook (``--autostart``) starts its own daemon on first use, and the daemon goes
away by itself; none of it can turn a call into an allow."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.adapters.hooks import fastpath
from bastion.adapters.hooks.autostart import LOCK_NAME
from bastion.adapters.hooks.client import SOCKET_ENV
from bastion.adapters.hooks.targets import hook_command, hook_launcher


@pytest.fixture
def hook_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BASTION_")}
    env = {**env, "HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state"), "BASTION_HOOK_IDLE": "30"}
    yield env
    for pid in _daemons(env["BASTION_STATE_DIR"]):  # never leave a daemon behind
        _kill(pid)


def _daemons(state_dir: str) -> list[int]:
    """Autostarted daemons serving ``state_dir`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:
            continue
        if b"bastion.adapters.hooks.autostart" in cmdline and (
            f"BASTION_STATE_DIR={state_dir}".encode() in environ.split(b"\0")
        ):
            found.append(int(entry))
    return found


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 9)


def _hook(
    env: dict[str, str], command: str, *extra: str, session: str = "s1"
) -> subprocess.CompletedProcess[str]:
    cwd = os.path.join(env["HOME"], "proj")
    payload = {"session_id": session, "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default",
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
               "tool_use_id": "toolu_1"}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bastion.adapters.cli.main", "hook", "claude", *extra],
        input=json.dumps(payload), capture_output=True, text=True, env=env, cwd=cwd, timeout=60,
    )  # fmt: skip


def _wait(predicate: object, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def _decision(done: subprocess.CompletedProcess[str]) -> tuple[int, str]:
    return done.returncode, json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"]


def test_the_installed_hook_command_asks_for_autostart() -> None:
    assert hook_command("claude", "/x/bastion", timeout=60) == (
        "sh -c '/x/bastion hook claude --timeout 60 --autostart || exit 2'"
    )


def test_the_installed_hook_runs_this_interpreter_without_site_on_the_launcher() -> None:
    launcher = hook_launcher()
    assert launcher == (sys.executable, "-S", fastpath.__file__)
    assert os.path.isfile(os.path.join(fastpath.package_root(), "bastion", "__init__.py"))
    command = hook_command("claude", ("/v/bin/python", "-S", "/v/my lib/fastpath.py"), timeout=60)
    assert shlex.split(command) == [
        "sh",
        "-c",
        "/v/bin/python -S '/v/my lib/fastpath.py' hook claude --timeout 60 --autostart || exit 2",
    ]


def _installed(env: dict[str, str], command: str, *, session: str = "s1") -> subprocess.CompletedProcess[str]:
    """The hook as an agent runs it: the command line ``bastion install`` writes, via sh."""
    cwd = os.path.join(env["HOME"], "proj")
    payload = {"session_id": session, "transcript_path": "/dev/null", "cwd": cwd,
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
               "tool_use_id": "toolu_1"}  # fmt: skip
    installed = hook_command("claude", hook_launcher(), timeout=60)
    return subprocess.run(
        ["sh", "-c", installed], input=json.dumps(payload), capture_output=True, text=True, env=env, cwd=cwd,
        timeout=60,
    )  # fmt: skip


def test_the_installed_launcher_decides_in_process_then_through_the_daemon_without_loading_site(
    hook_env: dict[str, str],
) -> None:
    sock = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")
    first = _installed(hook_env, "git status")  # no daemon yet: site-packages added, decided here
    assert (_decision(first), first.stderr) == ((0, "allow"), "")
    assert _wait(lambda: os.path.exists(sock)), "no daemon socket appeared"
    traced = {**hook_env, "PYTHONPROFILEIMPORTTIME": "1"}  # every import, on stderr
    allowed = _installed(traced, "git status", session="s2")
    denied = _installed(traced, "rm -rf /", session="s2")
    imported = {line.rsplit("|", 1)[-1].strip() for line in allowed.stderr.splitlines() if "|" in line}
    assert (_decision(allowed), _decision(denied)) == ((0, "allow"), (2, "deny"))
    assert "bastion.adapters.hooks.client" in imported
    assert not imported & {"site", "os", "bastion.adapters.hooks.entry", "pydantic", "typing"}


def test_the_first_call_is_decided_in_process_and_starts_a_daemon_that_answers_the_next(
    hook_env: dict[str, str],
) -> None:
    sock = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")
    first = _hook(hook_env, "git status", "--autostart")
    assert _decision(first) == (0, "allow")
    assert _wait(lambda: os.path.exists(sock)), "no daemon socket appeared"
    [pid] = _daemons(hook_env["BASTION_STATE_DIR"])
    assert os.stat(sock).st_mode & 0o777 == 0o600
    # The next calls go through the daemon: with a daemon that stops answering, they are denied.
    os.kill(pid, 19)  # SIGSTOP: the socket still accepts, nobody answers
    try:
        stuck = _hook({**hook_env}, "git status", "--autostart", "--deadline", "2")
    finally:
        os.kill(pid, 18)  # SIGCONT
    assert stuck.returncode == 2
    assert _decision(_hook(hook_env, "rm -rf /", "--autostart", session="s2")) == (2, "deny")


def test_without_the_flag_or_with_autostart_off_no_daemon_is_started(hook_env: dict[str, str]) -> None:
    assert _decision(_hook(hook_env, "git status")) == (0, "allow")
    off = {**hook_env, "BASTION_HOOK_AUTOSTART": "0"}
    assert _decision(_hook(off, "git status", "--autostart", session="s2")) == (0, "allow")
    # posix_spawn returns once the child has exec'd, before the hook answers: a wrongly
    # spawned daemon would already be in /proc (and would stay there for its 30 s idle).
    assert _daemons(hook_env["BASTION_STATE_DIR"]) == []


def test_two_hooks_starting_at_once_leave_one_daemon(hook_env: dict[str, str]) -> None:
    cwd = os.path.join(hook_env["HOME"], "proj")
    payload = json.dumps({"session_id": "s", "transcript_path": "/dev/null", "cwd": cwd,
                          "hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "ls"}, "tool_use_id": "t"})  # fmt: skip
    argv = [sys.executable, "-m", "bastion.adapters.cli.main", "hook", "claude", "--autostart"]
    procs = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=hook_env, cwd=cwd)
             for _ in range(4)]  # fmt: skip
    for proc in procs:
        proc.communicate(payload.encode(), timeout=60)
    sock = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")
    assert _wait(lambda: os.path.exists(sock))
    # Every spawn happened before its hook returned; late starters find the lock taken or
    # the socket answering and leave, while the one serving stays (idle limit 30 s).
    assert _wait(lambda: len(_daemons(hook_env["BASTION_STATE_DIR"])) == 1, seconds=60)
    with (
        open(os.path.join(hook_env["BASTION_STATE_DIR"], LOCK_NAME), "rb") as lock,
        pytest.raises(BlockingIOError),
    ):
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_the_daemon_ends_when_idle_and_removes_its_socket(hook_env: dict[str, str]) -> None:
    """The daemon the hook would spawn, started here so the test holds its process: it binds
    the socket, and once idle for BASTION_HOOK_IDLE seconds exits 0 and removes it. (The
    idle time is long enough that a loaded machine still sees the socket before it goes.)"""
    sock = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")
    env = {**hook_env, "BASTION_HOOK_IDLE": "5", SOCKET_ENV: sock}
    daemon = subprocess.Popen(
        [sys.executable, "-m", "bastion.adapters.hooks.autostart"], env=env, stdin=subprocess.DEVNULL
    )
    try:
        seen = _wait(lambda: os.path.exists(sock) or daemon.poll() is not None, seconds=60)
        bound = os.path.exists(sock)
        code = daemon.wait(timeout=60)
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
    assert (seen, bound, code, os.path.exists(sock)) == (True, True, 0, False)


def test_the_daemon_ends_when_its_socket_is_taken_over(hook_env: dict[str, str]) -> None:
    sock = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")
    _hook(hook_env, "ls", "--autostart")
    assert _wait(lambda: os.path.exists(sock))
    os.unlink(sock)  # what `bastion serve` does before binding its own
    assert _wait(lambda: not _daemons(hook_env["BASTION_STATE_DIR"]))


def test_modules_planted_in_the_workspace_are_not_imported_by_the_daemon_it_starts(
    hook_env: dict[str, str],
) -> None:
    """The hook runs with the workspace as its cwd; the daemon it starts must not take the
    workspace's ``json.py`` or ``socket.py`` for the standard library's (blind suite C)."""
    proj = Path(hook_env["HOME"]) / "proj"
    marker = Path(hook_env["HOME"]) / "ran"
    for name in ("json", "socket", "inspect", "shlex", "typing", "enum", "signal"):
        (proj / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write('{name}\\n')\nraise ImportError\n"
        )
    sock = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")

    first = _installed(hook_env, "git status")

    assert _wait(lambda: os.path.exists(sock)), "no daemon socket appeared"
    assert (_decision(first), _decision(_installed(hook_env, "git status", session="s2"))) == (
        (0, "allow"),
    ) * 2
    assert not marker.exists(), marker.read_text()
