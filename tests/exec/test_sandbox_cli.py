"""``bastion sandbox run``: the command a contained hook call runs (a real process)."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from bastion.audit.ledger import Ledger
from bastion.configuration import Configuration, load_policy
from bastion.construct import open_gatekeeper
from bastion.exec.prepared import runs_dir
from bastion.exec.settle import Settled, settle
from tests.adapters.hooks.conftest import bastion_exe
from tests.exec.sandbox_helpers import require_bwrap


@pytest.fixture
def cli_env(env: dict[str, str]) -> dict[str, str]:
    require_bwrap()
    source = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    return {**env, "PATH": "/usr/local/bin:/usr/bin:/bin", **source}


def _run(workspace: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([bastion_exe(), "sandbox", "run", *args], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_a_workspace_write_run_writes_the_workspace_and_nothing_protected(
    workspace: Path, cli_env: dict[str, str]
) -> None:
    (workspace / ".envrc").write_text("ok\n")

    done = _run(workspace, cli_env, "--profile", "workspace-write", "--", "bash", "-c",
                "echo hi > made; echo bad >> .envrc; echo rc=$?")  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr  # what failed, if the run did
    assert (workspace / "made").read_text() == "hi\n"
    assert done.stdout == "rc=1\n"
    assert (workspace / ".envrc").read_text() == "ok\n"


#: What planted in a package environment runs later, unreviewed and uncontained: a ``.pth``
#: file (every Python of the venv, the editor's included), the venv's interpreter, a launcher.
PLANTS = (
    "echo 'import os' > .venv/lib/python3/site-packages/zz.pth",
    "echo evil > .venv/bin/python",
    "echo evil > node_modules/.bin/eslint",
    "echo evil > web/node_modules/.bin/tsc",
    "mv node_modules nm",
)


def _package_environments(workspace: Path) -> None:
    (workspace / ".venv/lib/python3/site-packages").mkdir(parents=True)
    (workspace / ".venv/bin").mkdir()
    (workspace / ".venv/bin/python").write_text("real\n")
    (workspace / ".venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    for bin_dir in (workspace / "node_modules/.bin", workspace / "web/node_modules/.bin"):
        bin_dir.mkdir(parents=True)
    (workspace / "node_modules/.bin/eslint").write_text("real\n")


def test_a_workspace_code_run_writes_the_workspace_but_no_package_environment(
    workspace: Path, cli_env: dict[str, str]
) -> None:
    _package_environments(workspace)
    script = "; ".join(f"{plant} 2>/dev/null; echo $?" for plant in (*PLANTS, "echo made > src.py"))

    done = _run(workspace, cli_env, "--profile", "workspace-code", "--", "bash", "-c", script)

    assert done.stdout.split() == ["1"] * len(PLANTS) + ["0"], done.stderr
    assert (workspace / "src.py").read_text() == "made\n"
    planted = (".venv/lib/python3/site-packages/zz.pth", "web/node_modules/.bin/tsc", "nm")
    assert [name for name in planted if (workspace / name).exists()] == []
    assert (
        (workspace / ".venv/bin/python").read_text()
        == (workspace / "node_modules/.bin/eslint").read_text()
        == "real\n"
    )


def test_a_workspace_write_run_may_write_its_package_environments(
    workspace: Path, cli_env: dict[str, str]
) -> None:
    _package_environments(workspace)

    done = _run(workspace, cli_env, "--profile", "workspace-write", "--", "bash", "-c", "; ".join(PLANTS[:3]))

    assert done.returncode == 0, done.stderr
    assert (workspace / ".venv/lib/python3/site-packages/zz.pth").exists()
    assert (workspace / "node_modules/.bin/eslint").read_text() == "evil\n"


def test_a_read_only_run_writes_nothing(workspace: Path, cli_env: dict[str, str]) -> None:
    done = _run(workspace, cli_env, "--profile", "read-only", "--", "bash", "-c", "echo hi > made")

    assert done.returncode == 1
    assert "Read-only file system" in done.stderr
    assert not (workspace / "made").exists()


def test_the_command_s_exit_status_and_output_come_through(workspace: Path, cli_env: dict[str, str]) -> None:
    done = _run(
        workspace, cli_env, "--profile", "read-only", "--", "bash", "-c", "echo out; echo err >&2; exit 7"
    )

    assert (done.returncode, done.stdout, done.stderr) == (7, "out\n", "err\n")


def test_a_run_killed_at_its_timeout_exits_124(workspace: Path, cli_env: dict[str, str]) -> None:
    done = _run(workspace, cli_env, "--profile", "read-only", "--timeout", "1", "--", "sleep", "30")

    assert done.returncode == 124


def test_every_contained_run_is_a_ledger_record_of_metadata_only(
    workspace: Path, cli_env: dict[str, str], env: dict[str, str]
) -> None:
    _run(workspace, cli_env, "--profile", "workspace-write", "--", "bash", "-c", "echo s3cr3t-word > f")

    policy = load_policy(None, cwd=str(workspace), env=env)
    with open_gatekeeper(Configuration(policy), env) as keeper:
        ledger: Ledger = keeper.ledger
        records = [r for r in ledger.events() if r.event.kind == "executed"]
    assert [(r.event.tool, r.event.rule, r.event.exit_code, r.event.agent) for r in records] == [
        ("shell", "exec.contained", 0, "sandbox")
    ]
    assert records[0].event.message == "ran contained: workspace-write, network: none"
    assert records[0].event.raw_args is None  # the arguments' hash and redacted summary only


def test_a_workspace_too_big_to_check_is_not_run(
    workspace: Path, cli_env: dict[str, str], home: Path
) -> None:
    (home / ".config" / "bastion").mkdir(parents=True)
    (home / ".config" / "bastion" / "policy.toml").write_text("[exec]\nscan_max_entries = 3\n")
    for index in range(10):
        (workspace / f"f{index}").touch()

    done = _run(workspace, cli_env, "--profile", "workspace-write", "--", "bash", "-c", "echo ran > made")

    assert done.returncode == 126
    assert "more than 3 entries" in done.stderr
    assert not (workspace / "made").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--", "true"], "--profile is required"),
        (["--profile", "read-only"], "give the command after '--'"),
        (["--profile", "full", "--", "true"], "unknown sandbox profile 'full'"),
        (["--profile", "read-only", "--host", "a/b", "--", "true"], "is not a host name"),
        (["--bogus", "x", "--", "true"], "unknown option '--bogus'"),
    ],
)
def test_a_bad_command_line_runs_nothing(
    workspace: Path, cli_env: dict[str, str], args: list[str], message: str
) -> None:
    done = _run(workspace, cli_env, *args)

    assert done.returncode in (2, 126)
    assert message in done.stderr


def _prepare(workspace: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([bastion_exe(), "sandbox", "prepare", *args], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_prepare_prints_a_line_that_runs_the_command_contained_without_bastion(
    workspace: Path, cli_env: dict[str, str]
) -> None:
    line = _prepare(workspace, cli_env, "--profile", "read-only", "--", "echo hi > made; echo rc=$?").stdout

    done = subprocess.run(["bash", "-c", line], cwd=workspace, env={"PATH": "/usr/bin:/bin", "HOME": "/"},
                          capture_output=True, text=True, timeout=60)  # fmt: skip

    assert (done.returncode, done.stdout) == (0, "rc=1\n")
    assert "Read-only file system" in done.stderr
    assert not (workspace / "made").exists()
    assert "bastion" not in line.split(" -- ")[-1]  # nothing of Bastion runs in the sandbox
    # A later call settles the run, once the sandbox's last process is gone (its pid 1 may
    # still be tearing the namespaces down when the line returns).
    assert [s.exit_code for s in _settled(runs_dir(cli_env["BASTION_STATE_DIR"]))] == [0]


def _settled(folder: str) -> tuple[Settled, ...]:
    for _ in range(3000):
        done = settle(folder)
        if done:
            return done
        threading.Event().wait(0.01)
    return ()


def test_prepare_refuses_a_host_profile_with_no_egress_proxy_and_says_why(
    workspace: Path, cli_env: dict[str, str]
) -> None:
    done = _prepare(
        workspace, cli_env, "--profile", "read-only", "--host", "example.com", "--", "curl example.com"
    )

    assert (done.returncode, done.stdout) == (126, "")
    assert done.stderr == (
        "bastion sandbox: this call needs the network (example.com) and no egress proxy is running to "
        "decide its connections (start the hook daemon: bastion serve)\n"
    )
