"""``enabled = [...]``: which of Bastion's tools a policy offers; bad names are load errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion import PolicyError, load_policy, load_policy_text
from bastion.policy.enabled import TOOL_NAMES


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_without_the_key_every_tool_is_enabled(tmp_path: Path, env: dict[str, str]) -> None:
    policy = load_policy_text('mode = "workspace"\n', cwd=str(tmp_path), env=env)
    assert policy.enabled is None


def test_the_list_is_kept_in_order_without_repeats(tmp_path: Path, env: dict[str, str]) -> None:
    file = write(tmp_path / "p.toml", 'mode = "workspace"\nenabled = ["read", "grep", "read"]\n')
    policy = load_policy(file, cwd=str(tmp_path), env=env)
    assert policy.enabled == ("read", "grep")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('enabled = ["read", "bash"]\n', 1),
        ('mode = "read-only"\n\nenabled = [\n  "read",\n  "writ",\n]\n', 3),
    ],
)
def test_an_unknown_tool_name_is_a_load_error_naming_file_line_and_key(
    tmp_path: Path, env: dict[str, str], text: str, line: int
) -> None:
    file = write(tmp_path / "p.toml", text)
    with pytest.raises(PolicyError) as info:
        load_policy(file, cwd=str(tmp_path), env=env)
    error = info.value
    assert (error.file, error.key) == (file, "enabled")
    assert error.line == line  # the key's line
    assert "unknown tool" in error.detail and ", ".join(TOOL_NAMES) in error.detail


def test_a_wrong_type_is_a_load_error_for_the_key(tmp_path: Path, env: dict[str, str]) -> None:
    file = write(tmp_path / "p.toml", 'enabled = "read"\n')
    with pytest.raises(PolicyError) as info:
        load_policy(file, cwd=str(tmp_path), env=env)
    assert (info.value.line, info.value.key) == (1, "enabled")


def test_an_untrusted_project_file_may_remove_tools_but_never_add_one(
    tmp_path: Path, env: dict[str, str]
) -> None:
    write(Path(env["HOME"]) / ".config/bastion/policy.toml", 'enabled = ["read", "grep", "edit"]\n')
    project = tmp_path / "repo"
    write(project / ".bastion" / "policy.toml", 'enabled = ["read", "exec", "edit"]\n')
    policy = load_policy(cwd=str(project), env=env)
    assert policy.enabled == ("read", "edit")
    assert [w for w in policy.warnings if "enabled" in w] == [
        f"{project / '.bastion' / 'policy.toml'}: untrusted project policy may only tighten; ignored "
        f"enabled entries 'exec' (run 'bastion policy trust {project / '.bastion' / 'policy.toml'}' to accept it)"
    ]


def test_an_untrusted_list_under_no_list_narrows_from_every_tool(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "repo"
    write(project / ".bastion" / "policy.toml", 'enabled = ["read"]\n')
    assert load_policy(cwd=str(project), env=env).enabled == ("read",)
