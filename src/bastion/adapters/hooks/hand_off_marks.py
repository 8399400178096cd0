"""A report hook starts Python only while a hand-off waits for its report.

Claude Code runs its ``PostToolUse`` hook after *every* tool call and waits for it before it
sends the tool's result on; the report matters only for an ASK Bastion handed to Claude's own
prompt (``runtime/hand_offs``). Starting the hook's Python for every call costs what a person
feels on each call (≈10 ms on a quiet machine, 30–100 ms under load), so the installed report
command first looks, in the shell, for a *mark*: one empty file per hand-off still open, in
``<state dir>/hand-offs/``. No mark: it exits 0 at once. A mark: it runs the hook, which records
the outcome and removes the marks it settled.

The marks only decide whether the report is read; the ledger stays the record. A mark that
could not be made leaves its hand-off ``requested`` (no report is read for it, so nothing is
claimed that was not seen); a mark left behind (a session killed outright) only costs the
reports their Python start until a later ``Stop`` of that session, or its age, clears it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shlex
import time
from collections.abc import Mapping

from bastion.policy.sources import state_dir_from

#: The folder of marks under the state dir.
FOLDER = "hand-offs"
#: A mark older than this is removed by the next report that runs (a session killed outright).
STALE_SECONDS = 24 * 3600


def marks_dir(env: Mapping[str, str]) -> str:
    return os.path.join(state_dir_from(env), FOLDER)


def _key(text: str) -> str:
    """A file-name-safe, fixed-length key (session and tool-use ids are the agent's strings)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def mark(env: Mapping[str, str], *, session: str | None, agent: str) -> None:
    """Note that the hand-off of ``agent`` (``claude/toolu_…``) in ``session`` awaits a report."""
    folder = marks_dir(env)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    path = os.path.join(folder, f"{_key(session or '')}.{_key(agent)}")
    with open(path, "a", encoding="utf-8"):
        pass


def clear(env: Mapping[str, str], *, session: str | None, agent: str | None = None) -> None:
    """Remove the mark of ``agent``'s hand-off, or every mark of ``session`` (its turn ended),
    and any mark older than :data:`STALE_SECONDS`."""
    folder = marks_dir(env)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    prefix = f"{_key(session or '')}."
    one = None if agent is None else prefix + _key(agent)
    oldest = time.time() - STALE_SECONDS
    for name in names:
        path = os.path.join(folder, name)
        mine = name == one if one is not None else name.startswith(prefix)
        with contextlib.suppress(OSError):
            if mine or os.stat(path).st_mtime < oldest:
                os.unlink(path)


def only_while_marked(command: str) -> str:
    """``command`` run by ``sh`` only when a mark exists (the state dir spelled as the hook
    client spells it: ``BASTION_STATE_DIR``, else ``$HOME/.local/state/bastion``); exit 0 else.
    Builtins only: no process is started when nothing is marked."""
    folder = '"${BASTION_STATE_DIR:-$HOME/.local/state/bastion}/' + FOLDER + '"'
    return f'for m in {folder}/*; do [ -e "$m" ] && {{ {command}; exit 0; }}; break; done; exit 0'


def guarded_report(inner: str) -> str:
    """The installed report command: ``sh -c`` of :func:`only_while_marked` ``inner``."""
    return f"sh -c {shlex.quote(only_while_marked(inner))}"
