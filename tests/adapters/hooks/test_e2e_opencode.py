"""End to end with the real opencode (``opencode-ai``), offline: the test serves the OpenAI
Chat Completions API on loopback (an ``@ai-sdk/openai-compatible`` provider in the project's
``opencode.json``), installs Bastion with ``bastion install opencode --project`` (the plugin
``.opencode/plugin/bastion.js``), lets the fake model ask for one tool call and asserts what
the real CLI did. ``opencode run`` is headless: Bastion alone stops a call. Each run has a
hard deadline that kills its process group, so a hang fails instead of blocking.

opencode installs ``@opencode-ai/plugin`` from npm into every config folder that has no
``node_modules`` (and waits for it at exit): the throwaway folders get an empty one and a
lock file naming it, so nothing is fetched (measured: 73 s of retries with no network,
4 s with the seed).
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

from bastion.adapters.hooks import own_file
from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import Sandbox, agent_cli, bastion_exe
from tests.adapters.hooks.contained import canonical
from tests.adapters.hooks.fake_models import FakeModelServer, Script
from tests.exec.sandbox_helpers import require_bwrap

#: One headless turn takes about 4 s here; a run still going after this has hung.
DEADLINE = 120
VERSION = "1.18.33"
OFFLINE_ENV = {
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_SHARE": "1",
}


def _quiet(*_: Any) -> None:
    return None


def _python_path() -> dict[str, str]:
    """The hook opencode spawns imports the Bastion under test (a worktree), not another one."""
    found = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": found} if found else {}


def _offline(folder: Path) -> None:
    """What opencode's dependency check finds already done (see the module's docstring)."""
    (folder / "node_modules").mkdir(parents=True, exist_ok=True)
    lock = {"packages": {"": {"dependencies": {"@opencode-ai/plugin": VERSION}}}}
    (folder / "package-lock.json").write_text(json.dumps(lock))


def install_opencode(sandbox: Sandbox) -> Path:
    _offline(sandbox.project / ".opencode")
    _offline(sandbox.home / ".config" / "opencode")
    install("opencode", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=_quiet)
    return sandbox.project / ".opencode" / "plugin" / "bastion.js"


def _config(sandbox: Sandbox, url: str) -> None:
    provider = {
        "npm": "@ai-sdk/openai-compatible",
        "name": "Loopback",
        "options": {"baseURL": f"{url}/v1", "apiKey": "sk-dummy"},
        "models": {"test": {"name": "test", "tool_call": True}},
    }
    config = {"provider": {"loopback": provider}, "model": "loopback/test"}
    (sandbox.project / "opencode.json").write_text(json.dumps(config))


class Run:
    """One ``opencode run``: the fake model's view (``script``) and opencode's JSON events."""

    def __init__(self, script: Script, stdout: str, stderr: str) -> None:
        self.script = script
        self.events = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
        self.stderr = stderr

    @property
    def tool(self) -> dict[str, Any]:
        """The tool call's final state (status, input, output or error)."""
        states = [e["part"]["state"] for e in self.events if e.get("type") == "tool_use"]
        assert len(states) == 1, (self.events, self.stderr[-3000:])
        state: dict[str, Any] = states[0]
        return state

    @property
    def result(self) -> str:
        """What the model read back for the call."""
        assert len(self.script.results) == 1, self.stderr[-3000:]
        return str(self.script.results[0]["content"])


