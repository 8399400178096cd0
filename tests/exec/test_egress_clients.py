"""A held secret makes an approved ``git push`` over https work contained, and never enters
the sandbox (#30 item 2): git asks its credential helper, which answers with the placeholder;
the egress proxy, once a person approved the first request to the host, opens the tunnel
with the run's CA and swaps the value into ``Authorization: Basic`` on the way out."""

from __future__ import annotations

import base64
import dataclasses
import json
import shutil
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion.construct import sibling
from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.egress import EgressSession, StaticDialer, client_auth
from bastion.exec.egress.held import hold
from bastion.exec.egress.only import HostsGate
from bastion.exec.egress.ssh import agent_socket
from bastion.policy.compiled import Policy
from bastion.policy.network import StaticResolver
from tests.exec.egress_helpers import FAKE_ADDRESSES, make_test_ca
from tests.exec.git_servers import (
    bare_repo,
    git,
    pushed,
    start_agent,
    start_git_http,
    start_registry,
    start_sshd,
)
from tests.exec.sandbox_helpers import spec_for
from tests.exec.test_egress_sandbox import HELD_POLICY, SECRET, Approver, held_secret, make_keeper


def test_an_https_push_gets_the_held_token_at_the_proxy_and_the_sandbox_only_its_placeholder(
    runner: BubblewrapRunner, make_policy: Callable[..., Policy], child_env: dict[str, str], tmp_path: Path
) -> None:
    server_tls, client_tls = make_test_ca(tmp_path, "held.test")
    server = start_git_http(tmp_path / "srv", credential=f"x-access-token:{SECRET}", tls=server_tls)
    bare_repo(tmp_path / "srv" / "widget.git")
    policy = make_policy(HELD_POLICY)
    work = Path(policy.workspace[0])
    git(work, "init", "-q", ".")
    git(work, "commit", "-q", "--allow-empty", "-m", "one")
    git(work, "remote", "add", "origin", "https://held.test/widget.git")
    keeper = make_keeper(policy)
    secret = held_secret(policy)
    approver = Approver(keeper)
    resolver = StaticResolver({"held.test": [FAKE_ADDRESSES["held.test"]]})
    dialer = StaticDialer({(FAKE_ADDRESSES["held.test"], 443): ("127.0.0.1", server.port)})
    command = "git push origin main 2>&1; echo status=$?; env; cat /run/bastion-egress/credential.sh"
    try:
        with EgressSession(
            sibling(keeper, HostsGate(keeper.gate, ("held.test",))), resolver=resolver, dialer=dialer,
            upstream_tls=client_tls, held=[secret], on_parked=approver.on_parked,
        ) as egress:  # fmt: skip
            answering = approver.answer_in_background()
            spec = spec_for(policy, command, environ=child_env, config=ExecConfig(timeout=120))
            result = runner.run(dataclasses.replace(spec, egress=egress.binding))
            answering.join()
    finally:
        server.close()
    out = result.stdout + result.stderr

    assert "status=0" in out, out
    assert pushed(tmp_path / "srv" / "widget.git") == "one\n"
    assert SECRET not in out and f"API_TOKEN={secret.placeholder}\n" in out
    # One question, for the hold; then the anonymous request, and the ones with the value.
    assert [r.evaluation.reasons[0].rule for r in approver.requests] == ["egress.hold"]
    basic = "Basic " + base64.b64encode(f"x-access-token:{SECRET}".encode()).decode()
    assert sorted({auth for _, _, auth in server.seen}) == ["", basic]


@pytest.mark.parametrize(
    ("host", "answered"),
    [
        ("held.test", True),
        ("held.test:8443", True),
        ("api.github.com", True),
        ("github.com", False),  # "*.github.com" is its subdomains only, as in [network]
        ("other.test", False),
        ("held.test.evil", False),
    ],
)
def test_gits_credential_helper_answers_a_held_host_with_the_placeholder_and_no_other(
    tmp_path: Path, host: str, answered: bool
) -> None:
    secrets = [
        hold("API_TOKEN", SECRET, ["held.test", "10.0.0.0/8"], token=lambda n: "ab" * n),
        hold("GH_TOKEN", SECRET, ["*.github.com"], token=lambda n: "cd" * n),
    ]
    env = client_auth.prepare(str(tmp_path), secrets)
    done = subprocess.run(
        ["sh", str(tmp_path / client_auth.SCRIPT), "get"],
        input=f"protocol=https\nhost={host}\n\n",
        env={"API_TOKEN": secrets[0].placeholder, "GH_TOKEN": secrets[1].placeholder},
        capture_output=True,
        text=True,
        check=True,
    )
    expected = ""
    if answered:
        expected = f"username=x-access-token\npassword={(secrets[1] if 'github' in host else secrets[0]).placeholder}\n"
    assert (done.stdout, env["GIT_CONFIG_VALUE_0"]) == (expected, "!sh /run/bastion-egress/credential.sh")
    assert SECRET not in (tmp_path / client_auth.SCRIPT).read_text()


