"""``bastion.configuration``: one load gives the gate's Policy and every other section beside
it; a bad value in any section fails every load; what an untrusted file may not change is
listed with the policy's own warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.adapters.hooks.settings import AskVia
from bastion.configuration import Configuration, configure, load_configuration, load_policy, load_text
from bastion.errors import PolicyError
from bastion.exec.profile import Contain
from bastion.policy.loader import compile_layers
from tests.conftest import ignored_warning, policy_layers

EVERY_SECTION = """ask_via = "bastion"
state_url = "postgresql://db.example/bastion"
[exec]
contain = "all"
[limits]
max_calls_per_turn = 7
[audit]
store_raw_arguments = true
[gateway]
rate_limit_per_minute = 9
[second_opinion]
command = ["/usr/local/bin/check"]
"""


def test_one_load_gives_the_policy_and_a_typed_value_per_section(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    config = load_text(EVERY_SECTION, cwd=str(tmp_path), env=env, path=str(tmp_path / "p.toml"))
    assert (
        config.hooks.ask_via,
        config.state.url,
        config.exec.contain,
        config.limits.max_calls_per_turn,
        config.audit.store_raw_arguments,
        config.gateway.rate_limit_per_minute,
        config.opinion and config.opinion.command,
        config.policy.sources,
    ) == (
        AskVia.BASTION,
        "postgresql://db.example/bastion",
        Contain.ALL,
        7,
        True,
        9,
        ("/usr/local/bin/check",),
        (str(tmp_path / "p.toml"),),
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[exec]\nsecrets = ["not a name"]\n', "exec"),
        ('[gateway]\ncors_origins = ["app.example"]\n', "gateway.cors_origins"),
        ('[second_opinion]\nurl = "ftp://x.example/"\n', "second_opinion.url"),
    ],
)
def test_a_bad_section_fails_even_a_load_that_wants_only_the_policy(
    tmp_path: Path, text: str, key: str
) -> None:
    file = tmp_path / "p.toml"
    file.write_text(text)
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    with pytest.raises(PolicyError) as info:
        load_policy(str(file), cwd=str(tmp_path), env=env)
    assert (info.value.file, info.value.key) == (str(file), key)


def test_the_sections_warnings_follow_the_policy_s_own(tmp_path: Path) -> None:
    text = '[commands]\nallow = ["rm *"]\n[audit]\nstore_raw_arguments = true\n[exec]\ntimeout = 600\n'
    layers = policy_layers(tmp_path, (text, False))
    policy = compile_layers(layers, cwd=str(tmp_path), env={"HOME": str(tmp_path)})
    config = configure(policy, layers)
    assert config.policy.warnings == (
        ignored_warning(tmp_path, 1, "commands.allow"),
        ignored_warning(tmp_path, 1, "audit.store_raw_arguments"),
        ignored_warning(tmp_path, 1, "[exec] (it loosens a limit, a variable or a secret)"),
    )


def test_a_project_file_that_is_not_trusted_lists_every_ignored_section(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".bastion").mkdir(parents=True)
    file = project / ".bastion" / "policy.toml"
    file.write_text(EVERY_SECTION + '[commands]\nallow = ["rm *"]\n')
    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "s")}
    config = load_configuration(cwd=str(project), env=env)
    ignored = [w.split("; ignored ", 1)[1].split(" (run ")[0] for w in config.policy.warnings]
    assert ignored == [
        "commands.allow",
        "audit.store_raw_arguments",
        "ask_via = 'bastion'",
        "state_url",
        "[second_opinion] (it runs a command or sends calls to a URL)",
    ]
    # The tightenings apply (fewer calls, a lower rate, more calls contained); nothing else does.
    assert config == Configuration(
        policy=config.policy, exec=config.exec, limits=config.limits, gateway=config.gateway
    )
    assert (config.exec.contain, config.limits.max_calls_per_turn, config.gateway.rate_limit_per_minute) == (
        Contain.ALL,
        7,
        9,
    )
