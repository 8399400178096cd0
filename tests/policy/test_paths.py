"""Adversarial path tests: every spelling of a protected place is caught."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, ToolCall
from tests.conftest import GateFactory

Call = Callable[..., ToolCall]


def decide(
    make_gate: GateFactory, call: Call, tool: str, path: str, text: str = "", **kw: object
) -> Decision:
    return make_gate(text).evaluate(call(tool, path=path, **kw)).decision


@pytest.mark.parametrize(
    "path",
    [
        "~/.ssh/id_rsa",
        "../.ssh/id_rsa",
        "src/../../.ssh/id_rsa",
        "..//.ssh//id_rsa",
        "~/.SSH/ID_RSA",
        "~/./.ssh/./id_rsa",
        "/etc/../root/.aws/credentials",
        "deploy.pem",
        "secrets/server.KEY",
        ".env",
        ".env.production",
        "config/.netrc",
        "~/.docker/config.json",
        "~/.config/gcloud/credentials.db",
        "~/.kube/config",
        "~/.gnupg/private-keys-v1.d/x.key",
    ],
)
def test_credential_locations_are_denied_for_read_however_spelled(
    make_gate: GateFactory, call: Call, path: str
) -> None:
    evaluation = make_gate().evaluate(call("read", path=path))
    assert evaluation.decision is Decision.DENY
    assert "hardline.credentials" in {r.rule for r in evaluation.reasons}
    assert evaluation.marker == "[policy-denied]"


def test_credential_locations_are_denied_for_write_even_in_full_access(
    make_gate: GateFactory, call: Call
) -> None:
    evaluation = make_gate('mode = "full-access"').evaluate(call("write", path="~/.aws/credentials"))
    assert evaluation.decision is Decision.DENY
    assert [r.rule for r in evaluation.reasons] == ["hardline.credentials"]


def test_a_symlink_inside_the_workspace_to_ssh_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (workspace / "innocent.txt").symlink_to(home / ".ssh" / "id_rsa")
    evaluation = make_gate().evaluate(call("read", path="innocent.txt"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "hardline.credentials"
    assert "symlink target of" in evaluation.reasons[0].message


def test_a_symlink_chain_leaving_the_workspace_is_not_allowed(
    make_gate: GateFactory, call: Call, workspace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "data.txt").write_text("x")
    (workspace / "a").symlink_to(workspace / "b")
    (workspace / "b").symlink_to(outside / "data.txt")
    evaluation = make_gate().evaluate(call("read", path="a"))
    assert evaluation.decision is Decision.ASK
    assert evaluation.reasons[0].rule == "paths.outside-roots"


def test_a_symlink_loop_is_denied(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    (workspace / "loop1").symlink_to(workspace / "loop2")
    (workspace / "loop2").symlink_to(workspace / "loop1")
    evaluation = make_gate().evaluate(call("read", path="loop1"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "paths.symlink-loop"


def test_a_new_file_under_a_symlinked_folder_resolves_through_its_existing_ancestor(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (workspace / "keys").symlink_to(home / ".ssh")
    evaluation = make_gate().evaluate(call("write", path="keys/new_file"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "hardline.credentials"


@pytest.mark.parametrize("path", ["a\x00b", "x" * 5000, "bad\udcff"])
def test_unusable_paths_are_denied_with_a_clear_reason(make_gate: GateFactory, call: Call, path: str) -> None:
    evaluation = make_gate().evaluate(call("read", path=path))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "paths.invalid"


def test_unicode_names_inside_the_workspace_are_ordinary_paths(make_gate: GateFactory, call: Call) -> None:
    assert decide(make_gate, call, "write", "src/naïve-日本.py") is Decision.ALLOW


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "/usr/bin/python3", "/boot/x", "/var/lib/dpkg/status", "/lib64/x"]
)
def test_system_locations_are_denied_for_write(make_gate: GateFactory, call: Call, path: str) -> None:
    evaluation = make_gate('mode = "full-access"').evaluate(call("write", path=path))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "hardline.system"


def test_system_locations_may_be_read_outside_the_roots_only_by_asking(
    make_gate: GateFactory, call: Call
) -> None:
    assert decide(make_gate, call, "read", "/etc/hostname") is Decision.ASK


@pytest.mark.parametrize(
    "path",
    [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".git/hooks/pre-commit",
        "~/.bashrc",
        "~/.zshrc",
        ".gemini/settings.json",
        ".github/hooks/x.json",
    ],
)
def test_agent_permission_and_startup_files_ask_on_write(
    make_gate: GateFactory, call: Call, path: str
) -> None:
    evaluation = make_gate('mode = "full-access"').evaluate(call("write", path=path))
    assert evaluation.decision is Decision.ASK
    assert evaluation.reasons[0].rule == "hardline.agent-config"
    assert evaluation.hardline


def test_an_allow_rule_cannot_lower_an_agent_config_write_below_ask(
    make_gate: GateFactory, call: Call
) -> None:
    gate = make_gate('[[rule]]\ntool = "write"\naction = "allow"\n')
    assert gate.evaluate(call("write", path=".claude/settings.json")).decision is Decision.ASK


def test_bastions_own_policy_file_and_state_are_denied(
    make_policy: Callable[..., object], call: Call, workspace: Path, env: dict[str, str]
) -> None:
    from bastion import Gate, load_policy

    policy_file = workspace / "bastion.toml"
    policy_file.write_text('mode = "full-access"\n')
    gate = Gate(load_policy(str(policy_file), cwd=str(workspace), env=env))
    assert gate.evaluate(call("write", path="bastion.toml")).reasons[0].rule == "hardline.self"
    state = env["BASTION_STATE_DIR"]
    assert gate.evaluate(call("read", path=os.path.join(state, "bastion.db"))).decision is Decision.DENY
    # Bastion's default state under HOME too, while this gate keeps its state elsewhere (suite H)
    default = os.path.join(env["HOME"], ".local", "state", "bastion", "keys.json")
    assert [r.rule for r in gate.evaluate(call("read", path=default)).reasons] == ["hardline.self"]


def test_the_credentials_dir_is_denied_wherever_it_is(
    make_gate: GateFactory, call: Call, tmp_path: Path
) -> None:
    creds = tmp_path / "vault"
    gate = make_gate(f'mode = "full-access"\ncredentials_dir = "{creds}"')
    evaluation = gate.evaluate(call("read", path=str(creds / "token.json")))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "hardline.credentials"


def test_a_path_outside_every_root_is_never_allowed_by_the_roots(
    make_gate: GateFactory, call: Call, tmp_path: Path
) -> None:
    for spelled in (str(tmp_path / "x"), "../../x", "//tmp/../" + str(tmp_path / "x")):
        evaluation = make_gate().evaluate(call("write", path=spelled))
        assert evaluation.decision is Decision.ASK, spelled


def test_a_workspace_prefix_lookalike_is_outside_the_workspace(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    sibling = str(workspace) + "-evil/file"
    assert decide(make_gate, call, "write", sibling) is Decision.ASK


def test_trusted_read_roots_allow_reads_but_not_writes(
    make_gate: GateFactory, call: Call, tmp_path: Path
) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    gate = make_gate(f'trusted_roots = ["{lib}", {{ path = "{tmp_path / "rw"}", rw = true }}]')
    assert gate.evaluate(call("read", path=str(lib / "a.py"))).decision is Decision.ALLOW
    assert gate.evaluate(call("write", path=str(lib / "a.py"))).decision is Decision.ASK
    assert gate.evaluate(call("write", path=str(tmp_path / "rw" / "a.py"))).decision is Decision.ALLOW


def test_deny_read_globs_beat_the_workspace_root(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate('[paths]\ndeny_read = ["secrets/**"]')
    evaluation = gate.evaluate(call("read", path="secrets/a.txt"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "paths.deny_read"
    assert evaluation.reasons[0].source.endswith(":2")


def test_allow_write_globs_open_a_place_outside_the_roots(
    make_gate: GateFactory, call: Call, tmp_path: Path
) -> None:
    gate = make_gate(f'[paths]\nallow_write = ["{tmp_path}/out/**"]')
    evaluation = gate.evaluate(call("write", path=str(tmp_path / "out" / "f")))
    assert evaluation.decision is Decision.ALLOW
    assert evaluation.reasons[0].rule == "paths.allow_write"


def test_very_deep_paths_are_decided_without_error(make_gate: GateFactory, call: Call) -> None:
    deep = "/".join(["d"] * 1000)
    assert decide(make_gate, call, "write", deep) is Decision.ALLOW


def test_dotdot_after_a_symlink_is_resolved_as_the_kernel_does(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (home / ".ssh" / "sub").mkdir()
    (workspace / "link").symlink_to(home / ".ssh" / "sub")
    # Lexically this is <workspace>/id_rsa; the kernel opens ~/.ssh/id_rsa.
    evaluation = make_gate().evaluate(call("read", path="link/../id_rsa"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "hardline.credentials"


def test_a_dangling_link_is_followed_to_its_target(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (workspace / "dangling").symlink_to(home / ".aws" / "credentials")
    evaluation = make_gate().evaluate(call("write", path="dangling"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == "hardline.credentials"


def test_a_new_file_in_a_new_folder_resolves_through_existing_ancestors(
    make_gate: GateFactory, call: Call
) -> None:
    assert decide(make_gate, call, "write", "a/b/c/new.txt") is Decision.ALLOW
