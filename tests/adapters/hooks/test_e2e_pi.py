"""End to end with the real pi (``@mariozechner/pi-coding-agent``), offline: the test serves
the Anthropic Messages API on loopback (a ``fake`` provider in pi's ``models.json``), installs
Bastion's extension with ``bastion install pi`` into a throwaway HOME/project, lets the fake
model ask for one tool call and asserts what the real CLI did. pi runs in print mode (``-p``,
no dialog: ``ctx.hasUI`` is false) with every built-in tool enabled and no gate of its own, so
Bastion alone stops a call. Each run has a hard deadline that kills its process group.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from bastion.adapters.hooks import own_file
from bastion.adapters.hooks.client import SOCKET_NAME
from bastion.adapters.hooks.install import install, probe
from bastion.adapters.hooks.targets import Launcher, hook_launcher
from tests.adapters.hooks.conftest import Sandbox, agent_cli, bastion_exe
from tests.adapters.hooks.fake_models import FakeModelServer, Script
from tests.exec.sandbox_helpers import require_bwrap

#: One print-mode turn takes 2-4 s here; a run still going after this has hung.
PI_DEADLINE = 90
TOOLS = "read,bash,edit,write,grep,find,ls"


def _quiet(*_: Any) -> None:
    return None


def _python_path() -> dict[str, str]:
    """The hook pi spawns imports the Bastion under test (a worktree), not another one."""
    found = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": found} if found else {}


def install_pi(sandbox: Sandbox, executable: Launcher | None = None, *, timeout: int = 60) -> Path:
    written = install(
        "pi",
        scope="project",
        cwd=str(sandbox.project),
        env=sandbox.env(),
        executable=executable or hook_launcher(),
        timeout=timeout,
        out=_quiet,
    )
    assert isinstance(written, own_file.OwnFile)
    return Path(written.path)


def user_policy(sandbox: Sandbox, text: str) -> None:
    folder = sandbox.home / ".config" / "bastion"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.toml").write_text(text)


def run_pi(sandbox: Sandbox, tool: str, arguments: dict[str, Any], **env: str) -> Script:
    """One print-mode pi run whose model asks for ``tool(arguments)``."""
    pi = agent_cli("pi")
    script = Script(tool, arguments)
    with FakeModelServer(script) as server:
        _write_models(sandbox, server.url)
        child = subprocess.Popen(
            [pi, "-p", "do the task", "--model", "fake/claude-test", "--tools", TOOLS, "--no-session"],
            cwd=sandbox.project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env=sandbox.env(PI_OFFLINE="1", **{"BASTION_HOOK_AUTOSTART": "0", **_python_path(), **env}),
        )
        try:
            stdout, stderr = child.communicate(timeout=PI_DEADLINE)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            stdout, stderr = child.communicate()
            pytest.fail(f"pi still running after {PI_DEADLINE} s (hung); stderr: {stderr[-2000:]}")
    assert (child.returncode, stdout.strip()) == (0, "done"), stderr[-2000:]
    assert len(script.results) == 1, script.requests
    return script


def test_pi_reads_a_workspace_file_bastion_allows(sandbox: Sandbox) -> None:
    install_pi(sandbox)
    (sandbox.project / "README.md").write_text("hello from the workspace\n")

    script = run_pi(sandbox, "read", {"path": "README.md"})

    assert script.results == [{"content": "hello from the workspace\n", "is_error": False}]


@pytest.mark.parametrize("path", ["~/.ssh/id_rsa", "@~/.ssh/id_rsa", "{home}/.ssh/id_rsa"])
def test_pi_reads_no_credential_bastion_denies(sandbox: Sandbox, path: str) -> None:
    install_pi(sandbox)

    script = run_pi(sandbox, "read", {"path": path.format(home=sandbox.home)})

    key = sandbox.home / ".ssh" / "id_rsa"
    assert script.results == [
        {
            "content": f"Bastion: [policy-denied] {key} is a credential location: never read by an agent; "
            f"{key} is in deny_read. This cannot be allowed: the hardline check hardline.credentials "
            "refuses it whatever a policy, a grant or a person says.",
            "is_error": True,
        }
    ]


def test_pi_headless_is_denied_an_ask_nobody_can_answer(sandbox: Sandbox) -> None:
    install_pi(sandbox)
    target = sandbox.victim / "new.txt"

    script = run_pi(sandbox, "write", {"path": str(target), "content": "x\n"})

    assert not target.exists()
    assert script.results[0]["is_error"] is True
    assert script.results[0]["content"].startswith("Bastion: ")
    assert "nobody can be asked" in script.results[0]["content"]


def _write_models(sandbox: Sandbox, url: str) -> None:
    models = {
        "providers": {
            "fake": {
                "baseUrl": url,
                "api": "anthropic-messages",
                "apiKey": "sk-ant-dummy",
                "models": [{"id": "claude-test", "reasoning": False}],
            }
        }
    }
    agent_dir = sandbox.home / ".pi" / "agent"
    agent_dir.mkdir(parents=True, exist_ok=True)
    (agent_dir / "models.json").write_text(json.dumps(models))


def run_pi_with_dialog(
    sandbox: Sandbox, tool: str, arguments: dict[str, Any], *, confirm: bool
) -> tuple[Script, list[dict[str, Any]]]:
    """One pi run in RPC mode, where pi has a dialog (``ctx.hasUI``): the test is the person,
    answering every ``confirm`` with ``confirm``. Returns the script and the dialogs shown."""
    pi = agent_cli("pi")
    script = Script(tool, arguments)
    dialogs: list[dict[str, Any]] = []
    with FakeModelServer(script) as server:
        _write_models(sandbox, server.url)
        stderr = sandbox.root / "pi-stderr.txt"
        with (
            stderr.open("w") as errors,
            subprocess.Popen(
                [pi, "--mode", "rpc", "--model", "fake/claude-test", "--tools", TOOLS, "--no-session"],
                cwd=sandbox.project,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
                start_new_session=True,
                env=sandbox.env(PI_OFFLINE="1", BASTION_HOOK_AUTOSTART="0", **_python_path()),
            ) as child,
        ):
            assert child.stdin is not None and child.stdout is not None
            timer = threading.Timer(PI_DEADLINE, os.killpg, (child.pid, signal.SIGKILL))
            timer.start()
            try:
                _converse(child.stdin, child.stdout, dialogs, confirm)
                child.stdin.close()  # pi's RPC mode ends with its input
                child.wait(timeout=PI_DEADLINE)
            finally:
                timer.cancel()
    assert len(script.results) == 1, (script.requests, stderr.read_text()[-2000:])
    return script, dialogs


def _converse(stdin: IO[str], stdout: IO[str], dialogs: list[dict[str, Any]], confirm: bool) -> None:
    """Send the prompt, answer every confirmation, and stop at the end of the agent's run."""
    stdin.write(json.dumps({"id": "p1", "type": "prompt", "message": "do the task"}) + "\n")
    stdin.flush()
    for line in stdout:
        event = json.loads(line)
        if event.get("type") == "extension_ui_request" and event.get("method") == "confirm":
            dialogs.append(event)
            stdin.write(
                json.dumps({"type": "extension_ui_response", "id": event["id"], "confirmed": confirm}) + "\n"
            )
            stdin.flush()
        if event.get("type") == "agent_end":
            return


