"""Read a rewritten shell command the way a test can pin it.

A prepared run's line (``bastion.exec.prepared``) holds what differs from one run and one
machine to the next: the run's id, the state dir, the cgroup paths, bwrap's mounts. A test
pins what the agent is told to run: this module checks the line's structure word by word
(a launcher ``bash -p -c SCRIPT bastion-sandbox BWRAP … bash -c ORIGINAL``, the namespaces
bwrap gets, the timeout the script applies) and reduces it to
``$CONTAINED(PROFILE) --timeout S -- bash -c ORIGINAL``. What the sandbox holds is tested
by running the line (``tests/exec/test_prepared.py``, ``tests/containment/``).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from bastion.exec.prepared import LAUNCHER_NAME

_FIRST = re.compile(r"# bastion: contained run \((?P<label>[^\n]*)\)\n")
_TIMEOUT = re.compile(r"/timeout --foreground -k 2 (?P<seconds>\S+) \"\$1\"")


def is_prepared(command: str) -> bool:
    return command.startswith("/usr/bin/bash -p -c '# bastion: contained run (")


def canonical(command: str) -> str:
    """``$CONTAINED(PROFILE) --timeout S -- bash -c ORIGINAL`` for a prepared line (its
    structure asserted); any other command as it is."""
    if not is_prepared(command):
        return command
    words = shlex.split(command)
    assert words[:3] == ["/usr/bin/bash", "-p", "-c"], words[:3]
    script, name, bwrap = words[3], words[4], words[5]
    first = _FIRST.match(script)
    timeout = _TIMEOUT.search(script)
    assert first is not None and timeout is not None, script
    assert (name, bwrap.startswith("/"), bwrap.rsplit("/", 1)[-1]) == (LAUNCHER_NAME, True, "bwrap")
    namespaces = {"--unshare-all", "--die-with-parent", "--new-session", "--cap-drop"}
    assert namespaces <= set(words), sorted(namespaces - set(words))
    assert words[-3:-1] == ["bash", "-c"], words[-3:-1]
    tail = shlex.join(["bash", "-c", words[-1]])
    return f"$CONTAINED({first['label']}) --timeout {timeout['seconds']} -- {tail}"


def canonical_answer(value: Any) -> Any:
    """``value`` (a hook's JSON answer) with every prepared line made :func:`canonical`."""
    if isinstance(value, str):
        return canonical(value)
    if isinstance(value, dict):
        return {k: canonical_answer(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical_answer(v) for v in value]
    return value
