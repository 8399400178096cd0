"""A write to a file existing config names as a program (or includes as git config) asks,
found through that config, whatever the file's name (policy/named_programs.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall


def _git(repo: Path, *args: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)


@pytest.fixture
def repo(workspace: Path) -> Path:
    path = workspace / "repo"
    path.mkdir()
    _git(path, "init", "-q")
    return path


def _decide(gate: Gate, call: Callable[..., ToolCall], *paths: str) -> dict[str, Decision]:
    return {p: gate.evaluate(call("write", path=p, content="echo hi\n")).decision for p in paths}


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("core.fsmonitor", "./.fsm.sh", ".fsm.sh"),
        ("diff.hex.textconv", "./tools/hexview.sh", "tools/hexview.sh"),
        ("diff.external", "tools/ext diff", "tools/ext"),
        ("alias.lg", "!./.lg.sh --oneline", ".lg.sh"),
        ("alias.st", "!sh -c './bin/st.sh >/dev/null; git status'", "bin/st.sh"),
        ("filter.x.clean", "scripts/clean.py %f", "scripts/clean.py"),
    ],
)
def test_writing_the_program_a_repository_setting_names_asks(
    repo: Path,
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    key: str,
    value: str,
    named: str,
) -> None:
    _git(repo, "config", key, value)

    decisions = _decide(make_gate(), call, f"repo/{named}", "repo/src/app.py")

    assert decisions == {f"repo/{named}": Decision.ASK, "repo/src/app.py": Decision.ALLOW}


def test_writing_a_file_the_repository_config_includes_asks_it_is_git_config(
    repo: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    _git(repo, "config", "include.path", "../.gitsettings")
    _git(repo, "config", "includeIf.onbranch:main.path", "../conf/local")

    decisions = _decide(make_gate(), call, "repo/.gitsettings", "repo/conf/local", "repo/conf/other")

    assert decisions == {
        "repo/.gitsettings": Decision.ASK,
        "repo/conf/local": Decision.ASK,
        "repo/conf/other": Decision.ALLOW,
    }


def test_writing_a_file_a_nested_repository_s_config_includes_asks_it_is_git_config(
    workspace: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    # vendor/inc is a repository of its own (git -C vendor/inc loads its config): the file
    # its config includes is in the folder beside it, held by no repository (#31, suite E).
    nested = workspace / "vendor" / "inc"
    nested.mkdir(parents=True)
    _git(nested, "init", "-q")
    _git(nested, "config", "include.path", str(workspace / "vendor" / "inc.cfg"))
    _git(nested, "config", "core.fsmonitor", "./watch.sh")

    decisions = _decide(make_gate(), call, "vendor/inc.cfg", "vendor/inc/watch.sh", "vendor/other.cfg")

    assert decisions == {
        "vendor/inc.cfg": Decision.ASK,
        "vendor/inc/watch.sh": Decision.ASK,
        "vendor/other.cfg": Decision.ALLOW,
    }


def test_a_program_an_included_file_names_is_found_through_the_include(
    repo: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    (repo / ".gitlocal").write_text("[core]\n\tfsmonitor = ./tools/watch.sh\n")
    _git(repo, "config", "include.path", "../.gitlocal")

    assert _decide(make_gate(), call, "repo/tools/watch.sh") == {"repo/tools/watch.sh": Decision.ASK}


def test_a_program_named_in_another_folder_s_config_is_not_guarded_here(
    repo: Path, workspace: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    _git(repo, "config", "core.pager", "delta")  # a program on PATH, not a workspace file
    (workspace / "other").mkdir()

    decisions = _decide(make_gate(), call, "repo/delta", "other/.fsm.sh")

    assert decisions == {"repo/delta": Decision.ALLOW, "other/.fsm.sh": Decision.ALLOW}


@pytest.mark.parametrize(
    ("config", "text", "written"),
    [
        ("rust/rust-toolchain.toml", '[toolchain]\npath = "{ws}/rust/.tc"\n', "rust/.tc/bin/cargo"),
        ("rust/rust-toolchain", '[toolchain]\npath = ".tc"\n', "rust/.tc/bin/rustc"),
        ("crate/.cargo/config.toml", '[build]\nrustc-wrapper = ".cargo/wrap.sh"\n', "crate/.cargo/wrap.sh"),
        (
            "crate/.cargo/config.toml",
            '[target.x86_64-unknown-linux-gnu]\nlinker = "tools/ld"\n',
            "crate/tools/ld",
        ),
        ("web/.yarnrc.yml", "yarnPath: .yarn/bin/yarn.cjs\n", "web/.yarn/bin/yarn.cjs"),
    ],
)
def test_writing_the_toolchain_or_wrapper_a_toolchain_file_names_asks(
    workspace: Path,
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    config: str,
    text: str,
    written: str,
) -> None:
    (workspace / config).parent.mkdir(parents=True, exist_ok=True)
    (workspace / config).write_text(text.format(ws=workspace))
    beside = (
        str(Path(config).parent.parent / "src" / "main.rs")
        if ".cargo" in config
        else f"{Path(config).parent}/src/main.rs"
    )

    decisions = _decide(make_gate(), call, written, beside)

    assert decisions == {written: Decision.ASK, beside: Decision.ALLOW}


def test_writing_the_script_shell_npmrc_names_asks(
    workspace: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    (workspace / ".npmrc").write_text(f"script-shell={workspace}/tools/npm-shell.sh\n")

    decisions = _decide(make_gate(), call, "tools/npm-shell.sh", "tools/other.sh")

    assert decisions == {"tools/npm-shell.sh": Decision.ASK, "tools/other.sh": Decision.ALLOW}


def test_a_shell_write_to_a_named_program_asks_too(
    repo: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    _git(repo, "config", "core.fsmonitor", "./.fsm.sh")

    gate = make_gate()
    decisions = {
        target: gate.evaluate(call("shell", command=f"printf 'id\\n' > {target}")).decision
        for target in ("repo/.fsm.sh", "repo/notes.txt")
    }

    assert decisions == {"repo/.fsm.sh": Decision.ASK, "repo/notes.txt": Decision.ALLOW}


def test_a_repository_config_that_cannot_be_parsed_asks_rather_than_allows(
    repo: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    (repo / ".git" / "config").write_bytes(b"[core\n\tfsmonitor = ./.fsm.sh\n")

    assert _decide(make_gate(), call, "repo/x.sh") == {"repo/x.sh": Decision.ASK}