def test_only_a_socket_named_by_ssh_auth_sock_is_the_agent(tmp_path: Path) -> None:
    key = tmp_path / "id_rsa"
    key.write_text("PRIVATE KEY\n")
    (tmp_path / "link").symlink_to(key)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(tmp_path / "agent.sock"))
    try:
        found = [
            agent_socket({"SSH_AUTH_SOCK": str(tmp_path / name)})
            for name in ("agent.sock", "id_rsa", "link", "none")
        ]
    finally:
        listener.close()
    assert found == [str(tmp_path / "agent.sock"), None, None, None]
    assert (agent_socket({}), agent_socket({"SSH_AUTH_SOCK": "agent.sock"})) == (None, None)


def test_an_npm_publish_gets_the_held_token_at_the_proxy_and_the_sandbox_only_its_placeholder(
    runner: BubblewrapRunner, make_policy: Callable[..., Policy], child_env: dict[str, str], tmp_path: Path
) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    registry = start_registry(SECRET)
    policy = make_policy(HELD_POLICY)
    work = Path(policy.workspace[0])
    (work / "package.json").write_text(json.dumps({"name": "tiny-pkg", "version": "1.0.0"}))
    (work / "index.js").write_text("module.exports = 1\n")
    keeper = make_keeper(policy)
    secret = held_secret(policy)
    approver = Approver(keeper)
    resolver = StaticResolver({"held.test": [FAKE_ADDRESSES["held.test"]]})
    dialer = StaticDialer({(FAKE_ADDRESSES["held.test"], 80): ("127.0.0.1", registry.port)})
    command = "npm publish --registry http://held.test/ --ignore-scripts 2>&1; echo status=$?; cat $NPM_CONFIG_USERCONFIG"
    try:
        with EgressSession(
            sibling(keeper, HostsGate(keeper.gate, ("held.test",))), resolver=resolver, dialer=dialer,
            held=[secret], on_parked=approver.on_parked,
        ) as egress:  # fmt: skip
            answering = approver.answer_in_background()
            spec = spec_for(policy, command, environ=child_env, config=ExecConfig(timeout=120))
            result = runner.run(dataclasses.replace(spec, egress=egress.binding))
            answering.join()
    finally:
        registry.close()
    out = result.stdout + result.stderr

    assert "status=0" in out, out
    assert (registry.published, [r.evaluation.reasons[0].rule for r in approver.requests]) == (
        ["/tiny-pkg"],
        ["egress.hold"],
    )
    assert SECRET not in out and f"//held.test/:_authToken={secret.placeholder}\n" in out
    assert {auth for _, _, auth in registry.seen} == {f"Bearer {SECRET}"}


def test_an_ssh_push_to_a_held_host_is_a_blind_tunnel_once_approved_never_an_intercepted_one(
    runner: BubblewrapRunner, make_policy: Callable[..., Policy], child_env: dict[str, str], tmp_path: Path
) -> None:
    # A held secret for the host asks as ever, but ssh has no header to carry it: the tunnel
    # stays end to end (the proxy's TLS interception would break the ssh handshake).
    agent, public = start_agent(tmp_path / "agent")
    sshd = start_sshd(tmp_path / "sshd", public)
    policy = make_policy(HELD_POLICY)
    (Path(policy.home) / ".ssh").mkdir(exist_ok=True)
    (Path(policy.home) / ".ssh" / "known_hosts").write_text(
        sshd.host_key_line.replace(f"[127.0.0.1]:{sshd.port}", "held.test")
    )
    bare_repo(tmp_path / "srv" / "widget.git")
    work = Path(policy.workspace[0])
    git(work, "init", "-q", ".")
    git(work, "commit", "-q", "--allow-empty", "-m", "one")
    git(work, "remote", "add", "origin", f"root@held.test:{tmp_path}/srv/widget.git")
    keeper = make_keeper(policy)
    approver = Approver(keeper)
    resolver = StaticResolver({"held.test": [FAKE_ADDRESSES["held.test"]]})
    dialer = StaticDialer({(FAKE_ADDRESSES["held.test"], 22): ("127.0.0.1", sshd.port)})
    try:
        with EgressSession(
            sibling(keeper, HostsGate(keeper.gate, ("held.test:22",))), resolver=resolver, dialer=dialer,
            held=[held_secret(policy)], on_parked=approver.on_parked, ssh_hosts=("held.test:22",),
            ssh_agent=agent.socket, home=policy.home,
        ) as egress:  # fmt: skip
            answering = approver.answer_in_background()
            spec = spec_for(policy, "git push origin main", environ=child_env, config=ExecConfig(timeout=120))
            result = runner.run(dataclasses.replace(spec, egress=egress.binding))
            answering.join()
    finally:
        sshd.close()
        agent.close()

    assert (result.exit_code, pushed(tmp_path / "srv" / "widget.git")) == (0, "one\n"), result.stderr
    assert [r.evaluation.reasons[0].rule for r in approver.requests] == ["egress.hold"]
