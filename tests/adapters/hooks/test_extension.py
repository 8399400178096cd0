"""``bastion install pi`` / ``uninstall pi`` (``SettingsStyle.EXTENSION``): Bastion's own file
written where the agent discovers extensions, carrying the hook's command line; idempotent,
backed up, never over a file that is not Bastion's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.adapters.hooks import extension
from bastion.adapters.hooks.extension import ExtensionError, installed_hook, render
from bastion.adapters.hooks.targets import hook_file
from tests.adapters.hooks.conftest import Sandbox

MARKER = extension.marker("pi")
LAUNCHER = ("/opt/py/bin/python", "-S", "/opt/bastion/adapters/hooks/fastpath.py")


def _install(sandbox: Sandbox, lines: list[str], **options: object) -> Path:
    written = extension.install(
        "pi",
        scope=str(options.get("scope", "project")),
        cwd=str(sandbox.project),
        env=sandbox.env(),
        executable=LAUNCHER,
        timeout=int(str(options.get("timeout", 60))),
        dry_run=bool(options.get("dry_run", False)),
        out=lines.append,
    )
    return Path(written.path)


@pytest.mark.parametrize(
    ("scope", "env", "expected"),
    [
        ("project", {"HOME": "/h"}, "/w/.pi/extensions/bastion.ts"),
        ("user", {"HOME": "/h"}, "/h/.pi/agent/extensions/bastion.ts"),
        ("user", {"HOME": "/h", "PI_CODING_AGENT_DIR": "/cfg/pi"}, "/cfg/pi/extensions/bastion.ts"),
        ("user", {"HOME": "/h", "PI_CODING_AGENT_DIR": "~/pi"}, "/h/pi/extensions/bastion.ts"),
    ],
)
def test_the_extension_goes_where_pi_discovers_extensions(
    scope: str, env: dict[str, str], expected: str
) -> None:
    assert hook_file("pi", scope=scope, cwd="/w", env=env) == expected


def test_the_rendered_extension_carries_the_hook_command_and_its_timeout() -> None:
    text = render("pi", LAUNCHER, timeout=45)

    assert installed_hook("pi", text) == [*LAUNCHER, "hook", "pi", "--timeout", "45", "--autostart"]
    assert "const TIMEOUT_MS: number = 45000;" in text.splitlines()
    assert "__BASTION_" not in text


def test_a_launcher_path_with_quotes_stays_one_json_string() -> None:
    text = render("pi", '/opt/it\'s "here"/bastion', timeout=60)

    assert installed_hook("pi", text) == [
        '/opt/it\'s "here"/bastion',
        "hook",
        "pi",
        "--timeout",
        "60",
        "--autostart",
    ]


def test_install_writes_the_file_and_a_second_run_changes_nothing(sandbox: Sandbox) -> None:
    first: list[str] = []
    second: list[str] = []

    path = _install(sandbox, first)
    _install(sandbox, second)

    assert path == sandbox.project / ".pi" / "extensions" / "bastion.ts"
    assert path.read_text() == render("pi", LAUNCHER, timeout=60)
    assert first[-2] == f"installed: pi now asks Bastion before every tool call ({path})."
    assert second == [f"{path}: Bastion's extension is already installed; nothing to change"]
    assert sorted(p.name for p in path.parent.iterdir()) == ["bastion.ts"]


def test_reinstalling_with_another_timeout_keeps_a_backup_of_the_old_file(sandbox: Sandbox) -> None:
    path = _install(sandbox, [])
    old = path.read_text()

    _install(sandbox, [], timeout=120)

    backups = [p for p in path.parent.iterdir() if p.name.startswith("bastion.ts.bastion-backup-")]
    assert [b.read_text() for b in backups] == [old]
    assert installed_hook("pi", path.read_text()) == [
        *LAUNCHER,
        "hook",
        "pi",
        "--timeout",
        "120",
        "--autostart",
    ]


def test_a_dry_run_writes_nothing(sandbox: Sandbox) -> None:
    lines: list[str] = []

    path = _install(sandbox, lines, dry_run=True)

    assert not path.exists()
    assert lines[-1] == "(dry run: nothing written)"


def test_install_never_overwrites_a_bastion_ts_it_did_not_write(sandbox: Sandbox) -> None:
    path = sandbox.project / ".pi" / "extensions" / "bastion.ts"
    path.parent.mkdir(parents=True)
    path.write_text("export default function () {}\n")

    with pytest.raises(ExtensionError) as info:
        _install(sandbox, [])

    assert str(info.value) == f"{path} exists and is not Bastion's extension; nothing was changed"
    assert path.read_text() == "export default function () {}\n"


def test_uninstall_removes_only_bastions_extension(sandbox: Sandbox) -> None:
    path = _install(sandbox, [])
    lines: list[str] = []

    extension.uninstall("pi", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lines.append)
    extension.uninstall("pi", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lines.append)

    assert not path.exists()
    assert lines[1:] == ["uninstalled: pi no longer asks Bastion", f"{path}: no Bastion extension to remove"]


def test_uninstall_leaves_a_foreign_bastion_ts_alone(sandbox: Sandbox) -> None:
    path = sandbox.project / ".pi" / "extensions" / "bastion.ts"
    path.parent.mkdir(parents=True)
    path.write_text("// mine\n")

    extension.uninstall(
        "pi", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lambda _: None
    )

    assert path.read_text() == "// mine\n"


@pytest.mark.parametrize(
    "text",
    [
        '// mine\nconst HOOK: string[] = ["/bin/true"];\n',
        "// Bastion's permission gate for pi\nconst HOOK: string[] = [];\n",
        "// Bastion's permission gate for pi\nconst HOOK: string[] = [1];\n",
        '// Bastion\'s permission gate for pi\nconst HOOK: string[] = ["a"\n',
        "// Bastion's permission gate for pi\n",
    ],
)
def test_only_a_well_formed_bastion_extension_names_a_hook(text: str) -> None:
    assert installed_hook("pi", text) is None
