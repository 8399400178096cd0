"""A prepared run hands bwrap its options in a file (``bwrap --args``): the line the agent's
shell runs (and the agent's transcript shows) names bwrap and the command, not every mount."""

from __future__ import annotations

import os
import shlex
import stat
import time
from pathlib import Path

from bastion.configuration import Configuration
from bastion.exec.prepared import ARGS_FD, PreparedRun, prepare, runs_dir
from bastion.exec.profile import Filesystem, Profile
from bastion.exec.settle import STALE_SECONDS, settle
from tests.exec import test_prepared as base

#: The prepared-run fixtures: the policy, the agent's environment, no cgroup left behind.
config, agent_env, _no_group_left = base.config, base.agent_env, base._no_group_left

WRITE = Profile(Filesystem.WORKSPACE_WRITE)


def _prepared(configuration: Configuration, workspace: Path, env: dict[str, str]) -> PreparedRun:
    run = prepare(
        configuration.policy, configuration.exec, WRITE, cwd=str(workspace), environ=env, timeout=60
    )
    assert isinstance(run, PreparedRun), run
    return run


def test_the_options_file_holds_the_mounts_and_the_line_the_namespaces_and_the_command(
    config: Configuration,
    workspace: Path,
    agent_env: dict[str, str],
) -> None:
    run = _prepared(config, workspace, agent_env)
    assert run.args_path is not None
    chdir, mounts = run.argv.index("--chdir"), run.argv.index("--dev")

    line = shlex.split(run.shell_command("git status"))
    held = Path(run.args_path).read_bytes()

    # The options: the mounts, from ``--dev /dev`` to ``--chdir DIR``, each ended by a NUL.
    assert held.split(b"\0") == [*(os.fsencode(a) for a in run.argv[mounts : chdir + 2]), b""]
    assert (run.args_at, run.command_at, run.argv[run.command_at - 1]) == (mounts, chdir + 3, "--")
    # The line: the launcher, bwrap and its namespaces, ``--``, the command bwrap runs, the
    # agent's command.
    namespaces = ["--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--unshare-user",
                  "--disable-userns", "--seccomp", "9"]  # fmt: skip
    assert line[4:] == ["bastion-sandbox", run.argv[0], *namespaces, *run.argv[chdir + 2 :], "git status"]
    assert f'"$1" --args {ARGS_FD} --clearenv' in line[3]
    assert stat.S_IMODE(os.stat(run.args_path).st_mode) == 0o400
    assert not any(word.startswith(("--bind", "--ro-bind", "--tmpfs")) for word in line)


def test_bwrap_builds_the_sandbox_from_the_options_file(
    config: Configuration,
    workspace: Path,
    agent_env: dict[str, str],
) -> None:
    run = _prepared(config, workspace, agent_env)
    survey = (
        'echo x > in.txt && echo "$(cat in.txt)"; echo y > /usr/out.txt || echo refused; ls /proc/self/fd'
    )

    done = base._shell(run.shell_command(survey), workspace, agent_env)

    assert (done.returncode, done.stdout.split()) == (0, ["x", "refused", "0", "1", "2", "3"])
    assert "Read-only file system" in done.stderr
    assert not Path("/usr/out.txt").exists()


def test_a_line_whose_options_file_is_gone_runs_nothing(
    config: Configuration,
    workspace: Path,
    agent_env: dict[str, str],
) -> None:
    run = _prepared(config, workspace, agent_env)
    assert run.args_path is not None
    os.unlink(run.args_path)

    done = base._shell(run.shell_command("echo ran > ran.txt"), workspace, agent_env)

    assert (done.returncode, (workspace / "ran.txt").exists()) == (125, False)
    assert "its sandbox arguments are gone; the contained run is not started" in done.stderr


def test_settling_a_run_removes_its_options_file(
    config: Configuration,
    workspace: Path,
    agent_env: dict[str, str],
    env: dict[str, str],
) -> None:
    ran, never = _prepared(config, workspace, agent_env), _prepared(config, workspace, agent_env)
    base._shell(ran.shell_command("true"), workspace, agent_env)

    settled = settle(runs_dir(env["BASTION_STATE_DIR"]), now=time.time() + 2 * STALE_SECONDS)

    assert sorted(s.run_id for s in settled) == sorted([ran.run_id, never.run_id])
    assert [os.path.exists(r.args_path or "") for r in (ran, never)] == [False, False]


def test_the_etc_files_are_copied_in_read_only_and_cost_no_mount(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env)
    survey = (
        "cat /etc/passwd /etc/hosts; grep -c ' /etc/' /proc/self/mountinfo;"
        " stat -c %a /etc/passwd; echo x >> /etc/hosts || echo refused"
    )

    done = base._shell(run.shell_command(survey), workspace, agent_env)

    host = Path("/etc/passwd").read_text() + Path("/etc/hosts").read_text()
    binds = [
        "/etc/" + d for d in ("alternatives", "ld.so.conf.d", "ssl/certs", "ca-certificates", "terminfo")
    ]
    dirs = sum(1 for d in binds if Path(d).is_dir())
    dirs += sum(1 for d in Path("/etc").glob("python3*") if d.is_dir())
    mode = f"{stat.S_IMODE(os.stat('/etc/passwd').st_mode):o}"
    # Only the allowed directories are mounts; the files are copies, read-only like the rest.
    assert (done.returncode, done.stdout) == (0, f"{host}{dirs}\n{mode}\nrefused\n")
    assert "Read-only file system" in done.stderr


def test_an_etc_file_that_cannot_be_opened_stops_the_line(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env)
    assert run.args_path is not None
    options = Path(run.args_path)
    options.chmod(0o600)
    options.write_bytes(options.read_bytes().replace(b"\0/etc/hosts\0", b"\0/etc/no-such-file\0"))

    done = base._shell(run.shell_command("echo ran > ran.txt"), workspace, agent_env)

    assert (done.returncode, (workspace / "ran.txt").exists()) == (125, False)
    assert "bastion: /etc/no-such-file cannot be read; the contained run is not started" in done.stderr
