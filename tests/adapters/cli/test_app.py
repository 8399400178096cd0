"""The CLI loads only the module of the command it runs; help still lists every command."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import typer
from typer.main import get_command
from typer.testing import CliRunner

from bastion.adapters.cli.app import COMMAND_MODULES, COMMANDS, build_app

#: What the gateway, the MCP proxy and the approvals page import, and no other command needs.
SERVER_MODULES = ("starlette", "uvicorn", "mcp", "bastion.adapters.http.app")


def _names(app: typer.Typer) -> set[str]:
    return set(get_command(app).commands)  # type: ignore[attr-defined]


def test_the_command_table_names_exactly_what_each_module_registers() -> None:
    registered: dict[str, str] = {}
    for module in COMMAND_MODULES:
        app = typer.Typer()
        app.callback()(lambda: None)  # a group even when the module adds one command
        importlib.import_module(module).register(app)
        for name in _names(app):
            registered[name] = module
    assert registered == COMMANDS


def test_a_named_command_builds_an_app_of_that_module_alone() -> None:
    assert _names(build_app(["logs", "--json"])) == {"logs"}
    assert _names(build_app(["check", "shell", "ls"])) == {"check", "explain"}


def test_no_command_help_or_an_unknown_name_builds_every_command() -> None:
    every = set(COMMANDS)
    for args in ([], ["--help"], ["no-such-command"], None):
        assert _names(build_app(args)) == every


def test_help_lists_every_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bastion.adapters.cli.main", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200", "HOME": str(tmp_path)},
        timeout=60,
    )
    assert done.returncode == 0
    listed = {
        line.split()[1] for line in done.stdout.splitlines() if line.startswith("│ ") and line.split()[1:]
    }
    assert set(COMMANDS) <= listed


def test_a_command_that_serves_nothing_imports_no_server(tmp_path: Path) -> None:
    """``bastion logs`` and ``bastion check`` start without the web server or the MCP SDK:
    each CLI call pays only for what it runs."""
    script = (
        "import json, sys\n"
        "from bastion.adapters.cli.main import main\n"
        "codes = [main(['logs', '--json']), main(['check', 'shell', 'ls'])]\n"
        f"loaded = [m for m in {SERVER_MODULES!r} if m in sys.modules]\n"
        "print(json.dumps([codes, loaded]))\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "state")}
    env.pop("BASTION_POLICY", None)
    project = tmp_path / "proj"  # not HOME itself: its workspace would hold the credentials dir
    project.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=project, timeout=60
    )
    assert json.loads(done.stdout.splitlines()[-1]) == [[0, 0], []], done.stderr


def test_every_command_runs_as_a_subcommand_of_an_app_built_for_it() -> None:
    """A module that adds one command (``request``, ``serve``…) still makes a group: the
    command's name is never taken as its first argument."""
    for name in COMMANDS:
        done = CliRunner().invoke(build_app([name, "--help"]), [name, "--help"], prog_name="bastion")
        assert (name, done.exit_code) == (name, 0), done.output
        assert f"bastion {name}" in done.output
