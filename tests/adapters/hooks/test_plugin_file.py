"""Bastion's opencode plugin as a file (``bastion.adapters.hooks.plugin_file``): installed,
refreshed, removed and checked by doctor, never someone else's file; and the plugin itself,
run by Node against fake hooks, refusing every answer that is not a clear allow."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks import plugin_file
from bastion.adapters.hooks.install import _plugin_checks, install, uninstall
from tests.adapters.hooks.conftest import Sandbox


def _install(sandbox: Sandbox, *, timeout: int = 60, scope: str = "project", **env: str) -> list[str]:
    said: list[str] = []
    install(
        "opencode",
        scope=scope,
        cwd=str(sandbox.project),
        env=sandbox.env(**env),
        timeout=timeout,
        executable=("/usr/bin/python3", "-S", "/opt/fastpath.py"),
        out=said.append,
    )
    return said


def _plugin(sandbox: Sandbox) -> Path:
    return sandbox.project / ".opencode" / "plugin" / "bastion.js"


def test_install_writes_the_plugin_with_the_hook_command_and_its_timeout(sandbox: Sandbox) -> None:
    said = _install(sandbox, timeout=90)

    text = _plugin(sandbox).read_text()
    words = [
        "/usr/bin/python3",
        "-S",
        "/opt/fastpath.py",
        "hook",
        "opencode",
        "--timeout",
        "90",
        "--autostart",
    ]
    assert plugin_file.command_of(text) == words
    assert "const TIMEOUT_MS = 90000\n" in text and "__BASTION" not in text
    assert said[:2] == [
        f"wrote {_plugin(sandbox)}",
        f"installed: opencode now asks Bastion before every tool call ({' '.join(words)}).",
    ]


def test_a_second_install_changes_nothing_and_a_new_timeout_rewrites_the_file(sandbox: Sandbox) -> None:
    _install(sandbox)
    first = _plugin(sandbox).read_text()

    again = _install(sandbox)
    changed = _install(sandbox, timeout=30)

    assert again[0] == f"{_plugin(sandbox)}: Bastion's plugin is already installed; nothing to change"
    assert changed[0] == f"updated {_plugin(sandbox)}"
    assert plugin_file.command_of(first) != plugin_file.command_of(_plugin(sandbox).read_text())
    assert plugin_file.command_of(_plugin(sandbox).read_text())[5:7] == ["--timeout", "30"]
    assert "const TIMEOUT_MS = 30000\n" in _plugin(sandbox).read_text()


def test_the_user_plugin_goes_where_opencode_reads_the_users_config(sandbox: Sandbox) -> None:
    _install(sandbox, scope="user")
    _install(sandbox, scope="user", XDG_CONFIG_HOME=str(sandbox.root / "xdg"))

    assert (sandbox.home / ".config" / "opencode" / "plugin" / "bastion.js").exists()
    assert (sandbox.root / "xdg" / "opencode" / "plugin" / "bastion.js").exists()


def test_someone_elses_plugin_at_that_path_is_neither_overwritten_nor_removed(sandbox: Sandbox) -> None:
    _plugin(sandbox).parent.mkdir(parents=True)
    _plugin(sandbox).write_text("export const Mine = async () => ({})\n")

    with pytest.raises(plugin_file.PluginFileError, match="is not Bastion's plugin; move it away first"):
        _install(sandbox)
    with pytest.raises(plugin_file.PluginFileError, match="is not Bastion's plugin; move it away first"):
        uninstall(
            "opencode", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lambda _: None
        )

    assert _plugin(sandbox).read_text() == "export const Mine = async () => ({})\n"


def test_uninstall_removes_bastions_plugin_and_then_has_nothing_to_remove(sandbox: Sandbox) -> None:
    _install(sandbox)
    said: list[str] = []

    for _ in range(2):
        uninstall("opencode", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=said.append)

    assert not _plugin(sandbox).exists()
    assert said == [
        f"removed {_plugin(sandbox)}",
        "uninstalled: opencode no longer asks Bastion",
        f"{_plugin(sandbox)}: no Bastion plugin to remove",
    ]


def test_doctor_fails_a_changed_plugin_and_someone_elses_file(sandbox: Sandbox) -> None:
    _install(sandbox)
    path = _plugin(sandbox)
    path.write_text(path.read_text().replace("if (code !== 0", "if (false && code !== 0"))

    changed = _plugin_checks("opencode", "project", str(sandbox.project), sandbox.env())
    path.write_text("export const Mine = async () => ({})\n")
    foreign = _plugin_checks("opencode", "project", str(sandbox.project), sandbox.env())

    name = f"hook opencode ({path})"
    assert changed == [
        (name, False, "the plugin file was changed or is damaged: re-run bastion install opencode")
    ]
    assert foreign == [
        (name, False, f"{path} is not Bastion's plugin; move it away first, nothing was changed")
    ]
    assert _plugin_checks("opencode", "user", str(sandbox.project), sandbox.env()) == []


def test_doctor_probes_an_intact_plugins_command_and_sees_it_deny(sandbox: Sandbox) -> None:
    install(
        "opencode", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lambda _: None
    )  # the real launcher of this interpreter

    [(name, ok, detail)] = _plugin_checks("opencode", "project", str(sandbox.project), sandbox.env())

    assert (name, ok, detail.startswith("denies a probe 'rm -rf /' in ")) == (
        f"hook opencode ({_plugin(sandbox)})",
        True,
        True,
    )


@pytest.mark.parametrize(
    "text", ["", "// Bastion's gate for\nconst BASTION_HOOK = nonsense\n", 'const BASTION_HOOK = "[1]"\n']
)
def test_a_command_that_cannot_be_read_from_the_plugin_is_none(text: str) -> None:
    assert plugin_file.command_of(text) is None


# -- the plugin itself, run by Node --------------------------------------------------------

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
    located = plugin_file.PluginFile("opencode", str(module), "opencode.js")
    module.write_text(plugin_file.render(located, [sys.executable, str(hook)], 1))
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
    module.write_text(plugin_file.template("opencode.js"))
    (tmp_path / "driver.mjs").write_text(DRIVER)

    done = subprocess.run(
        [_node(), str(tmp_path / "driver.mjs"), str(module), "{}"], capture_output=True, text=True, timeout=60
    )

    assert json.loads(done.stdout)["refused"].startswith("Bastion: cannot decide safely: SyntaxError")
