"""Repositories built with the real git for the policy's tests: a fixed identity, dates a test
chooses, and neither the system's nor the person's configuration."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

GIT = shutil.which("git")


def git(*args: str, cwd: Path, when: int = 0) -> str:
    """Run git in ``cwd`` (its author and committer dates ``when`` seconds after a fixed
    moment) and return what it printed."""
    date = f"{1_700_000_000 + when} +0000"
    run = subprocess.run(
        [str(GIT), *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(cwd),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_DATE": date,
        },
    )
    return run.stdout.decode()