def run_opencode(
    sandbox: Sandbox, tool: str, arguments: dict[str, Any], *, on_start: Any = None, **env: str
) -> Run:
    """One headless ``opencode run`` whose model asks for ``tool(arguments)``."""
    opencode = agent_cli("opencode")
    script = Script(tool, arguments)
    with FakeModelServer(script) as server:
        _config(sandbox, server.url)
        child = subprocess.Popen(
            [opencode, "run", "--format", "json", "do the task"],
            cwd=sandbox.project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env=sandbox.env(**OFFLINE_ENV, **_python_path(), **env),
        )
        if on_start is not None:
            on_start()
        try:
            stdout, stderr = child.communicate(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            stdout, stderr = child.communicate()
            pytest.fail(f"opencode still running after {DEADLINE} s (hung); stderr: {stderr[-2000:]}")
    assert child.returncode == 0, stderr[-3000:]
    return Run(script, stdout, stderr)


def test_opencode_reads_a_workspace_file_bastion_allows(sandbox: Sandbox) -> None:
    install_opencode(sandbox)
    notes = sandbox.project / "notes.txt"
    notes.write_text("hello from the workspace\n")

    run = run_opencode(sandbox, "read", {"filePath": str(notes)})

    assert run.tool["status"] == "completed"
    assert "1: hello from the workspace" in run.result


def test_opencode_never_reads_a_private_key_bastion_denies(sandbox: Sandbox) -> None:
    install_opencode(sandbox)
    key = sandbox.home / ".ssh" / "id_rsa"

    run = run_opencode(sandbox, "read", {"filePath": str(key)})

    assert (run.tool["status"], run.tool["error"]) == ("error", run.result)
    assert run.result.startswith(f"Bastion: [policy-denied] {key} is a credential location")
    assert "PRIVATE KEY" not in json.dumps(run.events) + json.dumps(run.script.requests[-1])


def test_opencode_writes_nothing_when_the_project_policy_is_broken(sandbox: Sandbox) -> None:
    install_opencode(sandbox)
    (sandbox.project / ".bastion").mkdir()
    (sandbox.project / ".bastion" / "policy.toml").write_text("mode = [broken\n")
    marker = sandbox.project / "marker"

    run = run_opencode(sandbox, "write", {"filePath": str(marker), "content": "ok\n"})

    assert not marker.exists()
    assert run.tool["status"] == "error"
    assert run.result.startswith("Bastion: ") and str(Path(".bastion") / "policy.toml") in run.result


def _approver_key(sandbox: Sandbox) -> str:
    made = subprocess.run(
        [bastion_exe(), "keys", "create", "--role", "approver"],
        env=sandbox.env(**_python_path()), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _answer_when_parked(sandbox: Sandbox, key: str, verb: str, answered: list[dict[str, Any]]) -> None:
    """Like a person at ``bastion approvals``: wait for the parked call, then answer it."""
    env = sandbox.env(**_python_path())
    for _ in range(600):
        listed = subprocess.run(
            [bastion_exe(), "approvals", "list", "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        pending = json.loads(listed.stdout or "[]")
        if pending:
            done = subprocess.run(
                [bastion_exe(), "approvals", verb, "--key", key, "--json", pending[0]["id"]],
                env=env, capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            answered.append({"request": pending[0], "exit": done.returncode, "stderr": done.stderr})
            return
        time.sleep(0.1)


def _ask_for_writes(sandbox: Sandbox) -> None:
    """The person's own policy: every write asks, and asks wait in Bastion's queue."""
    folder = sandbox.home / ".config" / "bastion"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.toml").write_text('mode = "ask-before-edit"\nask_via = "bastion"\n')


@pytest.mark.parametrize(("verb", "lands"), [("approve", True), ("deny", False)])
def test_an_asked_write_waits_in_bastions_queue_for_the_persons_answer(
    sandbox: Sandbox, verb: str, lands: bool
) -> None:
    install_opencode(sandbox)
    _ask_for_writes(sandbox)
    key = _approver_key(sandbox)
    marker = sandbox.project / "asked.txt"
    answered: list[dict[str, Any]] = []
    person = threading.Thread(target=_answer_when_parked, args=(sandbox, key, verb, answered))

    run = run_opencode(
        sandbox,
        "write",
        {"filePath": str(marker), "content": "approved\n"},
        on_start=person.start,
        BASTION_HOOK_INTERACTIVE="1",
    )
    person.join(timeout=60)

    assert [(a["request"]["tool"], a["exit"]) for a in answered] == [("write", 0)]
    assert marker.exists() is lands
    assert run.tool["status"] == ("completed" if lands else "error")
    if lands:
        assert marker.read_text() == "approved\n"
    else:
        assert run.result.startswith("Bastion: ")


def test_an_asked_write_is_denied_at_once_when_nobody_can_answer(sandbox: Sandbox) -> None:
    install_opencode(sandbox)
    _ask_for_writes(sandbox)
    marker = sandbox.project / "asked.txt"

    run = run_opencode(sandbox, "write", {"filePath": str(marker), "content": "x\n"})

    assert not marker.exists()
    assert run.result == (
        "Bastion: ask-before-edit mode: reads run, every edit asks (write); nobody can be asked here "
        "(non-interactive): the call is denied without waiting. To allow it, run it where a person can be "
        "asked (an interactive session, or `bastion request`) and approve it: once, or always (a standing "
        "grant then covers it here too)."
    )


def test_with_no_daemon_running_or_started_every_call_is_still_decided(sandbox: Sandbox) -> None:
    """No daemon listens and none may start: the hook decides in its own process; nothing
    is allowed for want of a daemon."""
    install_opencode(sandbox)
    notes = sandbox.project / "notes.txt"
    notes.write_text("still read\n")
    no_daemon = {"BASTION_HOOK_AUTOSTART": "0"}

    allowed = run_opencode(sandbox, "read", {"filePath": str(notes)}, **no_daemon)
    denied = run_opencode(sandbox, "read", {"filePath": str(sandbox.home / ".ssh" / "id_rsa")}, **no_daemon)

    assert (allowed.tool["status"], "1: still read" in allowed.result) == ("completed", True)
    assert denied.tool["status"] == "error" and "credential location" in denied.result
    assert not (sandbox.state / "hooks.sock").exists()


@pytest.fixture
def garbage_daemon(sandbox: Sandbox) -> Iterator[list[bytes]]:
    """A "daemon" on the hook socket that reads each call and answers nonsense."""
    sandbox.state.mkdir(parents=True, exist_ok=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sandbox.state / "hooks.sock"))
    server.listen()
    seen: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                seen.append(conn.recv(65536))
                conn.sendall(b'BH1\n1\n0\n{"decision":"allow"}')  # a frame cut short

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield seen
    server.close()
    thread.join(timeout=5)


def test_a_daemon_answering_nonsense_blocks_the_call(sandbox: Sandbox, garbage_daemon: list[bytes]) -> None:
    install_opencode(sandbox)
    notes = sandbox.project / "notes.txt"
    notes.write_text("never read\n")

    run = run_opencode(sandbox, "read", {"filePath": str(notes)})

    assert len(garbage_daemon) == 1 and b'"tool_name":"read"' in garbage_daemon[0]
    assert run.tool["status"] == "error"
    assert run.result.startswith("Bastion: the Bastion daemon failed to answer")
    assert "never read" not in run.result


#: Hooks that answer wrongly, through the real opencode: the plugin must refuse each one (every
#: other wrong answer is run through the same plugin by Node in test_opencode_plugin.py).
MALFORMED = {
    "not JSON": ("print('allow')", 0),
    "exit 0 with deny": ('print(\'{"decision": "deny", "reason": "r"}\')', 0),
    "killed": ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", 0),
}


def _fake_hook(sandbox: Sandbox, plugin: Path, source: str) -> None:
    """Re-render the installed plugin around a fake hook: the Python program ``source``."""
    program = sandbox.root / "fake_hook.py"
    program.write_text(source)
    plugin.write_text(own_file.render("opencode", [sys.executable, str(program)], 60))


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_an_answer_that_is_not_a_clear_allow_blocks_the_call(sandbox: Sandbox, case: str) -> None:
    plugin = install_opencode(sandbox)
    body, code = MALFORMED[case]
    _fake_hook(sandbox, plugin, f"import sys\nsys.stdin.read()\n{body}\nsys.exit({code})\n")
    marker = sandbox.project / "bash-ran"

    run = run_opencode(sandbox, "bash", {"command": f"touch {marker}", "description": "touch"})

    assert not marker.exists()
    assert run.tool["status"] == "error" and run.result.startswith("Bastion: ")


def test_a_plugin_whose_bastion_is_gone_blocks_the_call(sandbox: Sandbox) -> None:
    plugin = install_opencode(sandbox)
    plugin.write_text(own_file.render("opencode", [str(sandbox.root / "no-such-bastion"), "hook"], 60))
    marker = sandbox.project / "bash-ran"

    run = run_opencode(sandbox, "bash", {"command": f"touch {marker}", "description": "touch"})

    assert not marker.exists()
    assert run.result.startswith("Bastion: cannot run Bastion: ") and "ENOENT" in run.result


ESCAPE = """
import json, os
home = json.load(open("scripts/target.json"))["home"]
out = {}
for name, path in (("bashrc", os.path.join(home, ".bashrc")), ("victim", os.path.join(home, "x-victim", "new.txt")),
                   ("workspace", "out.txt")):
    try:
        with open(path, "a") as handle:
            handle.write("evil\\n")
        out[name] = "written"
    except OSError as exc:
        out[name] = type(exc).__name__
print("RESULT " + json.dumps(out))
"""


def test_an_allowed_bash_call_runs_contained_and_its_writes_outside_the_workspace_do_not_land(
    sandbox: Sandbox,
) -> None:
    require_bwrap()
    install_opencode(sandbox)
    folder = sandbox.home / ".config" / "bastion"
    folder.mkdir(parents=True, exist_ok=True)
    rule = '[[rule]]\ntool = "shell"\npattern = "python3 scripts/*"\naction = "allow"\n'
    (folder / "policy.toml").write_text(rule)
    (sandbox.home / ".bashrc").write_text("# rc\n")
    (sandbox.project / "scripts").mkdir()
    (sandbox.project / "scripts" / "escape.py").write_text(ESCAPE)
    (sandbox.project / "scripts" / "target.json").write_text(json.dumps({"home": str(sandbox.home)}))

    run = run_opencode(sandbox, "bash", {"command": "python3 scripts/escape.py", "description": "run"})

    assert run.tool["status"] == "completed"
    assert canonical(run.tool["input"]["command"]).startswith("$CONTAINED(workspace-write")
    assert canonical(run.tool["input"]["command"]).endswith(" -- bash -c 'python3 scripts/escape.py'")
    line = next(x for x in run.result.splitlines() if x.startswith("RESULT "))
    outcome = json.loads(line[len("RESULT ") :])
    assert outcome["workspace"] == "written" and (sandbox.project / "out.txt").read_text() == "evil\n"
    assert (sandbox.home / ".bashrc").read_text() == "# rc\n"
    assert not (sandbox.victim / "new.txt").exists()


def _listening(child: subprocess.Popen[str]) -> str:
    """The URL ``opencode serve`` prints once it listens (4096, or a free port when taken)."""
    found: list[str] = []

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            if "listening on http://" in line:
                found.append(line.split("listening on ", 1)[1].strip())
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=60)
    assert found, "opencode serve did not start listening"
    return found[0]


def _http(url: str, body: dict[str, Any] | None = None) -> Any:
    """GET ``url``, or POST it ``body`` as JSON: the answer's JSON."""
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=DEADLINE) as answer:
        return json.loads(answer.read() or b"null")


def serve_opencode(sandbox: Sandbox, tool: str, arguments: dict[str, Any]) -> Any:
    """``opencode serve`` with its own ``edit`` rule set to ask: one prompt through its API,
    while nobody but Bastion's plugin answers opencode's permission requests."""
    opencode = agent_cli("opencode")
    script = Script(tool, arguments)
    with FakeModelServer(script) as server:
        _config(sandbox, server.url)
        config = json.loads((sandbox.project / "opencode.json").read_text())
        (sandbox.project / "opencode.json").write_text(json.dumps({**config, "permission": {"edit": "ask"}}))
        child = subprocess.Popen(
            [opencode, "serve", "--port", "0", "--print-logs"],
            cwd=sandbox.project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env=sandbox.env(**OFFLINE_ENV, **_python_path()),
        )
        try:
            url = _listening(child)
            session = _http(f"{url}/session", {})["id"]
            _http(f"{url}/session/{session}/message", {"parts": [{"type": "text", "text": "go"}]})
            messages = _http(f"{url}/session/{session}/message")
        finally:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    parts = [p for m in messages for p in m["parts"] if p.get("type") == "tool"]
    assert len(parts) == 1, messages
    return parts[0]["state"]


def _ledger(sandbox: Sandbox) -> list[dict[str, Any]]:
    done = subprocess.run(
        [bastion_exe(), "logs", "--json"], env=sandbox.env(**_python_path()), capture_output=True, text=True
    )
    records: list[dict[str, Any]] = json.loads(done.stdout)
    return records


def test_opencode_serve_gets_its_permission_prompt_answered_by_bastion(sandbox: Sandbox) -> None:
    install_opencode(sandbox)
    marker = sandbox.project / "served.txt"

    state = serve_opencode(sandbox, "write", {"filePath": str(marker), "content": "served\n"})

    assert state["status"] == "completed" and marker.read_text() == "served\n"
    decided = [(r["tool"], r["decision"], r["summary"]) for r in _ledger(sandbox) if r["kind"] == "decided"]
    assert decided == [("write", "allow", f"write: {marker}")] * 2  # the call, then opencode's prompt


SPLIT_HOOK = """
import json, sys
event = json.load(sys.stdin)["hook_event_name"]
if event == "tool.execute.before":
    print(json.dumps({"decision": "allow", "reason": "fine"}))
else:
    print(json.dumps({"reply": "reject", "decision": "deny", "reason": "no"}))
    sys.exit(2)
"""


def test_opencode_serve_is_refused_when_bastion_rejects_its_permission_prompt(sandbox: Sandbox) -> None:
    plugin = install_opencode(sandbox)
    _fake_hook(sandbox, plugin, SPLIT_HOOK)
    marker = sandbox.project / "served.txt"

    state = serve_opencode(sandbox, "write", {"filePath": str(marker), "content": "served\n"})

    assert state["status"] == "error" and not marker.exists()
    assert state["error"] == "The user rejected permission to use this specific tool call."
