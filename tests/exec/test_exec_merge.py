"""``merge_exec``: the ``[exec]`` of the layers, where an untrusted layer only tightens."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.errors import PolicyError
from bastion.exec.profile import Contain
from bastion.exec.settings import ExecConfig, SecretHold, merge_exec
from tests.conftest import ignored_warning, policy_layers

LOOSER = "[exec]\ntimeout = 600\n"
TIGHTER = '[exec]\ntimeout = 5\ncontain = "all"\n'
WHAT = "[exec] (it loosens a limit, a variable or a secret)"


def test_without_a_table_every_runner_setting_is_the_default(tmp_path: Path) -> None:
    assert merge_exec(policy_layers(tmp_path, ("mode = 'workspace'\n", True))) == (ExecConfig(), ())


def test_a_trusted_layer_may_loosen(tmp_path: Path) -> None:
    assert merge_exec(policy_layers(tmp_path, (LOOSER, True))) == (ExecConfig(timeout=600.0), ())


def test_an_untrusted_layer_cannot_loosen_and_says_so(tmp_path: Path) -> None:
    layers = policy_layers(tmp_path, ("[exec]\ntimeout = 60\n", True), (LOOSER, False))
    assert merge_exec(layers) == (ExecConfig(timeout=60.0), (ignored_warning(tmp_path, 2, WHAT),))


def test_an_untrusted_layer_may_tighten(tmp_path: Path) -> None:
    assert merge_exec(policy_layers(tmp_path, (TIGHTER, False))) == (
        ExecConfig(timeout=5.0, contain=Contain.ALL),
        (),
    )


@pytest.mark.parametrize(
    "loosening",
    [
        '[exec]\ncontain = "off"\n',
        '[exec]\ncontain = "allowed"\n',
        '[exec]\nenv_allow = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ", "AWS_SECRET_ACCESS_KEY"]\n',
        '[exec]\nsecrets = ["GH_TOKEN"]\n',
        "[exec]\nseccomp = false\n",
        "[exec]\nmax_processes = 100000\n",
    ],
)
def test_no_untrusted_loosening_of_any_key_applies(tmp_path: Path, loosening: str) -> None:
    config, warnings = merge_exec(policy_layers(tmp_path, (loosening, False)))
    assert (config, warnings) == (ExecConfig(), (ignored_warning(tmp_path, 1, WHAT),))


def test_a_held_secret_is_compiled_from_its_table(tmp_path: Path) -> None:
    text = '[exec.secrets.API]\nhosts = ["api.example"]\napproval = "hold"\n'
    config, _ = merge_exec(policy_layers(tmp_path, (text, True)))
    assert (config.secrets, config.held) == ((), (SecretHold("API", ("api.example",)),))


def test_a_bad_value_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    with pytest.raises(PolicyError) as info:
        merge_exec(
            policy_layers(tmp_path, ('mode = "workspace"\n\n[exec]\nsecrets = ["not a name"]\n', True))
        )
    assert (info.value.file, info.value.line, info.value.key) == (str(tmp_path / "layer1.toml"), 3, "exec")
