"""Issue 31: inline code that deletes the home folder (or /) recursively is catastrophic, as
``rm -rf ~`` is; inline code that deletes a workspace folder or only reads HOME is asked
as before. ``kill -9 -1`` kills the whole session."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import decide

from bastion import Decision, Gate, ToolCall

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


CATASTROPHIC = [
    "python3 -c \"import shutil,os; shutil.rmtree(os.path.expanduser('~'))\"",
    "python3 -c 'import shutil, pathlib; shutil.rmtree(pathlib.Path.home())'",
    "python3 -c \"import shutil; shutil.rmtree('/')\"",
    "python3 -c \"import os; os.system('rm -rf ~')\"",
    "python3 -c \"import os; os.system('rm -rf ' + os.environ['HOME'])\"",
    "perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME})'",
    "perl -e 'system(\"rm -rf \" . $ENV{HOME})'",
    'perl -e \'system("rm","-rf",$ENV{"HOME"})\'',  # suite H: the list form
    'python3 -c \'import subprocess, os; subprocess.run(["rm", "-rf", os.environ["HOME"]])\'',
    'node -e \'require("child_process").execFileSync("rm", ["-rf", require("os").homedir()])\'',
    'node -e \'require("fs").rmSync(require("os").homedir(), {recursive: true})\'',
    "ruby -e 'require \"fileutils\"; FileUtils.rm_rf(Dir.home)'",
    "python3 - <<'EOF'\nimport shutil, os\nshutil.rmtree(os.path.expanduser('~'))\nEOF",
    "kill -9 -1",
    "kill -KILL -- -1",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_inline_code_deleting_home_or_root_is_denied_as_catastrophic(
    gate: Gate, call: Call, command: str
) -> None:
    assert decide(gate, call, command) == (D, ["hardline.destructive"])


ASKED = [
    "python3 -c \"import shutil; shutil.rmtree('build')\"",
    "python3 -c \"import os; print(os.path.expanduser('~'))\"",
    "node -e 'console.log(require(\"os\").homedir())'",
    "perl -e 'print $ENV{HOME}'",
    "kill -9 1234",
]


@pytest.mark.parametrize("command", ASKED)
def test_inline_code_that_deletes_elsewhere_or_reads_home_is_asked(
    gate: Gate, call: Call, command: str
) -> None:
    assert decide(gate, call, command) == (Q, ["approval.interactive_default"])
