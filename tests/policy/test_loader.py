"""Loading policy files: errors name file, line and key; layers; trust; examples self-test."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion import PolicyError, load_policy, load_policy_text
from bastion.adapters.hooks.settings import AskVia, HookSettings
from bastion.adapters.http.settings import GatewaySettings
from bastion.approval.settings import LimitsConfig
from bastion.audit.settings import AuditConfig
from bastion.configuration import load_configuration
from bastion.policy.loader import trust_policy_file
from bastion.state.settings import StateSettings


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def load_error(tmp_path: Path, text: str, env: dict[str, str]) -> PolicyError:
    file = write(tmp_path / "p.toml", text)
    with pytest.raises(PolicyError) as info:
        load_policy(file, cwd=str(tmp_path), env=env)
    return info.value


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ('mode = "workspace"\nmodee = "x"\n', 2, "modee"),
        ('mode = "yolo"\n', 1, "mode"),
        ('[paths]\n\ndeny_read = ["a"]\nalow_write = []\n', 4, "paths.alow_write"),
        ('[approval]\nttl = "5 minutes"\n', 2, "approval.ttl"),
        ('[network]\nallow_private = "yes"\n', 2, "network.allow_private"),
        (
            '[[rule]]\ntool = "shell"\naction = "allow"\n[[rule]]\ntool = "shell"\naction = "maybe"\n',
            6,
            "rule.1.action",
        ),
        ('[[rule]]\ntool = "teleport"\naction = "allow"\n', 2, "rule[1].tool"),
        ('[paths]\ndeny_read = ["!negated"]\n', 2, "paths.deny_read"),
        ('[network]\nallow_hosts = ["http://x.com/"]\n', 2, "network.allow_hosts"),
        ('[ceiling]\nnetwork = "sometimes"\n', 2, "ceiling.network"),
        ("trusted_roots = [{ path = '/x', rw = 1 }]\n", 1, "trusted_roots.0.rw"),
    ],
)
def test_load_errors_name_file_line_and_key(
    tmp_path: Path, env: dict[str, str], text: str, line: int, key: str
) -> None:
    error = load_error(tmp_path, text, env)
    assert (error.file, error.line, error.key) == (str(tmp_path / "p.toml"), line, key)
    assert str(error).startswith(f"{tmp_path / 'p.toml'}:{line}: {key}: ")


def test_invalid_toml_is_reported_with_its_line(tmp_path: Path, env: dict[str, str]) -> None:
    error = load_error(tmp_path, 'mode = "workspace"\n[paths\n', env)
    assert error.line == 2
    assert "not valid TOML" in str(error)


def test_a_failing_match_example_is_a_load_error(tmp_path: Path, env: dict[str, str]) -> None:
    error = load_error(
        tmp_path,
        '[[rule]]\ntool = "fetch"\npattern = "*.github.com"\naction = "allow"\nmatch = ["github.com"]\n',
        env,
    )
    assert error.line == 1
    assert "match example 'github.com' does not match" in str(error)


def test_a_failing_not_match_example_is_a_load_error(tmp_path: Path, env: dict[str, str]) -> None:
    error = load_error(
        tmp_path,
        '[[rule]]\ntool = "read"\npattern = "**/*.log"\naction = "deny"\nnot_match = ["x/a.log"]\n',
        env,
    )
    assert "not_match example 'x/a.log' matches" in str(error)


def test_a_missing_policy_file_is_a_clear_error(tmp_path: Path, env: dict[str, str]) -> None:
    with pytest.raises(PolicyError, match="cannot read policy file"):
        load_policy(str(tmp_path / "nope.toml"), cwd=str(tmp_path), env=env)


def test_no_file_at_all_gives_the_documented_defaults(tmp_path: Path, env: dict[str, str]) -> None:
    policy = load_policy(cwd=str(tmp_path), env=env)
    assert (policy.mode, policy.workspace, policy.sources, policy.ceiling) == (
        "workspace",
        (str(tmp_path),),
        (),
        None,
    )
    assert (policy.interactive_default, policy.non_interactive_default, policy.ttl_seconds) == (
        "ask",
        "deny",
        300.0,
    )
    assert policy.credentials_dir == env["HOME"] + "/.bastion/credentials"


def test_relative_roots_anchor_at_the_files_folder(tmp_path: Path, env: dict[str, str]) -> None:
    file = write(tmp_path / "conf" / "p.toml", 'workspace = [".", "../data"]\n')
    policy = load_policy(file, cwd="/", env=env)
    assert policy.workspace == (str(tmp_path / "conf"), str(tmp_path / "data"))


def test_bastion_policy_env_replaces_every_other_file(tmp_path: Path, env: dict[str, str]) -> None:
    write(Path(env["HOME"]) / ".config/bastion/policy.toml", 'mode = "full-access"\n')
    chosen = write(tmp_path / "chosen.toml", 'mode = "read-only"\n')
    policy = load_policy(cwd=str(tmp_path), env={**env, "BASTION_POLICY": chosen})
    assert (policy.mode, policy.sources) == ("read-only", (chosen,))


def test_an_untrusted_project_file_may_only_tighten(tmp_path: Path, env: dict[str, str]) -> None:
    user = write(Path(env["HOME"]) / ".config/bastion/policy.toml", 'mode = "workspace"\n')
    project = tmp_path / "repo"
    proj_file = write(
        project / ".bastion" / "policy.toml",
        'mode = "full-access"\nworkspace = ["/"]\n[commands]\nallow = ["curl *"]\ndeny = ["git push *"]\n'
        '[network]\nallow_private = true\n[[rule]]\ntool = "shell"\naction = "allow"\n'
        '[[rule]]\ntool = "write"\npattern = "**/*.lock"\naction = "deny"\n',
    )
    policy = load_policy(cwd=str(project / "sub"), env=env)
    assert policy.sources == (user, proj_file)
    assert (policy.mode, policy.workspace) == ("workspace", (str(project / "sub"),))
    assert [p.text for p in policy.command_allow] == []
    assert [p.text for p in policy.command_deny] == ["git push *"]
    assert [r.action for r in policy.rules] == ["deny"]
    assert not policy.network.allow_private
    assert len(policy.warnings) == 5
    assert all("bastion policy trust" in w for w in policy.warnings)


def test_a_trusted_project_file_may_loosen_until_it_changes(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "repo"
    proj_file = write(project / ".bastion" / "policy.toml", 'mode = "full-access"\nworkspace = ["."]\n')
    trust_policy_file(proj_file, env["BASTION_STATE_DIR"])
    policy = load_policy(cwd=str(project), env=env)
    assert (policy.mode, policy.workspace, policy.warnings) == ("full-access", (str(project),), ())
    Path(proj_file).write_text('mode = "full-access"\nworkspace = [".."]\n')
    changed = load_policy(cwd=str(project), env=env)
    assert changed.mode == "workspace"
    assert changed.warnings


def test_a_project_file_can_lower_but_never_raise_the_ceiling(tmp_path: Path, env: dict[str, str]) -> None:
    write(
        Path(env["HOME"]) / ".config/bastion/policy.toml",
        '[ceiling]\napproval = "never_ask"\nfilesystem = "workspace_write"\nnetwork = "allowed"\n',
    )
    project = tmp_path / "repo"
    write(
        project / ".bastion" / "policy.toml",
        '[ceiling]\napproval = "never_ask"\nfilesystem = "unrestricted"\nnetwork = "denied"\n',
    )
    policy = load_policy(cwd=str(project), env=env)
    assert policy.ceiling is not None
    assert policy.ceiling.as_tuple() == ("never_ask", "workspace_write", "denied")


def test_fields_left_out_of_a_present_ceiling_are_the_strictest(tmp_path: Path) -> None:
    policy = load_policy_text(
        '[ceiling]\nnetwork = "allowed"\n', cwd=str(tmp_path), env={"HOME": str(tmp_path)}
    )
    assert policy.ceiling is not None
    assert policy.ceiling.as_tuple() == ("ask_every_action", "read_only", "allowed")


def test_rule_sources_point_at_their_header_line(tmp_path: Path, env: dict[str, str]) -> None:
    file = write(tmp_path / "p.toml", 'mode = "workspace"\n\n[[rule]]\ntool = "shell"\naction = "ask"\n')
    policy = load_policy(file, cwd=str(tmp_path), env=env)
    assert policy.rules[0].source == f"{file}:3"


def test_the_example_policy_file_loads_and_its_examples_pass(env: dict[str, str]) -> None:
    example = Path(__file__).parents[2] / "examples" / "policy.toml"
    policy = load_policy(str(example), cwd=str(example.parent), env=env)
    assert policy.mode == "workspace"
    assert policy.rules


def test_every_commented_out_setting_of_the_example_policy_loads_once_uncommented(
    env: dict[str, str], tmp_path: Path
) -> None:
    import re

    example = Path(__file__).parents[2] / "examples" / "policy.toml"
    # `# key = value` and `# [table]` lines are settings a user may turn on where they stand.
    setting = re.compile(r"^# (\[[a-z._]+\]|[a-z_]+ = \S)")
    lines = example.read_text().splitlines()
    uncommented = [line[2:] if setting.match(line) else line for line in lines]
    assert uncommented != lines
    file = write(tmp_path / "policy.toml", "\n".join(uncommented) + "\n")
    config = load_configuration(file, cwd=str(tmp_path), env=env)
    assert (config.hooks.ask_via, config.state.url) == ("agent", "postgresql://bastion@localhost/bastion")


toml_values = st.recursive(
    st.one_of(st.booleans(), st.integers(), st.text(max_size=20), st.floats(allow_nan=False)),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3)
    ),
    max_leaves=10,
)
KEYS = [
    "mode",
    "workspace",
    "trusted_roots",
    "credentials_dir",
    "approval",
    "paths",
    "commands",
    "network",
    "rule",
    "ceiling",
    "x",
]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), toml_values, max_size=5))
def test_the_loader_never_crashes_on_arbitrary_toml_data(data: dict[str, object]) -> None:
    import tomli_w

    text = tomli_w.dumps(data)
    with contextlib.suppress(PolicyError):
        load_policy_text(text, cwd="/tmp", env={"HOME": "/tmp/h"})


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_the_loader_never_crashes_on_arbitrary_text(text: str) -> None:
    with contextlib.suppress(PolicyError):
        load_policy_text(text, cwd="/tmp", env={"HOME": "/tmp/h"})


def test_limits_audit_exec_and_ask_via_sections_become_typed_values_beside_the_policy(
    tmp_path: Path, env: dict[str, str]
) -> None:
    file = write(
        tmp_path / "p.toml",
        'ask_via = "bastion"\n[limits]\nmax_calls_per_turn = 10\nmax_turn_duration = "2m"\ncalls_per_minute = 0\n'
        '[audit]\nstore_raw_arguments = true\n[exec]\ntimeout = 5\nenv_allow = ["PATH"]\nsecrets = ["GH_TOKEN"]\n',
    )
    config = load_configuration(file, cwd=str(tmp_path), env=env)
    assert config.limits == LimitsConfig(
        max_calls_per_turn=10, max_turn_duration=120.0, calls_per_minute=None, source=f"{file}:2"
    )
    assert config.audit == AuditConfig(store_raw_arguments=True)
    assert (config.exec.timeout, config.exec.env_allow, config.exec.secrets) == (5, ("PATH",), ("GH_TOKEN",))
    assert config.hooks == HookSettings(ask_via=AskVia.BASTION)


def test_an_untrusted_project_file_can_only_tighten_limits_exec_and_audit(
    tmp_path: Path, env: dict[str, str]
) -> None:
    write(Path(env["HOME"]) / ".config/bastion/policy.toml", "[limits]\nmax_calls_per_turn = 10\n")
    project = tmp_path / "repo"
    write(
        project / ".bastion" / "policy.toml",
        'ask_via = "bastion"\n[limits]\nmax_calls_per_turn = 50\ncalls_per_minute = 30\n'
        "[audit]\nstore_raw_arguments = true\n[exec]\ntimeout = 600\n",
    )
    config = load_configuration(cwd=str(project), env=env)
    assert (config.limits.max_calls_per_turn, config.limits.calls_per_minute) == (10, 30)
    assert config.audit.store_raw_arguments is False
    assert config.exec.timeout == 30.0
    assert config.hooks.ask_via is AskVia.AGENT
    assert sum("untrusted project policy" in w for w in config.policy.warnings) == 3


def test_a_bad_exec_value_is_a_load_error(tmp_path: Path, env: dict[str, str]) -> None:
    error = load_error(tmp_path, '[exec]\nsecrets = ["not a name"]\n', env)
    assert (error.line, error.key) == (1, "exec")


def test_the_gateway_table_reaches_the_http_settings(tmp_path: Path, env: dict[str, str]) -> None:
    file = write(
        tmp_path / "p.toml", '[gateway]\nrate_limit_per_minute = 5\ncors_origins = ["https://a.example"]\n'
    )
    settings = load_configuration(file, cwd=str(tmp_path), env=env).gateway
    assert (settings.rate_limit_per_minute, settings.cors_origins, settings.max_body_bytes) == (
        5,
        ("https://a.example",),
        65536,
    )


def test_an_untrusted_project_file_may_lower_but_not_raise_gateway_limits(
    tmp_path: Path, env: dict[str, str]
) -> None:
    project = tmp_path / "repo"
    write(project / ".bastion" / "policy.toml", "[gateway]\nrate_limit_per_minute = 6000\n")
    assert load_configuration(cwd=str(project), env=env).gateway == GatewaySettings()
    write(project / ".bastion" / "policy.toml", "[gateway]\nrate_limit_per_minute = 10\n")
    assert load_configuration(cwd=str(project), env=env).gateway == GatewaySettings(rate_limit_per_minute=10)


def test_mcp_rule_args_and_server_maps_are_read_from_the_file(tmp_path: Path, env: dict[str, str]) -> None:
    file = write(
        tmp_path / "p.toml",
        '[[rule]]\ntool = "mcp"\npattern = "shell/run"\naction = "allow"\nargs = { command = "git status" }\n'
        '[mcp.servers.files]\npaths = ["path", "files[]"]\nurls = ["url"]\n',
    )
    policy = load_policy(file, cwd=str(tmp_path), env=env)
    assert policy.rules[0].args == {"command": "git status"}
    assert (policy.mcp_servers["files"].paths, policy.mcp_servers["files"].urls) == (
        ("path", "files[]"),
        ("url",),
    )


def test_the_gemini_hole_stays_closed_an_allow_matches_argument_keys_not_json(
    tmp_path: Path, env: dict[str, str]
) -> None:
    from bastion import Decision, Gate, ToolCall

    file = write(
        tmp_path / "p.toml",
        '[[rule]]\ntool = "mcp"\npattern = "shell/run"\naction = "allow"\nargs = { command = "git status" }\n',
    )
    gate = Gate(load_policy(file, cwd=str(tmp_path), env=env))

    def decide(arguments: dict[str, object]) -> Decision:
        call = ToolCall("mcp", {"server": "shell", "tool": "run", "arguments": arguments}, cwd=str(tmp_path))
        return gate.evaluate(call).decision

    assert decide({"command": "git status"}) is Decision.ALLOW
    assert decide({"command": "whoami", "metadata": {"reason": "git status"}}) is Decision.DENY


def test_state_url_comes_only_from_a_trusted_file(tmp_path: Path, env: dict[str, str]) -> None:
    write(
        Path(env["HOME"]) / ".config/bastion/policy.toml", 'state_url = "postgresql://db.example/bastion"\n'
    )
    project = tmp_path / "repo"
    write(project / ".bastion" / "policy.toml", 'state_url = "postgresql://attacker.example/x"\n')
    config = load_configuration(cwd=str(project), env=env)
    assert config.state == StateSettings(url="postgresql://db.example/bastion")
    assert any("state_url" in w for w in config.policy.warnings)
