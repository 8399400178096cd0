"""Captured help texts and fake agent executables that print them and record their argv."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion.launch.helptext import HelpText, parse_help

FIXTURES = Path(__file__).parent / "fixtures"

#: agent → (version, {subcommand or "main": fixture file})
CAPTURED: dict[str, tuple[str, dict[str, str]]] = {
    "claude": ("2.1.197", {"main": "claude-2.1.197-main.txt"}),
    "codex": ("0.171.0", {"main": "codex-0.171.0-main.txt", "exec": "codex-0.171.0-exec.txt"}),
    "gemini": ("0.61.0", {"main": "gemini-0.61.0-main.txt"}),
    "qwen": ("0.15.10", {"main": "qwen-0.15.10-main.txt"}),
    "opencode": ("1.18.33", {"main": "opencode-1.18.33-main.txt", "run": "opencode-1.18.33-run.txt"}),
    "pi": ("0.73.1", {"main": "pi-0.73.1-main.txt"}),
    "copilot": ("1.0.102", {"main": "copilot-1.0.102-main.txt"}),
}


def captured_help(agent: str, sub: str = "main") -> HelpText:
    return parse_help((FIXTURES / CAPTURED[agent][1][sub]).read_text("utf-8"))


_SCRIPT = """#!{python}
import json, sys
args = sys.argv[1:]
helps = {helps!r}
if args and args[-1] == "--help":
    sub = args[0] if len(args) == 2 else "main"
    print(open(helps.get(sub, helps["main"]), encoding="utf-8").read())
    sys.exit(0)
if args == ["--version"]:
    print({version!r})
    sys.exit(0)
with open({record!r}, "a", encoding="utf-8") as out:
    out.write(json.dumps(args) + "\\n")
sys.exit({exit_code})
"""


class FakeAgents:
    """A bin folder of fake agents; ``calls(name)`` is the argv each run was given."""

    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.bin.mkdir()
        self.root = root

    def add(self, name: str, *, exit_code: int = 0, like: str | None = None) -> Path:
        version, files = CAPTURED[like or name]
        helps = {sub: str(FIXTURES / f) for sub, f in files.items()}
        path = self.bin / name
        path.write_text(
            _SCRIPT.format(
                python=sys.executable,
                helps=helps,
                version=version,
                record=str(self.root / f"{name}.calls"),
                exit_code=exit_code,
            )
        )
        path.chmod(0o755)
        return path

    def calls(self, name: str) -> list[list[str]]:
        record = self.root / f"{name}.calls"
        if not record.exists():
            return []
        return [json.loads(line) for line in record.read_text("utf-8").splitlines()]


@pytest.fixture
def fake_agents(tmp_path: Path) -> FakeAgents:
    return FakeAgents(tmp_path)


@pytest.fixture
def help_of() -> Callable[..., HelpText]:
    return captured_help
