"""``bastion install``/``uninstall`` for an agent that loads code (``SettingsStyle.OWN_FILE``:
pi's extension, opencode's plugin): Bastion's own file written where the agent discovers it,
carrying the hook's command line; idempotent, backed up, never over or instead of a file that
is not Bastion's; and doctor failing a file that is not exactly what install wrote."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from bastion.adapters.hooks import own_file
from bastion.adapters.hooks.install import InstallError, install, probe, uninstall
from bastion.adapters.hooks.own_file import hook_of, render
from bastion.adapters.hooks.targets import hook_file
from bastion.agents.registry import hooks_of
from tests.adapters.hooks.conftest import Sandbox

LAUNCHER = ("/opt/py/bin/python", "-S", "/opt/bastion/adapters/hooks/fastpath.py")
#: Where each agent's file goes in the project, and what the agent calls it.
FILES = {
    "pi": (".pi/extensions/bastion.ts", "extension"),
    "opencode": (".opencode/plugin/bastion.js", "plugin"),
}
AGENTS = sorted(FILES)
#: The line of each template that holds the timeout, as rendered for 45 s.
TIMEOUT_LINES = {"pi": "const TIMEOUT_MS: number = 45000;", "opencode": "const TIMEOUT_MS = 45000"}
#: An edit that would let calls through (the agent still loads the file).
EDITS = {
    "pi": ("return { block: true", "return { block: false"),
    "opencode": ("if (code !== 0", "if (false && code !== 0"),
}


def _words(agent: str, timeout: int = 60, launcher: tuple[str, ...] = LAUNCHER) -> list[str]:
    return [*launcher, "hook", agent, "--timeout", str(timeout), "--autostart"]


def _path(sandbox: Sandbox, agent: str) -> Path:
    return sandbox.project / FILES[agent][0]


def _install(sandbox: Sandbox, agent: str, *, timeout: int = 60, dry_run: bool = False) -> list[str]:
    said: list[str] = []
    install(
        agent,
        scope="project",
        cwd=str(sandbox.project),
        env=sandbox.env(),
        executable=LAUNCHER,
        timeout=timeout,
        dry_run=dry_run,
        out=said.append,
    )
    return said


def _uninstall(sandbox: Sandbox, agent: str) -> list[str]:
    said: list[str] = []
    uninstall(agent, scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=said.append)
    return said


def test_the_agents_that_load_code_are_pi_and_opencode() -> None:
    assert sorted(own_file.own_file_agents()) == ["opencode", "pi"]


@pytest.mark.parametrize(
    ("agent", "scope", "env", "expected"),
    [
        ("pi", "project", {"HOME": "/h"}, "/w/.pi/extensions/bastion.ts"),
        ("pi", "user", {"HOME": "/h"}, "/h/.pi/agent/extensions/bastion.ts"),
        ("pi", "user", {"HOME": "/h", "PI_CODING_AGENT_DIR": "/cfg/pi"}, "/cfg/pi/extensions/bastion.ts"),
        ("pi", "user", {"HOME": "/h", "PI_CODING_AGENT_DIR": "~/pi"}, "/h/pi/extensions/bastion.ts"),
        ("opencode", "project", {"HOME": "/h"}, "/w/.opencode/plugin/bastion.js"),
        ("opencode", "user", {"HOME": "/h"}, "/h/.config/opencode/plugin/bastion.js"),
        ("opencode", "user", {"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, "/x/opencode/plugin/bastion.js"),
    ],
)
def test_the_file_goes_where_the_agent_discovers_its_code(
    agent: str, scope: str, env: dict[str, str], expected: str
) -> None:
    assert hook_file(agent, scope=scope, cwd="/w", env=env) == expected


@pytest.mark.parametrize("agent", AGENTS)
def test_the_rendered_file_carries_the_hook_command_and_its_timeout(agent: str) -> None:
    text = render(agent, _words(agent, 45), 45)

    assert hook_of(agent, text) == _words(agent, 45)
    assert TIMEOUT_LINES[agent] in text.splitlines()
    assert "__BASTION_" not in text


@pytest.mark.parametrize("agent", AGENTS)
def test_a_launcher_path_with_quotes_stays_one_string(agent: str) -> None:
    words = _words(agent, launcher=('/opt/it\'s "here"/bastion',))

    assert hook_of(agent, render(agent, words, 60)) == words


@pytest.mark.parametrize("agent", AGENTS)
def test_install_writes_the_file_and_a_second_run_changes_nothing(sandbox: Sandbox, agent: str) -> None:
    first = _install(sandbox, agent)
    second = _install(sandbox, agent)

    path = _path(sandbox, agent)
    notes = list(hooks_of(agent).install_notes)
    assert path.read_text() == render(agent, _words(agent), 60)
    assert first == [
        f"wrote {path}",
        f"installed: {agent} now asks Bastion before every tool call ({shlex.join(_words(agent))}).",
        *notes,
    ]
    assert second == [f"{path}: Bastion's {FILES[agent][1]} is already installed; nothing to change"]
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


@pytest.mark.parametrize("agent", AGENTS)
def test_reinstalling_with_another_timeout_rewrites_the_file_and_keeps_a_backup(
    sandbox: Sandbox, agent: str
) -> None:
    _install(sandbox, agent)
    path = _path(sandbox, agent)
    old = path.read_text()

    said = _install(sandbox, agent, timeout=30)

    backups = [p for p in path.parent.iterdir() if p.name.startswith(f"{path.name}.bastion-backup-")]
    assert [b.read_text() for b in backups] == [old]
    assert said[0] == f"updated {path}"
    assert said[2] == f"backup: {backups[0]}"
    assert hook_of(agent, path.read_text()) == _words(agent, 30)
    assert path.read_text() == render(agent, _words(agent, 30), 30)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_dry_run_writes_nothing(sandbox: Sandbox, agent: str) -> None:
    said = _install(sandbox, agent, dry_run=True)

    path = _path(sandbox, agent)
    assert not path.parent.exists()
    assert said == [f"{path}: would write Bastion's {FILES[agent][1]}", "(dry run: nothing written)"]


@pytest.mark.parametrize("agent", AGENTS)
def test_a_file_bastion_did_not_write_is_neither_overwritten_nor_removed(
    sandbox: Sandbox, agent: str
) -> None:
    path = _path(sandbox, agent)
    path.parent.mkdir(parents=True)
    path.write_text("export default function () {}\n")
    refused = f"{path} is not Bastion's {FILES[agent][1]}; move it away first, nothing was changed"

    with pytest.raises(InstallError) as installing:
        _install(sandbox, agent)
    with pytest.raises(InstallError) as uninstalling:
        _uninstall(sandbox, agent)

    assert (str(installing.value), str(uninstalling.value)) == (refused, refused)
    assert path.read_text() == "export default function () {}\n"


@pytest.mark.parametrize("agent", AGENTS)
def test_uninstall_removes_bastions_file_and_then_has_nothing_to_remove(sandbox: Sandbox, agent: str) -> None:
    _install(sandbox, agent)

    said = _uninstall(sandbox, agent) + _uninstall(sandbox, agent)

    path = _path(sandbox, agent)
    assert not path.exists()
    assert said == [
        f"removed {path}",
        f"uninstalled: {agent} no longer asks Bastion",
        f"{path}: no Bastion {FILES[agent][1]} to remove",
    ]


@pytest.mark.parametrize(
    ("agent", "text"),
    [
        ("pi", '// mine\nconst HOOK: string[] = ["/bin/true"];\n'),
        ("pi", "MARK\nconst HOOK: string[] = [];\n"),
        ("pi", "MARK\nconst HOOK: string[] = [1];\n"),
        ("pi", 'MARK\nconst HOOK: string[] = ["a"\n'),
        ("pi", "MARK\n"),
        ("opencode", ""),
        (
            "opencode",
            '// mine\nconst BASTION_HOOK = "[\\"/bin/true\\"]" // the command, as a JSON array of words\n',
        ),
        ("opencode", "MARK\nconst BASTION_HOOK = nonsense // the command, as a JSON array of words\n"),
        ("opencode", 'MARK\nconst BASTION_HOOK = "[1]" // the command, as a JSON array of words\n'),
        ("opencode", 'MARK\nconst BASTION_HOOK = ["/bin/true"] // the command, as a JSON array of words\n'),
        ("opencode", 'MARK\nconst BASTION_HOOK = "[\\"/bin/true\\"]"\n'),
    ],
)
def test_only_a_well_formed_bastion_file_names_a_hook(agent: str, text: str) -> None:
    assert hook_of(agent, text.replace("MARK", own_file.marker(agent))) is None


def _doctor(sandbox: Sandbox) -> list[tuple[str, bool, str]]:
    """Without the agents on PATH: whether pi loads the file is ``test_e2e_pi.py``'s."""
    return own_file.doctor_checks(str(sandbox.project), sandbox.env(PATH="/usr/bin:/bin"), probe)


