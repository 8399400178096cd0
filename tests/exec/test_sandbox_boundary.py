"""What a command inside the bubblewrap sandbox can and cannot reach (real bwrap)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.unsafe import UnsafeHostRunner
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import spec_for


def test_a_command_writes_inside_the_workspace_and_the_file_lands_on_the_host(
    runner: BubblewrapRunner, make_policy: PolicyFactory, workspace: Path, child_env: dict[str, str]
) -> None:
    result = runner.run(spec_for(make_policy(), "echo made > out.txt && cat out.txt", environ=child_env))
    assert (result.exit_code, result.stdout, result.timed_out) == (0, "made\n", False)
    assert (workspace / "out.txt").read_text() == "made\n"


def test_writing_outside_the_workspace_fails_and_leaves_the_host_untouched(
    runner: BubblewrapRunner, make_policy: PolicyFactory, tmp_path: Path, child_env: dict[str, str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    command = (
        f"for p in {outside}/f /etc/bastion-test /usr/bastion-test /bastion-test; do "
        f'(echo x > $p) 2>/dev/null && echo "wrote $p"; done; echo done'
    )
    result = runner.run(spec_for(make_policy(), command, environ=child_env))
    assert (result.exit_code, result.stdout) == (0, "done\n")
    assert list(outside.iterdir()) == []


def test_read_only_mode_binds_the_workspace_read_only(
    runner: BubblewrapRunner, make_policy: PolicyFactory, workspace: Path, child_env: dict[str, str]
) -> None:
    result = runner.run(
        spec_for(make_policy('mode = "read-only"'), "cat README.md; echo x > new.txt", environ=child_env)
    )
    assert result.stdout == "# hi\n"
    assert result.exit_code == 1
    assert "Read-only file system" in result.stderr
    assert not (workspace / "new.txt").exists()


def test_the_fake_ssh_key_in_home_cannot_be_read(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    result = runner.run(spec_for(make_policy(), "cat ~/.ssh/id_rsa; ls -A ~", environ=child_env))
    assert "PRIVATE KEY" not in result.stdout
    assert result.stdout == "proj\n"  # a private HOME: only the workspace bound into it
    assert "No such file or directory" in result.stderr


def test_ssh_stays_hidden_even_when_home_itself_is_a_readable_root(
    runner: BubblewrapRunner, make_policy: PolicyFactory, home: Path, child_env: dict[str, str]
) -> None:
    policy = make_policy(f'trusted_roots = ["{home}"]')
    result = runner.run(spec_for(policy, "cat ~/.ssh/id_rsa; ls -A ~/.ssh; ls ~", environ=child_env))
    assert "PRIVATE KEY" not in result.stdout
    assert result.stdout == "proj\n"
    assert "No such file or directory" in result.stderr


def test_the_credentials_dir_and_state_dir_are_not_mounted(
    runner: BubblewrapRunner, make_policy: PolicyFactory, home: Path, child_env: dict[str, str]
) -> None:
    creds = home / ".bastion" / "credentials"
    creds.mkdir(parents=True)
    (creds / "TOKEN").write_text("s3cr3t-value")
    policy = make_policy(f'trusted_roots = ["{home}"]')
    result = runner.run(spec_for(policy, f"cat {creds}/TOKEN; ls -A {home}/.bastion", environ=child_env))
    assert "s3cr3t-value" not in result.stdout
    assert result.stdout == ""


def test_a_project_policy_file_inside_the_workspace_is_read_only(
    runner: BubblewrapRunner, workspace: Path, env: dict[str, str], child_env: dict[str, str]
) -> None:
    from bastion.configuration import load_policy

    (workspace / ".bastion").mkdir()
    policy_file = workspace / ".bastion" / "policy.toml"
    policy_file.write_text('mode = "workspace"\n')
    policy = load_policy(str(policy_file), cwd=str(workspace), env=env)
    result = runner.run(
        spec_for(policy, "echo 'mode = \"full-access\"' > .bastion/policy.toml", environ=child_env)
    )
    assert result.exit_code == 1
    assert policy_file.read_text() == 'mode = "workspace"\n'


def test_the_child_has_no_capabilities_even_when_bastion_runs_as_root(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    result = runner.run(
        spec_for(
            make_policy(),
            "grep -E '^Cap(Prm|Eff|Bnd):' /proc/self/status; "
            "mount -t tmpfs none /usr 2>/dev/null || echo refused",
            environ=child_env,
        )
    )
    zero = "0000000000000000"
    assert result.stdout == f"CapPrm:\t{zero}\nCapEff:\t{zero}\nCapBnd:\t{zero}\nrefused\n"


def test_only_allow_listed_variables_reach_the_child(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    environ = {**child_env, "AWS_SECRET_ACCESS_KEY": "leak", "BASTION_ALLOW_UNSANDBOXED": "1"}
    result = runner.run(spec_for(make_policy(), "env | cut -d= -f1 | sort", environ=environ))
    assert result.stdout.split() == ["BASTION_CREDENTIALS_DIR", "HOME", "LANG", "PATH", "PWD", "SHLVL", "_"]


#: What a person's own script does with the variable (002: ``$NOURIDE_CREDENTIALS_DIR``).
USES_THE_TOKEN = 'echo "dir=$BASTION_CREDENTIALS_DIR"; cat "$BASTION_CREDENTIALS_DIR/token" || echo absent'


def test_a_contained_command_is_told_where_the_credentials_dir_is_but_finds_nothing_there(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str], home: Path
) -> None:
    policy = make_policy()
    creds = Path(policy.credentials_dir)
    creds.mkdir(parents=True, mode=0o700)
    (creds / "token").write_text("s3cret\n")
    result = runner.run(spec_for(policy, USES_THE_TOKEN, environ=child_env))
    assert (creds, result.stdout) == (home / ".bastion" / "credentials", f"dir={creds}\nabsent\n")
    assert "s3cret" not in result.stdout + result.stderr


def test_an_uncontained_command_a_person_wrote_may_use_the_credentials_dir(
    make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    policy = make_policy()
    creds = Path(policy.credentials_dir)
    creds.mkdir(parents=True, mode=0o700)
    (creds / "token").write_text("s3cret\n")
    host = UnsafeHostRunner({"BASTION_ALLOW_UNSANDBOXED": "1"})
    result = host.run(spec_for(policy, USES_THE_TOKEN, environ=child_env))
    assert result.stdout == f"dir={creds}\ns3cret\n"


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP server on 127.0.0.1 that answers 'pong' to every connection."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(b"pong")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


CONNECT = (
    "python3 -c \"import socket; s = socket.create_connection(('127.0.0.1', {port}), "
    'timeout=5); print(s.recv(4).decode())"'
)


def test_a_loopback_port_is_unreachable_when_network_is_not_allowed(
    runner: BubblewrapRunner, make_policy: PolicyFactory, listener: int, child_env: dict[str, str]
) -> None:
    result = runner.run(spec_for(make_policy(), CONNECT.format(port=listener), environ=child_env))
    assert (result.exit_code, result.stdout) == (1, "")
    assert "ConnectionRefusedError" in result.stderr


def test_a_loopback_port_is_reachable_when_network_is_allowed(
    runner: BubblewrapRunner, make_policy: PolicyFactory, listener: int, child_env: dict[str, str]
) -> None:
    result = runner.run(
        spec_for(make_policy(), CONNECT.format(port=listener), environ=child_env, network=True)
    )
    assert (result.exit_code, result.stdout, result.stderr) == (0, "pong\n", "")


def test_the_child_sees_only_its_own_processes(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    result = runner.run(
        spec_for(make_policy(), "ls /proc | grep -c '^[0-9]'", environ=child_env, config=ExecConfig())
    )
    assert result.exit_code == 0
    assert int(result.stdout) <= 5  # bwrap's init, bash, ls, grep


def test_credential_files_inside_the_workspace_are_hidden_from_sandboxed_code(
    runner: BubblewrapRunner, make_policy: PolicyFactory, workspace: Path, child_env: dict[str, str]
) -> None:
    (workspace / ".env").write_text("API_TOKEN=s3cret\n")
    (workspace / "src" / "deploy.pem").write_text("-----BEGIN PRIVATE KEY-----\n")
    (workspace / "notes.txt").write_text("plain\n")
    script = "cat .env src/deploy.pem notes.txt; python3 -c \"print(open('.env').read())\""
    result = runner.run(spec_for(make_policy(), script, environ=child_env))
    assert "s3cret" not in result.stdout + result.stderr
    assert "BEGIN PRIVATE KEY" not in result.stdout + result.stderr
    assert "plain\n" in result.stdout
    assert (workspace / ".env").read_text() == "API_TOKEN=s3cret\n"  # hidden in the sandbox only


def test_secret_bearing_project_files_named_by_the_scanners_are_hidden_from_sandboxed_code(
    runner: BubblewrapRunner, make_policy: PolicyFactory, workspace: Path, child_env: dict[str, str]
) -> None:
    # #31, suite E: the names added to the credential globs hide the files in the sandbox too.
    names = [
        "terraform.tfstate",
        ".htpasswd",
        ".streamlit/secrets.toml",
        "credentials.json",
        "deploy/admin.conf",
    ]
    for name in names:
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(f"CANARY-{name}\n")
    result = runner.run(spec_for(make_policy(), "cat " + " ".join(names) + " src/app.py", environ=child_env))
    assert [n for n in names if f"CANARY-{n}" in result.stdout + result.stderr] == []
    assert "print(1)\n" in result.stdout
