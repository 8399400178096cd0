"""``bastion service install|status``: a hardened unit, printed first, written where systemd
looks, enabled through systemctl (a recording fake here), with exit codes scripts can use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bastion.adapters.cli.service_unit import ServiceFacts, memory_high, render_unit, unit_path

FACTS = ServiceFacts(executable="/opt/bastion venv/bin/bastion", state_dir="/home/me/.local/state/bastion",
                     memory_bytes=16 * 1024**3, user_unit=True, user="me", home="/home/me",
                     workspace="/home/me/my project")  # fmt: skip


def test_the_unit_is_hardened_guards_its_workspace_writes_only_the_state_dir_and_caps_memory() -> None:
    assert render_unit(FACTS) == (
        "[Unit]\n"
        "Description=Bastion: the permission gate for AI-agent tool calls\n"
        "After=network.target\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        "WorkingDirectory=/home/me/my project\n"
        "ExecStart='/opt/bastion venv/bin/bastion' serve --workspace '/home/me/my project'\n"
        "Environment=BASTION_STATE_DIR=/home/me/.local/state/bastion\n"
        "Environment=HOME=/home/me\n"
        "Restart=on-failure\n"
        "RestartSec=2\n"
        "UMask=0077\n"
        "NoNewPrivileges=yes\n"
        "ProtectSystem=strict\n"
        "ProtectControlGroups=yes\n"
        "ProtectKernelModules=yes\n"
        "ProtectKernelTunables=yes\n"
        "PrivateTmp=yes\n"
        "ReadWritePaths=/home/me/.local/state/bastion\n"
        "RestrictSUIDSGID=yes\n"
        "RestrictRealtime=yes\n"
        "LockPersonality=yes\n"
        "SystemCallArchitectures=native\n"
        "MemoryHigh=13107M\n"
        "\n"
        "[Install]\n"
        "WantedBy=default.target\n"
    )


def test_a_system_unit_runs_as_the_user_and_lives_in_etc() -> None:
    system = ServiceFacts(
        FACTS.executable, FACTS.state_dir, FACTS.memory_bytes, False, "me", "/home/me", "/srv/p"
    )
    text = render_unit(system)
    assert "User=me\n" in text and "WantedBy=multi-user.target\n" in text
    assert unit_path(system) == "/etc/systemd/system/bastion.service"
    assert unit_path(FACTS) == "/home/me/.config/systemd/user/bastion.service"
    assert memory_high(1024**3) == "819M" and memory_high(1) == "64M"


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    log = tmp_path / "systemctl.log"
    systemctl = fake_bin / "systemctl"
    # A recording systemctl: is-active answers from a file the test writes.
    systemctl.write_text(f"#!/bin/sh\necho \"$@\" >> {log}\n"
                         f"if [ \"$2\" = is-active ]; then cat {tmp_path}/active 2>/dev/null || echo inactive; fi\n")  # fmt: skip
    systemctl.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    return {**{k: v for k, v in os.environ.items() if not k.startswith("BASTION_")}, "HOME": str(home),
            "BASTION_STATE_DIR": str(tmp_path / "state"), "PATH": f"{fake_bin}:{os.environ['PATH']}"}  # fmt: skip


def bastion(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bastion.adapters.cli.main", "service", *args],
                          capture_output=True, text=True, env=env, timeout=60)  # fmt: skip


def test_print_only_prints_the_unit_and_writes_nothing(cli_env: dict[str, str]) -> None:
    done = bastion(cli_env, "install", "--user", "--print")
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.startswith("[Unit]\n") and "ReadWritePaths=" + cli_env["BASTION_STATE_DIR"] in done.stdout
    )
    assert not (Path(cli_env["HOME"]) / ".config").exists()


def test_install_enable_writes_the_user_unit_then_reloads_and_starts_it(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    done = bastion(cli_env, "install", "--user", "--enable")
    assert done.returncode == 0, done.stderr
    unit = Path(cli_env["HOME"]) / ".config" / "systemd" / "user" / "bastion.service"
    assert unit.read_text() == done.stdout  # printed first, exactly what was written
    assert (tmp_path / "systemctl.log").read_text() == (
        "--user daemon-reload\n--user enable --now bastion.service\n"
    )


def test_status_exit_codes_say_not_installed_inactive_and_active(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    assert bastion(cli_env, "status", "--user").returncode == 4
    assert bastion(cli_env, "install", "--user").returncode == 0
    inactive = bastion(cli_env, "status", "--user")
    assert (inactive.returncode, inactive.stdout.split(":")[1].split("(")[0].strip()) == (3, "inactive")
    (tmp_path / "active").write_text("active\n")
    active = bastion(cli_env, "status", "--user", "--json")
    assert active.returncode == 0
    assert json.loads(active.stdout) == {
        "unit": str(Path(cli_env["HOME"]) / ".config/systemd/user/bastion.service"),
        "installed": True,
        "active": True,
        "state": "active",
    }