@pytest.mark.parametrize("confirm", [True, False])
def test_pi_asks_in_its_own_dialog_where_it_has_one(sandbox: Sandbox, confirm: bool) -> None:
    install_pi(sandbox)
    target = sandbox.victim / "new.txt"

    script, dialogs = run_pi_with_dialog(
        sandbox, "write", {"path": str(target), "content": "yes\n"}, confirm=confirm
    )

    assert [d["title"] for d in dialogs] == ["Bastion: allow write?"]
    assert f"{target} is outside every writable root" in dialogs[0]["message"]
    assert target.exists() is confirm
    assert script.results[0]["is_error"] is not confirm
    if not confirm:
        assert script.results[0]["content"].endswith("(not confirmed)")


def test_pi_shows_and_runs_the_contained_command_a_person_confirms(sandbox: Sandbox) -> None:
    require_bwrap()
    install_pi(sandbox)
    command = f"touch {sandbox.victim}/escaped; echo inside > out.txt"

    script, dialogs = run_pi_with_dialog(sandbox, "bash", {"command": command}, confirm=True)

    assert len(dialogs) == 1 and " sandbox run --profile " in dialogs[0]["message"]
    assert not (sandbox.victim / "escaped").exists()
    assert (sandbox.project / "out.txt").read_text() == "inside\n"
    assert script.results[0]["is_error"] is False


