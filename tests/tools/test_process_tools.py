"""exec and code through the tool API: gate first, then the real sandbox, then audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion import Gate, ToolCall
from bastion.call.effects import Effect
from bastion.exec import ExecConfig
from bastion.exec.output import mask_token
from bastion.policy.decision import Decision
from bastion.tools import detect_runtimes
from tests.conftest import PolicyFactory
from tests.tools.conftest import StubAuthorizer, ToolsFactory, essentials, run


def test_an_allowed_command_runs_in_the_sandbox_and_is_audited(
    make_tools: ToolsFactory, workspace: Path
) -> None:
    authorizer = StubAuthorizer(Effect.READ)
    tools = make_tools(authorizer=authorizer, sandbox=True)
    result = run(tools["exec"], {"command": "pwd; ls"})
    assert essentials(result) == {
        "ok": True,
        "decision": "allow",
        "exit_code": 0,
        "stdout": f"{workspace}\nREADME.md\nsrc\n",
        "stderr": "",
        "truncated": False,
        "timed_out": False,
        "message": "",
        "data": {"runner": "bubblewrap"},
    }
    assert authorizer.executions == [("shell", 0)]


def test_a_command_the_gate_denies_never_runs(make_tools: ToolsFactory, workspace: Path) -> None:
    tools = make_tools(sandbox=True)
    result = run(tools["exec"], {"command": "curl https://example.com > got.html"})
    assert (result["ok"], result["decision"], result["exit_code"]) == (False, "deny", None)
    assert not (workspace / "got.html").exists()


def test_the_gate_allows_a_plain_reader(make_tools: ToolsFactory) -> None:
    result = run(make_tools(sandbox=True)["exec"], {"command": "echo hi"})
    assert (result["ok"], result["stdout"]) == (True, "hi\n")


@pytest.fixture
def token(home: Path) -> str:
    creds = home / ".bastion" / "credentials"
    creds.mkdir(parents=True, mode=0o700)
    (creds / "API_TOKEN").write_text("tok-8c1f2e9d\n")
    return "tok-8c1f2e9d"


def test_a_secret_reaches_only_the_call_that_asked_and_is_masked_in_its_output(
    make_tools: ToolsFactory, token: str
) -> None:
    authorizer = StubAuthorizer(Effect.READ)
    tools = make_tools(
        authorizer=authorizer, sandbox=True, config=ExecConfig(timeout=20, secrets=("API_TOKEN",))
    )
    command = 'echo "value=${API_TOKEN:-absent}"; echo "$API_TOKEN" | rev | rev >&2'
    first = run(tools["exec"], {"command": command, "secrets": ["API_TOKEN"]})
    second = run(tools["exec"], {"command": command})
    masked = mask_token("API_TOKEN")
    assert (first["stdout"], first["stderr"]) == (f"value={masked}\n", f"{masked}\n")
    assert (second["stdout"], second["stderr"]) == ("value=absent\n", "\n")
    assert token not in str(authorizer.requests)


def test_a_secret_not_allowed_by_the_config_is_refused_without_running(
    make_tools: ToolsFactory, token: str
) -> None:
    authorizer = StubAuthorizer(Effect.READ)
    tools = make_tools(authorizer=authorizer, sandbox=True)
    result = run(tools["exec"], {"command": "touch ran", "secrets": ["API_TOKEN"]})
    assert (result["ok"], result["message"]) == (False, "secret 'API_TOKEN' is not listed in [exec] secrets")


def test_the_exec_tool_never_shares_the_host_network_even_for_a_host_it_names(
    make_tools: ToolsFactory,
) -> None:
    # Issue #14: a run reaches the hosts its profile names only through the egress proxy
    # (``bastion sandbox run`` starts one); the exec tool starts none yet, so it gets no
    # network at all rather than the host's whole network (fail closed).
    interfaces = "python3 -c 'import socket; print([n for _, n in socket.if_nameindex()])'"
    named = f"curl -s -o /dev/null --max-time 1 https://example.org/; {interfaces}"
    offline = run(
        make_tools(authorizer=StubAuthorizer(Effect.READ), sandbox=True)["exec"], {"command": named}
    )
    unnamed = run(
        make_tools(authorizer=StubAuthorizer(Effect.NETWORK), sandbox=True)["exec"], {"command": interfaces}
    )
    online = run(
        make_tools(authorizer=StubAuthorizer(Effect.NETWORK), sandbox=True)["exec"], {"command": named}
    )
    assert offline["stdout"] == "['lo']\n"  # a fresh network namespace: loopback only
    assert unnamed["stdout"] == "['lo']\n"
    assert online["stdout"] == "['lo']\n"  # never the host's interfaces


def test_a_command_that_runs_too_long_times_out(make_tools: ToolsFactory) -> None:
    tools = make_tools(authorizer=StubAuthorizer(Effect.READ), sandbox=True)
    result = run(tools["exec"], {"command": "sleep 30", "timeout": 0.5})
    assert (result["ok"], result["timed_out"], result["exit_code"]) == (False, True, None)
    assert result["message"].startswith("timed out and was killed after")


@pytest.mark.parametrize(
    ("language", "source"),
    [
        ("python", "import os; print('hello', os.getcwd())"),
        ("bash", "echo hello $(pwd)"),
        ("node", "console.log('hello', process.cwd())"),
        ("rust", 'fn main() { println!("hello {}", std::env::current_dir().unwrap().display()); }'),
    ],
)
def test_code_runs_each_installed_language_in_the_workspace(
    make_tools: ToolsFactory, workspace: Path, language: str, source: str
) -> None:
    if language not in detect_runtimes():
        pytest.skip(f"{language} is not installed here")
    result = run(make_tools(sandbox=True)["code"], {"language": language, "source": source})
    assert (result["ok"], result["stdout"], result["exit_code"]) == (True, f"hello {workspace}\n", 0)


def test_code_temp_dirs_are_removed_after_the_run(make_tools: ToolsFactory) -> None:
    result = run(
        make_tools(sandbox=True)["code"], {"language": "python", "source": "import sys; print(sys.argv[0])"}
    )
    assert result["ok"] is True
    assert not Path(result["stdout"].strip()).parent.exists()


def test_code_cannot_write_outside_the_workspace(make_tools: ToolsFactory, tmp_path: Path) -> None:
    target = tmp_path / "escape.txt"
    source = (
        f"open({str(target)!r}, 'w').write('x')  # lands in the private /tmp\n"
        "open('/usr/escape.txt', 'w').write('x')\n"
    )
    result = run(make_tools(sandbox=True)["code"], {"language": "python", "source": source})
    assert (result["ok"], result["exit_code"]) == (False, 1)
    assert result["stderr"].endswith("OSError: [Errno 30] Read-only file system: '/usr/escape.txt'\n")
    assert (target.exists(), Path("/usr/escape.txt").exists()) == (False, False)


def test_code_in_read_only_mode_is_not_offered_and_the_gate_denies_it(
    make_tools: ToolsFactory, make_policy: PolicyFactory, workspace: Path
) -> None:
    # The schema follows the mode: the tool is absent, and the decision is still a deny.
    assert "code" not in make_tools('mode = "read-only"', sandbox=True)
    call = ToolCall(
        "code", {"language": "python", "source": "print(1)"}, cwd=str(workspace), interactive=True
    )
    evaluation = Gate(make_policy('mode = "read-only"'), sandboxed=True).evaluate(call)
    assert (evaluation.decision, evaluation.marker) == (Decision.DENY, "[policy-blocked]")
