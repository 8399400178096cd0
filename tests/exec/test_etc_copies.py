"""The /etc allow-list in the mount plan: its readable files are copied in, the rest bound."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.exec import bubblewrap
from bastion.exec.bubblewrap import Mount, _etc_mount


def test_a_readable_file_is_copied_with_its_mode_and_a_directory_is_bound(tmp_path: Path) -> None:
    conf = tmp_path / "gai.conf"
    conf.write_text("x\n")
    conf.chmod(0o640)

    copied, bound = _etc_mount(str(conf), os.stat(conf)), _etc_mount(str(tmp_path), os.stat(tmp_path))

    depth = len(conf.parts)
    assert copied == Mount(depth, 1, str(conf), "file", str(conf), perms=0o640)
    assert copied.args(12) == ["--perms", "0640", "--file", "12", str(conf)]
    assert bound == Mount(depth - 1, 1, str(tmp_path), "ro-bind", str(tmp_path))


def test_a_file_this_user_cannot_read_stays_a_bind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "shadowish"
    secret.write_text("x\n")
    monkeypatch.setattr(bubblewrap.os, "access", lambda path, mode: False)

    mount = _etc_mount(str(secret), os.stat(secret))

    assert mount == Mount(len(secret.parts), 1, str(secret), "ro-bind", str(secret))