def _approver_key(sandbox: Sandbox) -> str:
    done = subprocess.run(
        [bastion_exe(), "keys", "create", "--role", "approver"],
        capture_output=True,
        text=True,
        env=sandbox.env(),
        timeout=60,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def _answer_first_request(sandbox: Sandbox, key: str, verb: str, answered: list[dict[str, Any]]) -> None:
    """Wait for one pending request, then answer it with ``bastion approvals VERB``."""
    env = sandbox.env()
    deadline = time.monotonic() + PI_DEADLINE
    while time.monotonic() < deadline:
        listed = subprocess.run(
            [bastion_exe(), "approvals", "list", "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        pending = json.loads(listed.stdout or "[]")
        if pending:
            answered.append(pending[0])
            subprocess.run(
                [bastion_exe(), "approvals", verb, str(pending[0]["id"]), "--key", key],
                capture_output=True,
                text=True,
                env=env,
                timeout=60,
                check=True,
            )
            return
        time.sleep(0.2)


@pytest.mark.parametrize(("verb", "lands"), [("approve", True), ("deny", False)])
def test_pi_waits_for_an_asked_write_answered_in_bastions_queue(
    sandbox: Sandbox, verb: str, lands: bool
) -> None:
    user_policy(sandbox, 'ask_via = "bastion"\n')
    install_pi(sandbox)
    key = _approver_key(sandbox)
    target = sandbox.victim / "new.txt"
    answered: list[dict[str, Any]] = []
    person = threading.Thread(target=_answer_first_request, args=(sandbox, key, verb, answered))
    person.start()
    try:
        script = run_pi(
            sandbox, "write", {"path": str(target), "content": "approved\n"}, BASTION_HOOK_INTERACTIVE="1"
        )
    finally:
        person.join(timeout=PI_DEADLINE)

    assert len(answered) == 1 and answered[0]["tool"] == "write"
    assert target.exists() is lands
    assert script.results[0]["is_error"] is not lands
    if lands:
        assert target.read_text() == "approved\n"


def test_pi_runs_nothing_when_the_project_policy_is_broken(sandbox: Sandbox) -> None:
    install_pi(sandbox)
    (sandbox.project / ".bastion").mkdir()
    (sandbox.project / ".bastion" / "policy.toml").write_text("mode = [broken\n")
    (sandbox.project / "README.md").write_text("hello\n")

    script = run_pi(sandbox, "read", {"path": "README.md"})

    assert script.results[0]["is_error"] is True
    assert str(Path(".bastion") / "policy.toml") in script.results[0]["content"]
    assert "hello" not in script.results[0]["content"]


def test_pi_without_a_daemon_still_decides_in_the_hook(sandbox: Sandbox) -> None:
    install_pi(sandbox)
    (sandbox.project / "README.md").write_text("hello\n")

    allowed = run_pi(sandbox, "read", {"path": "README.md"})
    denied = run_pi(sandbox, "read", {"path": "~/.ssh/id_rsa"})

    assert not (sandbox.state / SOCKET_NAME).exists()
    assert allowed.results == [{"content": "hello\n", "is_error": False}]
    assert denied.results[0]["is_error"] is True and "[policy-denied]" in denied.results[0]["content"]


def test_pi_through_the_autostarted_daemon_decides_the_same(sandbox: Sandbox) -> None:
    install_pi(sandbox)
    (sandbox.project / "README.md").write_text("hello\n")
    sock = sandbox.state / SOCKET_NAME
    try:
        first = run_pi(sandbox, "read", {"path": "README.md"}, BASTION_HOOK_AUTOSTART="1")
        for _ in range(100):  # the first call started the daemon, detached
            if sock.exists():
                break
            time.sleep(0.1)
        assert sock.exists()
        allowed = run_pi(sandbox, "read", {"path": "README.md"}, BASTION_HOOK_AUTOSTART="1")
        denied = run_pi(sandbox, "read", {"path": "~/.ssh/id_rsa"}, BASTION_HOOK_AUTOSTART="1")
    finally:
        sock.unlink(missing_ok=True)  # the daemon ends when its socket goes

    assert first.results == allowed.results == [{"content": "hello\n", "is_error": False}]
    assert denied.results[0]["is_error"] is True and "[policy-denied]" in denied.results[0]["content"]


@pytest.fixture
def mute_daemon(sandbox: Sandbox) -> Iterator[None]:
    """Something on the hook socket that accepts every call and answers nothing."""
    sandbox.state.mkdir(parents=True, exist_ok=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sandbox.state / SOCKET_NAME))
    server.listen()
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield
    stop.set()
    server.close()
    thread.join(timeout=5)


def test_pi_runs_nothing_when_the_daemon_fails_to_answer(sandbox: Sandbox, mute_daemon: None) -> None:
    install_pi(sandbox)
    (sandbox.project / "README.md").write_text("hello\n")

    script = run_pi(sandbox, "read", {"path": "README.md"})

    assert script.results[0]["is_error"] is True
    assert "the Bastion daemon failed to answer" in script.results[0]["content"]


#: A hook that reads its input, then answers this (stdout, exit status) or does this.
BAD_HOOKS = {
    "empty-allow-exit": ("", "exit 0"),
    "allow-without-reason": ('{"decision":"allow"}', "exit 0"),
    "allow-with-deny-exit": ('{"decision":"allow","reason":"r"}', "exit 2"),
    "ask-with-allow-exit": ('{"decision":"ask","reason":"r"}', "exit 0"),
    "allow-with-ask-exit": ('{"decision":"allow","reason":"r"}', "exit 3"),
    "not-json": ("allow", "exit 0"),
    "json-list": ('["allow"]', "exit 0"),
    "rewrite-not-a-string": ('{"decision":"allow","reason":"r","input":{"command":1}}', "exit 0"),
    "unknown-decision": ('{"decision":"yes","reason":"r"}', "exit 0"),
    "killed": ('{"decision":"allow","reason":"r"}', "kill -9 $$"),
    "hangs": ("", "exec sleep 30"),
}


@pytest.mark.parametrize("name", list(BAD_HOOKS))
def test_pi_runs_nothing_on_an_answer_outside_the_protocol(sandbox: Sandbox, name: str) -> None:
    stdout, then = BAD_HOOKS[name]
    hook = sandbox.root / "bad-bastion"
    hook.write_text(f"#!/bin/sh\ncat >/dev/null\nprintf '%s' '{stdout}'\n{then}\n")
    hook.chmod(0o755)
    install_pi(sandbox, str(hook), timeout=3)
    marker = sandbox.project / "marker"

    script = run_pi(sandbox, "bash", {"command": f"echo ran > {marker}"})

    assert not marker.exists()
    assert script.results[0]["is_error"] is True
    assert script.results[0]["content"].startswith("Bastion: could not decide, so the call is blocked")


def test_pi_runs_nothing_when_the_hook_cannot_start(sandbox: Sandbox) -> None:
    install_pi(sandbox, str(sandbox.root / "no-such-bastion"))
    marker = sandbox.project / "marker"

    script = run_pi(sandbox, "bash", {"command": f"echo ran > {marker}"})

    assert not marker.exists()
    assert script.results[0]["is_error"] is True
    assert "ENOENT" in script.results[0]["content"]


ESCAPE = """
import os
home = open("scripts/home.txt").read().strip()
out = {}
for name, path in (("victim", os.path.join(home, "x-victim", "keep.txt")), ("bashrc", os.path.join(home, ".bashrc")),
                   ("workspace", "out.txt")):
    try:
        with open(path, "a") as handle:
            handle.write("evil\\n")
        out[name] = "written"
    except OSError as exc:
        out[name] = type(exc).__name__
print(out)
"""


def test_pi_runs_an_allowed_command_contained_so_its_writes_outside_the_workspace_do_not_land(
    sandbox: Sandbox,
) -> None:
    require_bwrap()
    user_policy(sandbox, '[[rule]]\ntool = "shell"\npattern = "python3 scripts/*"\naction = "allow"\n')
    (sandbox.home / ".bashrc").write_text("# rc\n")
    (sandbox.project / "scripts").mkdir()
    (sandbox.project / "scripts" / "escape.py").write_text(ESCAPE)
    (sandbox.project / "scripts" / "home.txt").write_text(str(sandbox.home))
    install_pi(sandbox)

    script = run_pi(sandbox, "bash", {"command": "python3 scripts/escape.py", "timeout": 60})

    assert (sandbox.victim / "keep.txt").read_text() == "precious\n"
    assert (sandbox.home / ".bashrc").read_text() == "# rc\n"
    assert (sandbox.project / "out.txt").read_text() == "evil\n"
    assert script.results[0]["is_error"] is False
    assert "'workspace': 'written'" in script.results[0]["content"]


def _doctor(sandbox: Sandbox, *, with_pi: bool) -> list[tuple[str, bool, str]]:
    folder = str(Path(agent_cli("pi")).parent)
    path = f"{folder}:{os.environ.get('PATH', '/usr/bin:/bin')}" if with_pi else "/usr/bin:/bin"
    env = sandbox.env(PATH=path, **_python_path())
    return own_file.doctor_checks(str(sandbox.project), env, probe)


def test_doctor_proves_the_hook_denies_and_pi_itself_loads_the_extension(sandbox: Sandbox) -> None:
    path = install_pi(sandbox)

    [(name, ok, detail)] = _doctor(sandbox, with_pi=True)

    assert (name, ok) == (f"hook pi ({path})", True)
    assert detail.startswith("denies a probe 'rm -rf /' in ") and detail.endswith(" ms; pi loads it")


@pytest.mark.parametrize("hider", ["index.ts", "package.json", ".gitignore"])
def test_doctor_fails_when_pi_would_not_load_the_extension(sandbox: Sandbox, hider: str) -> None:
    path = install_pi(sandbox)
    other = {
        "index.ts": "export default function () {}\n",
        "package.json": json.dumps({"name": "x", "pi": {"extensions": ["./other.ts"]}}),
        ".gitignore": "bastion.ts\n",
    }[hider]
    (path.parent / hider).write_text(other)
    (path.parent / "other.ts").write_text("export default function () {}\n")

    [(_, ok, detail)] = _doctor(sandbox, with_pi=True)

    assert ok is False
    assert "pi does not load it from here" in detail


def test_doctor_without_pi_on_path_says_what_it_did_not_check(sandbox: Sandbox) -> None:
    install_pi(sandbox)

    [(_, ok, detail)] = _doctor(sandbox, with_pi=False)

    assert ok is True
    assert detail.startswith("denies a probe 'rm -rf /' in ")
    assert detail.endswith(" ms; pi is not on PATH, so whether pi loads the file was not checked")
