"""After a contained run: the protected paths it created go to the quarantine, the protected
symlinks it replaced come back (``exec/protected.py`` plans which; ``launcher_sweep`` does the
same in bash for a prepared run the moment bwrap exits)."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Sequence


def sweep(paths: Sequence[str], quarantine: str) -> tuple[str, ...]:
    """Move every protected path the run created into ``quarantine``; the moved paths."""
    moved = []
    stamp = f"{time.time_ns()}"
    for path in paths:
        if not os.path.lexists(path):
            continue
        target = os.path.join(quarantine, stamp, path.lstrip("/"))
        try:
            os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
            shutil.move(path, target)
        except OSError:
            _remove(path)  # it must not stay where it would run: lose it rather than keep it
        moved.append(path)
    return tuple(moved)


def restore_links(links: Sequence[tuple[str, str]], quarantine: str) -> tuple[str, ...]:
    """Put back every protected symlink the run removed or replaced (what replaced it goes
    to ``quarantine``); the paths restored."""
    restored = []
    for path, target in links:
        with contextlib.suppress(OSError):
            if os.path.islink(path) and os.readlink(path) == target:
                continue
        sweep([path], quarantine)
        with contextlib.suppress(OSError):
            os.symlink(target, path)
        restored.append(path)
    return tuple(restored)


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)
