"""A prepared run: the same sandbox as ``bastion sandbox run``, started by the agent's shell
with no Python (real bubblewrap, real bash)."""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion.adapters.hooks.policy_cache import load_cached_policy
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, build_spec, cgroups
from bastion.exec.egress.binding import EgressBinding, command_prefix
from bastion.exec.prepared import SECCOMP_FD, PreparedRun, Unpreparable, prepare, runs_dir
from bastion.exec.procfs import running
from bastion.exec.profile import Filesystem, Profile
from bastion.exec.settle import STALE_SECONDS, settle
from tests.adapters.hooks.conftest import bastion_exe
from tests.exec.sandbox_helpers import require_bwrap
from tests.exec.test_kernel_limits import PROBE

READ_ONLY = Profile(Filesystem.READ_ONLY)
WRITE = Profile(Filesystem.WORKSPACE_WRITE)
POLICY = "[exec]\nmax_processes = 40\n"
#: What a sandbox shows of itself: writes in and out of the workspace, HOME, credentials,
#: network interfaces, protected paths, the environment, the process cap and the filter.
SURVEY = r"""
echo in > in.txt 2>/dev/null && echo "write workspace ok" || echo "write workspace refused"
echo out > "$HOME/out.txt" 2>/dev/null && echo "write home ok" || echo "write home refused"  # a tmpfs
echo out > /tmp/../var/out.txt 2>/dev/null && echo "write /var ok" || echo "write /var refused"
echo "home: $(ls -A "$HOME" | tr '\n' ' ')"
cat "$HOME/.ssh/id_rsa" 2>/dev/null || echo "no ssh key"
echo "interfaces: $(awk 'NR > 2 {print $1}' /proc/net/dev | tr '\n' ' ')"
echo x >> .git/config 2>/dev/null && echo "git config writable" || echo "git config read-only"
env | grep -v -e '^_=' -e '^SHLVL=' | sort
python3 -I -S -c "$FORKS"
"""
#: Forks children that wait until it fails; prints how many it had.
FORKS = """
import os, time
n = 0
try:
    for n in range(1, 61):
        if os.fork() == 0:
            time.sleep(3)
            os._exit(0)
    print("forked 60")
except OSError:
    print("fork refused after", n - 1)
"""


@pytest.fixture
def config(workspace: Path, env: dict[str, str]) -> Configuration:
    require_bwrap()
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text("[core]\n")
    (workspace / "policy.toml").write_text(POLICY)
    return load_cached_policy(str(workspace / "policy.toml"), cwd=str(workspace), env=env)


@pytest.fixture(autouse=True)
def _no_group_left(env: dict[str, str]) -> Iterator[None]:
    """A test's last prepared run is settled by no later call: its cgroups go here."""
    yield
    settle(runs_dir(env["BASTION_STATE_DIR"]), now=time.time() + 2 * STALE_SECONDS)


@pytest.fixture
def agent_env(env: dict[str, str]) -> dict[str, str]:
    """The agent's environment: a token Bastion must not pass into the sandbox."""
    source = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    return {
        **env,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "AGENT_TOKEN": "s3cr3t",
        **source,
    }


def _prepared(config: Configuration, workspace: Path, env: dict[str, str], profile: Profile = READ_ONLY,
              **kwargs: object) -> PreparedRun:  # fmt: skip
    run = prepare(config.policy, config.exec, profile, cwd=str(workspace), environ=env, timeout=60, **kwargs)  # type: ignore[arg-type]
    assert isinstance(run, PreparedRun), run
    return run


def _shell(
    line: str, workspace: Path, env: dict[str, str], *, shell: str = "bash"
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shell, "-c", line], cwd=workspace, env=env, capture_output=True, text=True, timeout=120
    )


