"""Time of check vs time of use in read/write/edit (issue 15, "TOCTOU in write/edit"): an
approved write to ``…/drop/authorized_keys`` must not land in ``~/.ssh/`` when ``drop`` is
swapped for a symlink while the call is parked. Run with openat2 and with the O_NOFOLLOW
walk (kernels without openat2)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.tools import pinned
from tests.tools.conftest import ToolsFactory, run


class ParkingAuthorizer:
    """Allows every call, but first runs ``meanwhile`` — what happens while a person thinks."""

    def __init__(self, meanwhile: Callable[[], None]) -> None:
        self.meanwhile = meanwhile

    async def request(self, call: ToolCall) -> Evaluation:
        self.meanwhile()
        reason = Reason(Decision.ALLOW, "approval.person", "test", "", "approved once by a person")
        return Evaluation(Decision.ALLOW, (reason,))

    def record_execution(
        self, call: ToolCall, evaluation: Evaluation, exit_code: int | None, duration: float
    ) -> None:
        return None


@pytest.fixture(params=["openat2", "nofollow-walk"])
def implementation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "openat2":
        if not pinned.openat2().available:
            pytest.skip("this kernel has no openat2")
    else:
        monkeypatch.setattr(pinned, "_OPENAT2", SimpleNamespace(available=False))
    yield request.param


def swap_for_symlink(folder: Path, target: Path) -> Callable[[], None]:
    def swap() -> None:
        folder.rename(folder.with_name(folder.name + ".old"))
        folder.symlink_to(target, target_is_directory=True)

    return swap


def test_an_approved_write_does_not_follow_a_folder_swapped_for_a_symlink_while_parked(
    make_tools: ToolsFactory, workspace: Path, home: Path, implementation: str
) -> None:
    (workspace / "drop").mkdir()
    tools = make_tools(authorizer=ParkingAuthorizer(swap_for_symlink(workspace / "drop", home / ".ssh")))

    result = run(tools["write"], {"path": "drop/authorized_keys", "content": "ssh-ed25519 AAAA attacker\n"})

    assert (result["ok"], result["decision"]) == (False, "allow")
    assert result["message"].startswith(
        f"{workspace}/drop/authorized_keys: the path changed while the call waited"
    )
    assert sorted(p.name for p in (home / ".ssh").iterdir()) == ["id_rsa"]
    assert list((workspace / "drop.old").iterdir()) == []


def test_an_approved_edit_does_not_follow_a_folder_swapped_for_a_symlink_while_parked(
    make_tools: ToolsFactory, workspace: Path, home: Path, implementation: str
) -> None:
    (workspace / "drop").mkdir()
    (workspace / "drop" / "config").write_text("key = 1\n")
    (home / ".ssh" / "config").write_text("key = 1\n")
    tools = make_tools(authorizer=ParkingAuthorizer(swap_for_symlink(workspace / "drop", home / ".ssh")))

    result = run(tools["edit"], {"path": "drop/config", "old_string": "key = 1", "new_string": "key = 2"})

    assert (result["ok"], (home / ".ssh" / "config").read_text()) == (False, "key = 1\n")
    assert (workspace / "drop.old" / "config").read_text() == "key = 1\n"


def test_a_folder_replaced_by_another_real_folder_while_parked_is_refused(
    make_tools: ToolsFactory, workspace: Path, implementation: str
) -> None:
    (workspace / "drop").mkdir()

    def replace() -> None:
        (workspace / "drop").rename(workspace / "drop.old")
        (workspace / "drop").mkdir()

    result = run(
        make_tools(authorizer=ParkingAuthorizer(replace))["write"], {"path": "drop/f", "content": "x"}
    )

    assert (result["ok"], result["message"]) == (
        False,
        f"{workspace}/drop/f: {workspace}/drop was replaced while the call waited; nothing was done",
    )
    assert (list((workspace / "drop").iterdir()), list((workspace / "drop.old").iterdir())) == ([], [])


def test_a_write_whose_file_becomes_a_symlink_while_parked_replaces_nothing_outside(
    make_tools: ToolsFactory, workspace: Path, home: Path, implementation: str
) -> None:
    (workspace / "notes.txt").write_text("mine\n")

    def swap() -> None:
        (workspace / "notes.txt").unlink()
        (workspace / "notes.txt").symlink_to(home / ".ssh" / "id_rsa")

    result = run(
        make_tools(authorizer=ParkingAuthorizer(swap))["write"], {"path": "notes.txt", "content": "x"}
    )

    assert result["ok"] is False
    assert (home / ".ssh" / "id_rsa").read_text() == "PRIVATE KEY"
    assert (workspace / "notes.txt").is_symlink()


def test_a_read_does_not_follow_a_symlink_swapped_in_after_the_decision(
    make_tools: ToolsFactory, workspace: Path, home: Path, implementation: str
) -> None:
    (workspace / "notes.txt").write_text("mine\n")

    def swap() -> None:
        (workspace / "notes.txt").unlink()
        (workspace / "notes.txt").symlink_to(home / ".ssh" / "id_rsa")

    result = run(make_tools(authorizer=ParkingAuthorizer(swap))["read"], {"path": "notes.txt"})

    assert (result["ok"], result["stdout"]) == (False, "")
    assert "PRIVATE KEY" not in result["message"]


def test_a_write_is_atomic_keeps_the_mode_and_leaves_no_temp_file(
    make_tools: ToolsFactory, workspace: Path, implementation: str
) -> None:
    secret = workspace / "local.cfg"
    secret.write_text("old\n")
    secret.chmod(0o600)

    result = run(
        make_tools(authorizer=ParkingAuthorizer(lambda: None))["write"],
        {"path": "local.cfg", "content": "new\n"},
    )

    assert (result["ok"], result["data"]["created"]) == (True, False)
    assert (secret.read_text(), stat.S_IMODE(secret.stat().st_mode)) == ("new\n", 0o600)
    assert sorted(p.name for p in workspace.iterdir()) == ["README.md", "local.cfg", "src"]


def test_an_edit_through_a_symlink_inside_the_workspace_edits_its_target_and_keeps_the_link(
    make_tools: ToolsFactory, workspace: Path, implementation: str
) -> None:
    (workspace / "link.py").symlink_to(workspace / "src" / "app.py")

    result = run(
        make_tools()["edit"], {"path": "link.py", "old_string": "print(1)", "new_string": "print(2)"}
    )

    assert result["ok"] is True
    assert ((workspace / "link.py").is_symlink(), (workspace / "src" / "app.py").read_text()) == (
        True,
        "print(2)\n",
    )


def test_a_write_creates_missing_parents_under_the_pinned_directory(
    make_tools: ToolsFactory, workspace: Path, implementation: str
) -> None:
    result = run(make_tools()["write"], {"path": "a/b/c.txt", "content": "x"})

    assert (result["ok"], (workspace / "a" / "b" / "c.txt").read_text()) == (True, "x")


def test_open_dir_refuses_a_symlink_anywhere_on_the_path(tmp_path: Path, implementation: str) -> None:
    (tmp_path / "real" / "inner").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")

    fd = pinned.open_dir(str(tmp_path / "real" / "inner"))
    os.close(fd)
    with pytest.raises(OSError) as caught:
        pinned.open_dir(str(tmp_path / "link" / "inner"))
    assert caught.value.errno in (40, 20)  # ELOOP (openat2, O_NOFOLLOW) or ENOTDIR
