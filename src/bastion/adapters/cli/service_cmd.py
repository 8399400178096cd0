"""``bastion service install [--user] [--print] [--enable]`` and ``bastion service status``.

``install`` prints the hardened unit first (see ``service_unit``), then writes it (``--print``:
only prints; ``--enable``: also reloads systemd and enables and starts it). ``status`` says
whether the unit is installed and active. Exit codes: 0 done / active, 2 usage or an error
(with a hint), 3 installed but not active, 4 not installed.
"""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
import sys
from typing import Annotated

import typer

from bastion.adapters.cli.common import JsonOption, fail, print_json, stderr
from bastion.adapters.cli.service_unit import UNIT_NAME, ServiceFacts, machine_memory, render_unit, unit_path
from bastion.policy.sources import state_dir_from

EXIT_INACTIVE, EXIT_MISSING = 3, 4
UserOption = Annotated[bool, typer.Option("--user", help="A systemd --user unit (no root needed).")]
PrintOption = Annotated[bool, typer.Option("--print", help="Only print the unit; write nothing.")]
EnableOption = Annotated[bool, typer.Option("--enable", help="Also enable and start it now.")]


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="Run bastion serve as a hardened systemd service.", no_args_is_help=True)
    group.command("install", help="Print, then write, the systemd unit for bastion serve.")(install)
    group.command("status", help="Is the unit installed and running? (exit 0 active, 3 inactive, "
                                 "4 not installed)")(status)  # fmt: skip
    app.add_typer(group, name="service")


WorkspaceOption = Annotated[
    str | None,
    typer.Option(
        "--workspace", help="The project folder the service guards (default: the current directory)."
    ),
]


def facts(user_unit: bool, workspace: str | None = None) -> ServiceFacts:
    exe = shutil.which("bastion") or os.path.join(os.path.dirname(sys.executable), "bastion")
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return ServiceFacts(
        executable=os.path.abspath(exe), state_dir=state_dir_from(os.environ), memory_bytes=machine_memory(),
        user_unit=user_unit, user=os.environ.get("SUDO_USER") or getpass.getuser(), home=home,
        workspace=os.path.abspath(os.path.expanduser(workspace or os.getcwd())),
    )  # fmt: skip


def _systemctl(user_unit: bool, *args: str) -> subprocess.CompletedProcess[str]:
    command = ["systemctl", *(["--user"] if user_unit else []), *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        fail(f"cannot run {' '.join(command)}: {exc}", hint="is systemd running on this machine?")


def install(
    user: UserOption = False,
    print_only: PrintOption = False,
    enable: EnableOption = False,
    workspace: WorkspaceOption = None,
) -> None:
    if print_only and enable:
        fail("--print writes nothing, so it cannot --enable", hint="drop one of the two")
    about = facts(user, workspace)
    if not os.path.isdir(about.workspace):
        fail(
            f"--workspace {about.workspace} is not a folder",
            hint="give the project folder your agents work in",
        )
    text = render_unit(about)
    sys.stdout.write(text)
    sys.stdout.flush()
    if print_only:
        return
    path = unit_path(about)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.makedirs(about.state_dir, mode=0o700, exist_ok=True)  # ReadWritePaths must exist
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}",
             hint="a system unit needs root: run with sudo, or use --user")  # fmt: skip
    stderr.print(f"wrote {path}", soft_wrap=True, markup=False)
    if not enable:
        scope = "--user " if user else ""
        stderr.print(f"next: systemctl {scope}daemon-reload && systemctl {scope}enable --now {UNIT_NAME}",
                     soft_wrap=True, markup=False)  # fmt: skip
        return
    for step in (("daemon-reload",), ("enable", "--now", UNIT_NAME)):
        done = _systemctl(user, *step)
        if done.returncode != 0:
            fail(f"systemctl {' '.join(step)} failed: {done.stderr.strip()[:300]}",
                 hint=f"see journalctl {'--user ' if user else ''}-u {UNIT_NAME}")  # fmt: skip
    stderr.print(f"enabled and started {UNIT_NAME}", soft_wrap=True, markup=False)


def status(user: UserOption = False, json_out: JsonOption = False) -> None:
    path = unit_path(facts(user))
    installed = os.path.exists(path)
    active = installed and _systemctl(user, "is-active", UNIT_NAME).stdout.strip() == "active"
    state = "active" if active else ("inactive" if installed else "not installed")
    if json_out:
        print_json({"unit": path, "installed": installed, "active": active, "state": state})
    else:
        sys.stdout.write(f"{UNIT_NAME}: {state} ({path})\n")
        if not installed:
            stderr.print(f"hint: bastion service install {'--user ' if user else ''}--enable",
                         soft_wrap=True, markup=False)  # fmt: skip
    if not installed:
        raise typer.Exit(EXIT_MISSING)
    if not active:
        raise typer.Exit(EXIT_INACTIVE)