@pytest.mark.parametrize("agent", AGENTS)
def test_doctor_fails_a_changed_file_and_someone_elses(sandbox: Sandbox, agent: str) -> None:
    _install(sandbox, agent)
    path = _path(sandbox, agent)
    old, new = EDITS[agent]
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))

    changed = _doctor(sandbox)
    path.write_text("export default function () {}\n")
    foreign = _doctor(sandbox)

    name = f"hook {agent} ({path})"
    kind = FILES[agent][1]
    assert changed == [
        (name, False, f"the {kind} file was changed or is damaged: re-run bastion install {agent}")
    ]
    assert foreign == [
        (name, False, f"{path} is not Bastion's {kind}; move it away first, nothing was changed")
    ]


@pytest.mark.parametrize("agent", AGENTS)
def test_doctor_fails_a_hook_that_cannot_start(sandbox: Sandbox, agent: str) -> None:
    _install(sandbox, agent)  # LAUNCHER is not on this machine

    assert _doctor(sandbox) == [
        (
            f"hook {agent} ({_path(sandbox, agent)})",
            False,
            f"{LAUNCHER[0]} is not executable: re-run bastion install {agent}",
        )
    ]


@pytest.mark.parametrize("agent", AGENTS)
def test_doctor_probes_an_intact_files_command_and_sees_it_deny(sandbox: Sandbox, agent: str) -> None:
    install(agent, scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lambda _: None)

    [(name, ok, detail)] = _doctor(sandbox)  # the real launcher of this interpreter

    unchecked = "; pi is not on PATH, so whether pi loads the file was not checked" if agent == "pi" else ""
    assert (
        name,
        ok,
        detail.startswith("denies a probe 'rm -rf /' in "),
        detail.endswith(f" ms{unchecked}"),
    ) == (
        f"hook {agent} ({_path(sandbox, agent)})",
        True,
        True,
        True,
    )
