"""``[exec.secrets.NAME]``: ``hosts`` and ``approval = "hold"`` in the policy file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion import PolicyError, load_configuration, load_policy
from bastion.exec.secrets import SecretError, SecretStore
from bastion.exec.settings import ExecConfig, SecretHold


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_a_held_secret_table_becomes_a_hold_and_not_an_injectable_secret(
    tmp_path: Path, env: dict[str, str]
) -> None:
    text = (
        '[exec.secrets.GH_TOKEN]\nhosts = ["api.github.com", "*.githubusercontent.com"]\napproval = "hold"\n'
        "[exec.secrets.PLAIN]\n"
    )
    config = load_configuration(write(tmp_path / "p.toml", text), cwd=str(tmp_path), env=env)
    assert (config.exec.secrets, config.exec.held) == (
        ("PLAIN",),
        (SecretHold("GH_TOKEN", ("api.github.com", "*.githubusercontent.com")),),
    )


def test_a_call_asking_for_a_held_secret_by_name_does_not_get_it(tmp_path: Path, env: dict[str, str]) -> None:
    text = '[exec.secrets.GH_TOKEN]\nhosts = ["api.github.com"]\napproval = "hold"\n'
    config = load_configuration(write(tmp_path / "p.toml", text), cwd=str(tmp_path), env=env)
    store = SecretStore(config.policy.credentials_dir, config.exec.secrets)  # as the tools build it
    with pytest.raises(SecretError, match="secret 'GH_TOKEN' is not listed in \\[exec\\] secrets"):
        store.load(["GH_TOKEN"])


def test_the_list_form_of_secrets_still_injects_them(tmp_path: Path, env: dict[str, str]) -> None:
    config = load_configuration(
        write(tmp_path / "p.toml", '[exec]\nsecrets = ["A"]\n'), cwd=str(tmp_path), env=env
    )
    assert (config.exec.secrets, config.exec.held) == (("A",), ())


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('hosts = ["a.example"]\n', 'exec.secrets.T: hosts only apply with approval = "hold"'),
        ('approval = "hold"\n', "exec.secrets.T: a held secret needs hosts = [...]"),
        ('hosts = ["*"]\napproval = "hold"\n', "exec.secrets.T.hosts: not every host"),
        ('hosts = ["https://a.example"]\napproval = "hold"\n', "exec.secrets.T.hosts: host pattern"),
        ('hosts = ["a.example"]\napproval = "ask"\n', "approval"),
        ('hosts = ["a.example"]\napproval = "hold"\nextra = 1\n', "extra"),
    ],
)
def test_a_bad_secret_table_is_a_load_error(
    tmp_path: Path, env: dict[str, str], table: str, message: str
) -> None:
    file = write(tmp_path / "p.toml", "[exec.secrets.T]\n" + table)
    with pytest.raises(PolicyError) as info:
        load_policy(file, cwd=str(tmp_path), env=env)
    assert message in str(info.value)


def test_a_held_secret_is_never_injectable() -> None:
    with pytest.raises(ValueError, match="a held secret cannot also be injected"):
        ExecConfig(secrets=("T",), held=(SecretHold("T", ("a.example",)),))


INJECTED = '[exec]\nsecrets = ["T"]\n'
HELD_AB = '[exec.secrets.T]\nhosts = ["a.example", "b.example"]\napproval = "hold"\n'


@pytest.mark.parametrize(
    ("user", "project", "held"),
    [
        # Holding a secret the user injects is tighter: it applies.
        (INJECTED, '[exec.secrets.T]\nhosts = ["a.example"]\napproval = "hold"\n',
         (SecretHold("T", ("a.example",)),)),
        # Fewer hosts is tighter too.
        (HELD_AB, '[exec.secrets.T]\nhosts = ["b.example"]\napproval = "hold"\n',
         (SecretHold("T", ("b.example",)),)),
        # Un-holding it, or sending it to one more host, loosens: the project's [exec] is dropped.
        (HELD_AB, "[exec.secrets.T]\n", (SecretHold("T", ("a.example", "b.example")),)),
        (HELD_AB, '[exec.secrets.T]\nhosts = ["a.example", "c.example"]\napproval = "hold"\n',
         (SecretHold("T", ("a.example", "b.example")),)),
    ],
)  # fmt: skip
def test_an_untrusted_project_file_may_only_tighten_a_hold(
    tmp_path: Path, env: dict[str, str], user: str, project: str, held: tuple[SecretHold, ...]
) -> None:
    write(Path(env["HOME"]) / ".config/bastion/policy.toml", user)
    repo = tmp_path / "repo"
    write(repo / ".bastion" / "policy.toml", project)
    config = load_configuration(cwd=str(repo), env=env)
    assert (config.exec.secrets, config.exec.held) == ((), held)
