"""What a prepared run's launcher does once bwrap exits: the protected paths it created go.

A contained run may create what an agent or an editor would load and run later, uncontained:
a ``.claude/settings.json``, a ``.vscode/tasks.json``, an ``.envrc``. The sandbox cannot keep a
path that does not exist read-only, so ``boundary.build_spec`` lists them (``spec.swept``) and
someone must move whatever the run made there to the quarantine. ``bastion sandbox run`` does
it in Python after its run; a prepared line (``exec/prepared.py``) has no Python, and the
settle that follows it may come only with the agent's next call, or its next session. So the
launcher does it itself, the moment bwrap exits and before the agent sees the result: a few
lines of bash that read the list from the run's ``.sweep`` file (NUL-separated, 0400, under
the state dir no gated call can write) and move each path that now exists, with ``mkdir``,
``mv`` and ``rm`` named by absolute path. What it could not move it removes: it must not stay
where it would run. Settle still reports what was moved and sweeps anything left.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LauncherSweep:
    """The sweep of one prepared run: its list file, its quarantine folder, the movers."""

    list_path: str
    #: ``<quarantine>/<run id>``: settle finds there what the launcher moved.
    into: str
    mkdir: str
    mv: str
    rm: str

    def lines(self) -> list[str]:
        """Bash that moves every listed path that exists now (run after bwrap, ``$r`` its exit)."""
        q = shlex.quote
        mkdir, mv, rm = q(self.mkdir), q(self.mv), q(self.rm)
        return [
            f"mapfile -d '' -t s <{q(self.list_path)}; for p in \"${{s[@]}}\"; do "
            f"[[ -e $p || -L $p ]] || continue; d={q(self.into)}/${{p#/}}; "
            f'{mkdir} -p -- "${{d%/*}}" && {mv} -f -T -- "$p" "$d" || {rm} -rf -- "$p"; done',
        ]

    def write(self, paths: Sequence[str]) -> None:
        """The list file, read-only, made once (an existing file is never reused)."""
        write_once(self.list_path, b"".join(os.fsencode(p) + b"\0" for p in paths))


def moved_by_launcher(quarantine: str, run_id: str, swept: Sequence[str]) -> tuple[str, ...]:
    """The listed paths the launcher of ``run_id`` moved into ``quarantine``."""
    into = os.path.join(quarantine, run_id)
    return tuple(p for p in swept if os.path.lexists(os.path.join(into, p.lstrip("/"))))


def write_once(path: str, data: bytes) -> None:
    """A read-only file of a run's, created (never reused: ``O_EXCL``) under a 0700 folder."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o400)
    with open(fd, "wb") as handle:
        handle.write(data)