def _sandbox_run(
    profile: Profile, command: str, workspace: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    argv = [bastion_exe(), "sandbox", "run", *profile.argv(), "--cwd", str(workspace), "--timeout", "60",
            "--policy", str(workspace / "policy.toml"), "--", "bash", "-c", command]  # fmt: skip
    return subprocess.run(argv, cwd=workspace, env=env, capture_output=True, text=True, timeout=120)


def _without_seccomp_fd(argv: list[str] | tuple[str, ...]) -> list[str]:
    out = list(argv)
    at = out.index("--seccomp")
    return out[:at] + out[at + 2 :]


@pytest.mark.parametrize("profile", [READ_ONLY, WRITE], ids=["read-only", "workspace-write"])
def test_prepare_builds_the_bwrap_argv_sandbox_run_builds(
    profile: Profile, config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    exec_config = dataclasses.replace(config.exec, timeout=60)
    spec = build_spec(config.policy, exec_config, ["bash", "-c"], cwd=str(workspace), environ=agent_env,
                      profile=profile)  # fmt: skip
    today = BubblewrapRunner().argv(spec, seccomp_fd=5)

    run = _prepared(config, workspace, agent_env, profile)

    assert _without_seccomp_fd(run.argv) == _without_seccomp_fd(today)
    assert run.argv[run.argv.index("--seccomp") + 1] == str(SECCOMP_FD)
    # Every allowed name, whatever the preparer's environment: the launcher passes those the
    # agent's shell exports when the line runs (the survey below shows which arrive).
    creds = (("BASTION_CREDENTIALS_DIR", config.policy.credentials_dir),)
    assert (run.env_names, run.env, run.timeout) == (
        ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ"),
        creds,
        60.0,
    )
    assert len(run.cgroup_files) == len([c for c in cgroups.controllers() if c.name in ("pids", "memory")])


@pytest.mark.parametrize("profile", [READ_ONLY, WRITE], ids=["read-only", "workspace-write"])
def test_both_sandboxes_look_the_same_from_inside(
    profile: Profile, config: Configuration, workspace: Path, agent_env: dict[str, str], home: Path
) -> None:
    survey = f"FORKS={shlex.quote(FORKS)}\n{SURVEY}"
    today = _sandbox_run(profile, survey, workspace, agent_env)
    (workspace / "in.txt").unlink(missing_ok=True)

    prepared = _shell(
        _prepared(config, workspace, agent_env, profile).shell_command(survey), workspace, agent_env
    )

    lines = prepared.stdout.splitlines()
    # The same, but for the process count: the prepared run's ``timeout`` is one more process
    # in the group than the Python runner's trampoline.
    assert lines[:-1] == today.stdout.splitlines()[:-1]
    writes = "write workspace ok" if profile.writable else "write workspace refused"
    assert lines[:9] == [
        writes, "write home ok", "write /var refused", "home: out.txt proj ", "no ssh key", "interfaces: lo: ",
        "git config read-only", f"BASTION_CREDENTIALS_DIR={config.policy.credentials_dir}", f"HOME={home}",
    ]  # fmt: skip
    assert "AGENT_TOKEN" not in prepared.stdout
    # pids.max = 40 held in both: bash, bwrap, python and 3x children
    assert (lines[-1][:20], today.stdout.splitlines()[-1][:20]) == ("fork refused after 3",) * 2
    assert not (home / "out.txt").exists()


def test_the_seccomp_filter_holds_in_a_prepared_run(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    line = _prepared(config, workspace, agent_env).shell_command(f"python3 -c '{PROBE}'")

    done = _shell(line, workspace, agent_env)

    assert done.stdout.splitlines() == [
        f"{name} EPERM"
        for name in ("ptrace", "keyctl", "add_key", "request_key", "mount", "umount2", "pivot_root",
                     "bpf", "perf_event_open", "setns", "kexec_load", "init_module", "unshare")
    ]  # fmt: skip


def test_descriptors_the_agent_s_shell_holds_do_not_reach_the_sandbox(
    config: Configuration, workspace: Path, agent_env: dict[str, str], home: Path
) -> None:
    line = _prepared(config, workspace, agent_env).shell_command("ls /proc/self/fd | sort -n | tr '\\n' ' '")

    done = _shell(
        f"{line} 7<{shlex.quote(str(home / '.ssh' / 'id_rsa'))} 12</etc/passwd", workspace, agent_env
    )

    assert (done.returncode, done.stdout) == (0, "0 1 2 3 ")  # 3: ls's own listing


def test_the_agent_s_environment_cannot_change_the_launcher(
    config: Configuration, workspace: Path, agent_env: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "rc").write_text("echo sourced > " + shlex.quote(str(tmp_path / "sourced")) + "\n")
    hostile = {**agent_env, "BASH_ENV": str(tmp_path / "rc"), "SHELLOPTS": "errexit:noexec",
               "BASH_FUNC_exec%%": "() { echo hijacked; }", "BASH_FUNC_echo%%": "() { :; }"}  # fmt: skip
    line = _prepared(config, workspace, agent_env).shell_command("cat /proc/self/status | grep -c Seccomp:.2")

    done = subprocess.run(["/bin/sh", "-c", line], cwd=workspace, env=hostile, capture_output=True, text=True,
                          timeout=60)  # fmt: skip

    assert (done.returncode, done.stdout) == (0, "1\n")  # ran inside bwrap, under the filter
    assert not (tmp_path / "sourced").exists()


def test_exit_status_and_output_come_through_and_the_timeout_kills(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env)
    done = _shell(run.shell_command("echo out; echo err >&2; exit 7"), workspace, agent_env)
    quick = dataclasses.replace(_prepared(config, workspace, agent_env), timeout=1)
    slow = _shell(quick.shell_command("sleep 30"), workspace, agent_env)

    assert (done.returncode, done.stdout, done.stderr) == (7, "out\n", "err\n")
    assert slow.returncode == 124


@settings(max_examples=300, deadline=None)
@given(original=st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=80))
def test_the_agent_s_shell_hands_the_command_over_byte_for_byte(
    original: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("argv")
    dump = folder / "dump"
    dump.write_text('#!/bin/sh\nshift 4\nfor a; do printf "%s\\0" "$a"; done\n')
    dump.chmod(0o755)
    run = PreparedRun("id", "read-only", ("/usr/bin/bwrap", "--", "bash", "-c"), ("PATH",), (), 5.0,
                      str(dump), "/usr/bin/timeout", str(folder / "status"))  # fmt: skip

    for shell in ("bash", "sh"):
        done = subprocess.run([shell, "-c", run.shell_command(original)], capture_output=True, check=True)
        assert done.stdout.split(b"\0")[:-1] == [*(a.encode() for a in run.argv), original.encode()]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tail=st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=60))
def test_the_command_reaches_bash_inside_the_sandbox_byte_for_byte(
    tail: str, config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    original = "printf '%s' \"$BASH_EXECUTION_STRING\"; exit 0\n" + tail

    line = _prepared(config, workspace, agent_env).shell_command(original)

    done = subprocess.run(["bash", "-c", line], cwd=workspace, env=agent_env, capture_output=True, timeout=60)

    assert done.stdout == original.encode()


def test_a_line_runs_once(config: Configuration, workspace: Path, agent_env: dict[str, str]) -> None:
    line = _prepared(config, workspace, agent_env, WRITE).shell_command("echo ran >> runs.txt")

    first, again = _shell(line, workspace, agent_env), _shell(line, workspace, agent_env)

    assert (first.returncode, again.returncode) == (0, 125)
    assert (
        "(it ran already, or the state dir is read-only here); the contained run is not started"
        in again.stderr
    )
    assert (workspace / "runs.txt").read_text() == "ran\n"


def test_a_missing_seccomp_program_stops_the_line_before_bwrap(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env, WRITE)
    assert run.seccomp_path is not None
    os.chmod(os.path.dirname(run.seccomp_path), 0o700)
    os.unlink(run.seccomp_path)

    done = _shell(run.shell_command("echo ran > ran.txt"), workspace, agent_env)

    assert (done.returncode, (workspace / "ran.txt").exists()) == (125, False)


@pytest.mark.skipif(not cgroups.controllers(), reason="no writable cgroup here")
def test_a_cgroup_gone_since_prepare_stops_the_line_before_bwrap(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env, WRITE)
    cgroups.remove_groups([os.path.dirname(p) for p in run.cgroup_files])

    done = _shell(run.shell_command("echo ran > ran.txt"), workspace, agent_env)

    assert (done.returncode, (workspace / "ran.txt").exists()) == (125, False)
    assert "its cgroup is gone" in done.stderr


def test_a_bwrap_gone_since_prepare_runs_nothing(
    config: Configuration, workspace: Path, agent_env: dict[str, str], tmp_path: Path
) -> None:
    copy = tmp_path / "bwrap"
    shutil.copy(shutil.which("bwrap") or "", copy)
    run = _prepared(config, workspace, agent_env, WRITE, bwrap=str(copy))
    copy.unlink()

    done = _shell(run.shell_command("echo ran > ran.txt"), workspace, agent_env)

    assert (done.returncode, (workspace / "ran.txt").exists()) == (127, False)


def test_what_cannot_be_contained_here_is_a_reason_to_ask(
    config: Configuration, workspace: Path, agent_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def attempt(profile: Profile = READ_ONLY, **kwargs: object) -> object:
        return prepare(config.policy, config.exec, profile, cwd=str(workspace), environ=agent_env, **kwargs)  # type: ignore[arg-type]

    no_bwrap = attempt(bwrap="/nonexistent/bwrap")
    no_proxy = attempt(Profile(Filesystem.READ_ONLY, ("api.github.com",)))
    tight = dataclasses.replace(config.exec, scan_max_entries=1)
    too_big = prepare(config.policy, tight, READ_ONLY, cwd=str(workspace), environ=agent_env)
    monkeypatch.setattr(cgroups, "make_groups", _refuse)
    no_cgroup = attempt()

    assert no_bwrap == Unpreparable(
        "this call cannot run contained here (bubblewrap could not start: [Errno 2] No such file or "
        "directory: '/nonexistent/bwrap')"
    )
    assert no_proxy == Unpreparable(
        "this call needs the network (api.github.com) and no egress proxy is running to decide its "
        "connections (start the hook daemon: bastion serve)"
    )
    assert isinstance(too_big, Unpreparable) and "cannot be checked for credential files" in too_big.reason
    assert no_cgroup == Unpreparable("this call cannot run contained here: [Errno 13] cgroup refused")


def _refuse(*args: object) -> list[str]:
    raise PermissionError(13, "cgroup refused")


def test_the_next_prepare_settles_a_run_quarantining_what_it_created(
    config: Configuration, workspace: Path, agent_env: dict[str, str], env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env, WRITE)
    _shell(run.shell_command("echo 'export X=1' > .envrc; exit 3"), workspace, agent_env)
    _wait_until_gone(run)

    after = _prepared(config, workspace, agent_env)

    envrc = str(workspace / ".envrc")
    assert [(s.run_id, s.started, s.exit_code, s.swept) for s in after.settled] == [
        (run.run_id, True, 3, (envrc,))
    ]
    assert not os.path.lexists(envrc)
    assert all(not os.path.exists(os.path.dirname(p)) for p in run.cgroup_files)


def test_what_a_run_creates_where_code_would_run_later_is_gone_when_the_line_returns(
    config: Configuration, workspace: Path, agent_env: dict[str, str], env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env, WRITE)
    plant = "mkdir -p .claude .vscode; echo '{}' > .claude/settings.json; echo x > .vscode/tasks.json"

    done = _shell(run.shell_command(f"{plant}; echo kept > notes.txt; exit 5"), workspace, agent_env)

    # No settle has run: the line itself moved them, and kept its exit and the workspace work.
    planted = [
        p for p in (".claude", ".claude/settings.json", ".vscode/tasks.json") if (workspace / p).exists()
    ]
    assert (done.returncode, planted, (workspace / "notes.txt").read_text()) == (5, [], "kept\n")
    kept = Path(env["BASTION_STATE_DIR"]) / "quarantine" / run.run_id / str(workspace).lstrip("/")
    assert (kept / ".claude" / "settings.json").read_text() == "{}\n"
    _wait_until_gone(run)
    after = _prepared(config, workspace, agent_env)
    assert [(s.run_id, s.exit_code, sorted(s.swept)) for s in after.settled] == [
        (run.run_id, 5, sorted([str(workspace / ".claude"), str(workspace / ".vscode" / "tasks.json")]))
    ]


def test_a_host_profile_runs_behind_the_egress_proxy_the_caller_serves(
    config: Configuration, workspace: Path, agent_env: dict[str, str], tmp_path: Path
) -> None:
    binding = EgressBinding(str(tmp_path), "/usr/bin/python3", 3128, {"HTTPS_PROXY": "http://127.0.0.1:3128"})
    profile = Profile(Filesystem.READ_ONLY, ("api.github.com",))

    run = _prepared(config, workspace, agent_env, profile, egress=binding)

    assert run.env == (
        ("HTTPS_PROXY", "http://127.0.0.1:3128"),
        ("BASTION_CREDENTIALS_DIR", config.policy.credentials_dir),
    )
    assert "--share-net" not in run.argv
    at = run.argv.index("/run/bastion-egress")
    assert run.argv[at - 2 : at + 1] == ("--ro-bind", str(tmp_path), "/run/bastion-egress")
    inside = run.argv[run.argv.index("--chdir") + 3 :]
    assert inside == ("/usr/bin/nice", "-n", "10", *command_prefix(binding), "bash", "-c")
    creds = shlex.quote(config.policy.credentials_dir)
    assert (
        f"--setenv HTTPS_PROXY http://127.0.0.1:3128 --setenv BASTION_CREDENTIALS_DIR {creds} --json-status-fd 8"
        in run.script()
    )


@pytest.mark.skipif(not cgroups.controllers(), reason="no writable cgroup here")
def test_the_whole_run_is_in_the_run_s_own_cgroups(
    config: Configuration, workspace: Path, agent_env: dict[str, str]
) -> None:
    run = _prepared(config, workspace, agent_env)
    started = subprocess.Popen(["bash", "-c", run.shell_command("read -t 30 <> <(:) || true")], cwd=workspace,
                               env=agent_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)  # fmt: skip
    try:
        child = _child_pid(Path(run.status_path))
        members = [Path(os.path.dirname(f), "cgroup.procs").read_text().split() for f in run.cgroup_files]
    finally:
        os.killpg(started.pid, signal.SIGKILL)  # as an agent stops a call: its process group
        started.wait()

    assert [str(child) in found for found in members] == [True] * len(run.cgroup_files)
    assert _gone(child)


def _wait_until_gone(run: PreparedRun) -> None:
    """Until no process of the run is left in its groups (the sandbox's pid 1 may still be
    tearing its namespaces down when the line has returned)."""
    for _ in range(3000):
        pids = [
            p for f in run.cgroup_files for p in Path(os.path.dirname(f), "cgroup.procs").read_text().split()
        ]
        if not any(running(int(p)) for p in pids):
            return
        threading.Event().wait(0.01)


def _gone(pid: int) -> bool:
    """Has ``pid`` exited (the sandbox dies with bwrap, which died with the group)?"""
    for _ in range(3000):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] in "ZX":
                    return True
        except OSError:
            return True
        threading.Event().wait(0.01)
    return False


def _child_pid(status: Path) -> int:
    """The sandbox's first process, once bwrap has reported it (it does before the command runs)."""
    for _ in range(3000):
        text = status.read_text() if status.exists() else ""
        if '"child-pid"' in text:
            return int(text.split('"child-pid":')[1].split(",")[0])
        threading.Event().wait(0.01)
    raise AssertionError("bwrap never reported its child")


@pytest.mark.parametrize(
    "writes",
    ["/tmp/a\ntouch {pwn}\n#", "/tmp/a\rtouch {pwn}", "/tmp/a)\n$(touch {pwn})", "/tmp/a\x0btouch {pwn}"],
)
def test_a_profile_label_cannot_end_the_launcher_s_first_line(
    writes: str, config: Configuration, workspace: Path, agent_env: dict[str, str], tmp_path: Path
) -> None:
    # The label names the paths a person approved: a path with a newline must stay a comment.
    pwn = tmp_path / "pwn"
    run = dataclasses.replace(
        _prepared(config, workspace, agent_env),
        profile=f"workspace-write, also writes: {writes.format(pwn=pwn)}",
    )

    done = _shell(run.shell_command("true"), workspace, agent_env)

    first, second = run.script().split("\n")[:2]
    shown = writes.format(pwn=pwn).translate({ord(c): "?" for c in "\n\r\x0b"})
    assert (done.returncode, pwn.exists()) == (0, False)
    assert (first, second) == (
        f"# bastion: contained run (workspace-write, also writes: {shown})",
        "for f in /proc/$$/fd/*; do n=${f##*/}; ((n > 2)) && exec {n}>&-; done",
    )
