"""Bastion's opencode plugin (``plugins/opencode.js``) run by Node against fake hooks: it
sends the call, rewrites the args in place, and refuses every answer that is not a clear
allow. Installing, removing and checking the file is ``test_own_file.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks import own_file

DRIVER = """
const { BastionGate } = await import(process.argv[2])
const hooks = await BastionGate({ client: {}, directory: "/home/u/proj" })
const args = JSON.parse(process.argv[3])
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args })
  console.log(JSON.stringify({ ran: args }))
} catch (error) {
  console.log(JSON.stringify({ refused: error.message }))
}
"""


def _node() -> str:
    found = shutil.which("node")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("node not found (CI installs the agent CLIs with npm)")
        pytest.skip("node not installed")
    return found


def _through_plugin(tmp_path: Path, hook_source: str, args: dict[str, Any]) -> Any:
    """Render the plugin around a fake hook (a Python program), call its tool.execute.before."""
    hook = tmp_path / "odd 'dir' \"q\" $x" / "hook.py"
    hook.parent.mkdir()
    hook.write_text(hook_source)
    module = tmp_path / "bastion.mjs"
    module.write_text(own_file.render("opencode", [sys.executable, str(hook)], 1))
    (tmp_path / "driver.mjs").write_text(DRIVER)
    done = subprocess.run(
        [_node(), str(tmp_path / "driver.mjs"), str(module), json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


ECHO_INPUT = """
import json, sys
payload = json.load(sys.stdin)
print(json.dumps({"decision": "allow", "reason": "ok", "args": {"command": "contained " + payload["tool_input"]["command"]}}))
"""


def test_the_plugin_sends_the_call_and_rewrites_the_args_in_place(tmp_path: Path) -> None:
    outcome = _through_plugin(tmp_path, ECHO_INPUT, {"command": "ls", "description": "d", "extra": 1})

    assert outcome == {"ran": {"command": "contained ls"}}


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        ('print(\'{"decision": "deny", "reason": "no way"}\'); sys.exit(2)', "Bastion: no way"),
        ('print(\'{"decision": "deny", "reason": "no way"}\')', "Bastion: no way"),
        ('print(\'{"decision": "allow", "reason": "r"}\'); sys.exit(1)', "Bastion: r"),
        ('print(\'{"decision": "Allow"}\')', "Bastion: Bastion refused the call (exit 0)"),
        ("sys.stderr.write('boom'); print('not json')", "Bastion: Bastion's answer could not be read (boom)"),
        ("print('null')", "Bastion: Bastion's answer could not be read (exit 0)"),
        (
            'print(\'{"decision": "allow", "reason": "r", "args": {"cmd": "x"}}\')',
            "Bastion: Bastion's rewritten call is not a command",
        ),
        ("import time; time.sleep(30)", "Bastion: Bastion gave no answer within 1 s"),
    ],
)
def test_the_plugin_refuses_every_answer_that_is_not_a_clear_allow(
    tmp_path: Path, body: str, refusal: str
) -> None:
    outcome = _through_plugin(tmp_path, f"import sys\nsys.stdin.read()\n{body}\n", {"command": "ls"})

    assert outcome == {"refused": refusal}


def test_an_unrendered_template_refuses_every_call(tmp_path: Path) -> None:
    module = tmp_path / "bastion.mjs"
    module.write_text(own_file.template("opencode"))
    (tmp_path / "driver.mjs").write_text(DRIVER)

    done = subprocess.run(
        [_node(), str(tmp_path / "driver.mjs"), str(module), "{}"], capture_output=True, text=True, timeout=60
    )

    assert json.loads(done.stdout)["refused"].startswith("Bastion: cannot decide safely: SyntaxError")
