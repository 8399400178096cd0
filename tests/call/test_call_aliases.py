"""Agent tool names arrive through every entry point, not only the hooks: a JSON tool call
(HTTP, ``check --batch``) naming ``Bash`` or ``read_file`` is the same call as ``shell`` or
``read``, and an unknown name stays unknown (the engine denies it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bastion.call.model import ToolCall


@pytest.mark.parametrize(("given", "expected"), [
    ({"tool": "Bash", "args": {"command": "git status"}}, ("shell", {"command": "git status"})),
    ({"tool": "run_shell_command", "args": {"command": "ls"}}, ("shell", {"command": "ls"})),
    ({"tool": "exec_command", "args": {"cmd": ["bash", "-lc", "ls -la"]}}, ("shell", {"command": "bash -lc 'ls -la'"})),
    ({"tool": "Read", "args": {"file_path": "/p/a.py"}}, ("read", {"path": "/p/a.py"})),
    ({"tool": "read_file", "args": {"absolute_path": "/p/a.py"}}, ("read", {"path": "/p/a.py"})),
    ({"tool": "WebFetch", "args": {"url": "https://pypi.org/"}}, ("fetch", {"url": "https://pypi.org/"})),
    ({"tool": "mcp__files__read_file", "args": {"path": "a"}},
     ("mcp", {"server": "files", "tool": "read_file", "arguments": {"path": "a"}})),
    ({"tool": "shell", "args": {"command": "ls"}}, ("shell", {"command": "ls"})),
    ({"tool": "teleport", "args": {"to": "mars"}}, ("teleport", {"to": "mars"})),
    # what a write leaves is decided too: content and edits go with the path
    ({"tool": "Write", "args": {"file_path": "/p/a", "content": "x"}}, ("write", {"path": "/p/a", "content": "x"})),
    ({"tool": "Edit", "args": {"file_path": "/p/a", "old_string": "a", "new_string": "b", "replace_all": True}},
     ("edit", {"path": "/p/a", "old_string": "a", "new_string": "b", "replace_all": True})),
    ({"tool": "MultiEdit", "args": {"file_path": "/p/a", "edits": [{"old_string": "a", "new_string": "b"}]}},
     ("edit", {"path": "/p/a", "edits": ({"old_string": "a", "new_string": "b"},)})),  # frozen
    ({"tool": "write_file", "args": {"file_path": "/p/a", "content": "x"}}, ("write", {"path": "/p/a", "content": "x"})),
    ({"tool": "replace", "args": {"file_path": "/p/a", "old_string": "a", "new_string": "b"}},
     ("edit", {"path": "/p/a", "old_string": "a", "new_string": "b"})),
    ({"tool": "create", "args": {"path": "/p/a", "file_text": "x"}}, ("write", {"path": "/p/a", "content": "x"})),
    ({"tool": "search_file_content", "args": {"pattern": "url", "dir_path": "/p"}},
     ("grep", {"pattern": "url", "path": "/p", "output_mode": "content"})),  # it prints lines
    ({"tool": "str_replace", "args": {"path": "/p/a", "old_str": "a", "new_str": "b"}},
     ("edit", {"path": "/p/a", "old_string": "a", "new_string": "b"})),
])  # fmt: skip
def test_a_json_call_maps_agent_tool_names_onto_families(
    given: dict[str, object], expected: tuple[str, dict[str, object]]
) -> None:
    call = ToolCall.from_json(json.dumps(given), default_cwd="/p")
    assert (call.tool, dict(call.args)) == expected


def test_check_batch_decides_an_agent_tool_name_like_the_family(tmp_path: Path) -> None:
    project = tmp_path / "proj"  # not HOME itself, whose workspace would hold the credentials dir
    project.mkdir()
    lines = [{"tool": "Bash", "args": {"command": "cat ~/.ssh/id_rsa"}, "cwd": str(project)},
             {"tool": "shell", "args": {"command": "cat ~/.ssh/id_rsa"}, "cwd": str(project)}]  # fmt: skip
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("BASTION_")},
        "HOME": str(tmp_path),
        "BASTION_STATE_DIR": str(tmp_path / "state"),
    }
    done = subprocess.run([sys.executable, "-m", "bastion.adapters.cli.main", "check", "--batch", "-"],
                          input="".join(json.dumps(line) + "\n" for line in lines), capture_output=True,
                          text=True, env=env, cwd=project, timeout=60)  # fmt: skip
    decided = [json.loads(line) for line in done.stdout.splitlines()]
    assert [d["decision"] for d in decided] == ["deny", "deny"]
    assert decided[0]["reasons"] == decided[1]["reasons"]
