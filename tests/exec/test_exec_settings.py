"""The ``[exec]`` containment keys: parsed, validated, tightened only by a project layer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.configuration import load_text
from bastion.errors import PolicyError
from bastion.exec import ExecConfig
from bastion.exec.boundary import limits_of
from bastion.exec.profile import Contain
from bastion.exec.runner import Limits
from bastion.exec.settings import tighter_exec
from tests.conftest import ConfigurationFactory


def test_the_defaults_contain_allowed_and_approved_calls_with_every_limit_on(
    make_configuration: ConfigurationFactory,
) -> None:
    config = make_configuration("").exec
    assert (config.contain, config.max_processes, config.max_resident_mb, config.tmp_size_mb) == (
        "all", 512, 4096, 512,
    )  # fmt: skip
    assert (config.seccomp, config.scan_max_entries) == (True, 200_000)
    assert limits_of(config) == Limits()


def test_every_containment_key_is_read_from_the_policy(make_configuration: ConfigurationFactory) -> None:
    config = make_configuration(
        '[exec]\ncontain = "all"\nmax_processes = 64\nmax_resident_mb = 256\ntmp_size_mb = 16\n'
        'seccomp = false\nscan_max_entries = 1000\nscan_skip = ["vendor"]\n'
    ).exec
    assert config == ExecConfig(
        contain=Contain.ALL, max_processes=64, max_resident_mb=256, tmp_size_mb=16, seccomp=False,
        scan_max_entries=1000, scan_skip=("vendor",),
    )  # fmt: skip
    assert limits_of(config) == Limits(max_processes=64, max_resident_mb=256, tmp_size_mb=16, seccomp=False)


@pytest.mark.parametrize(
    "text",
    [
        'contain = "sometimes"',
        "max_processes = 0",
        "tmp_size_mb = 0",
        "scan_max_entries = 0",
        'seccomp = "yes"',
        "max_resident_mb = -1",
    ],
)
def test_a_bad_containment_value_is_a_policy_error(
    make_configuration: ConfigurationFactory, text: str
) -> None:
    with pytest.raises(PolicyError):
        make_configuration(f"[exec]\n{text}\n")


@pytest.mark.parametrize("name", ["a/b", "", ".."])
def test_a_scan_skip_entry_must_be_a_plain_folder_name(name: str) -> None:
    with pytest.raises(ValueError, match="plain folder name"):
        ExecConfig(scan_skip=(name,))


@pytest.mark.parametrize(
    ("looser", "field"),
    [
        (ExecConfig(contain=Contain.OFF), "contain"),
        (ExecConfig(max_processes=10_000), "max_processes"),
        (ExecConfig(max_resident_mb=0), "max_resident_mb"),
        (ExecConfig(tmp_size_mb=4096), "tmp_size_mb"),
        (ExecConfig(seccomp=False), "seccomp"),
        (ExecConfig(scan_max_entries=10_000_000), "scan_max_entries"),
        (ExecConfig(scan_skip=(*ExecConfig().scan_skip, "src")), "scan_skip"),
    ],
)
def test_a_project_layer_cannot_loosen_a_containment_key(looser: ExecConfig, field: str) -> None:
    assert tighter_exec(looser, ExecConfig()) is False, field


def test_a_project_layer_may_tighten_them() -> None:
    tighter = ExecConfig(
        contain=Contain.ALL, max_processes=64, max_resident_mb=512, tmp_size_mb=64, scan_skip=()
    )
    assert tighter_exec(tighter, ExecConfig()) is True


def test_an_untrusted_project_file_that_turns_containment_off_is_dropped(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".bastion").mkdir(parents=True)
    (project / ".bastion" / "policy.toml").write_text('[exec]\ncontain = "off"\n')
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "state")}
    from bastion.configuration import load_configuration

    config = load_configuration(None, cwd=str(project), env=env)
    assert config.exec.contain is Contain.ALL
    assert load_text('[exec]\ncontain = "off"\n', cwd=str(project), env=env).exec.contain is Contain.OFF
