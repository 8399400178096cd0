"""The option tables claim only options the real tools have.

For every program with an option table that is installed here, its own ``--help`` (and its
manual page, when one is installed) must mention every spelling the table declares; the
options the tool documents that the table does not know are printed (``pytest -s``), so the
gaps stay visible. Programs that are not installed are listed, not failed — except, in CI
(``CI=true``), the tools .ci/run installs for this test.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bastion.shell.programs import vcs as V
from bastion.shell.programs import wrappers as W
from bastion.shell.programs.registry import PROGRAMS
from bastion.shell.programs.spec import Spec

#: What .ci/run's APT_PACKAGES installs for this test: Debian package -> program.
CI_TOOLS = {
    "tree": "tree",
    "ripgrep": "rg",
    "fd-find": "fdfind",
    "bat": "batcat",
    "silversearcher-ag": "ag",
    "ack": "ack",
    "gawk": "gawk",
    "jq": "jq",
}
_ENV = {
    **os.environ,
    "LC_ALL": "C",
    "MANWIDTH": "200",
    "COLUMNS": "200",
    "MANPAGER": "cat",
    "PAGER": "cat",
    "GIT_PAGER": "cat",
}
_TOKEN = re.compile(r"(?<![\w-])(--?[A-Za-z0-9?#~@][\w.@-]*)")
_OPTION_LINE = re.compile(r"^\s{0,10}(-[^\s].*)$")
#: Shell builtins (what runs is the shell's, not a binary's): nothing to run.
_BUILTINS = frozenset(
    {"cd", "pushd", "popd", "dirs", "command", "type", "umask", "jobs", "help", "wait", "printf"}
)
#: Where a tool documents its options elsewhere: extra help commands, or another program.
_MORE_HELP = {"kubectl": ["kubectl", "options"], "ps": ["ps", "--help", "all"]}
_HELP_OF = {"zgrep": "grep", "egrep": "grep", "fgrep": "grep"}


def _run(argv: list[str]) -> str:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=20, env=_ENV, stdin=subprocess.DEVNULL, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout + done.stderr


_VENV_TOOLS = frozenset({"pytest", "py.test", "ruff", "mypy"})


@functools.cache
def _help(program: str, page: str) -> tuple[str, str]:
    """(help text, manual text) of ``program``."""
    # Python tools the project itself installs: this interpreter's copy, not whatever an
    # unrelated PATH entry (a pyenv shim, an older system pytest) happens to provide.
    local = os.path.join(os.path.dirname(sys.executable), program)
    if program in _VENV_TOOLS and os.path.exists(local):
        program = local
    text = _run([program, "--help"])
    if len(text) < 200:
        text += _run([program, "-h"])
    if program in _MORE_HELP:
        text += _run(_MORE_HELP[program])
    manual = _run(["man", page]) if shutil.which("man") else ""
    return text, manual if "No manual entry" not in manual else ""


def _spellings(spec: Spec) -> set[str]:
    names = set(spec.known or ()) | set(spec.aliases)
    return {n for n in names if n.startswith("-") and n not in ("-#", "--", "-")}


def _documented(text: str) -> set[str]:
    found = set(_TOKEN.findall(text))
    for token in list(found):  # `--[no-]foo` and `-C, --context[=NUM]` spellings
        found.add(token.rstrip(".,;:"))
        found.add(token.split("[", 1)[0])
    found |= {"--" + m for m in re.findall(r"--\[no-\]([\w-]+)", text)}
    found |= {"--no-" + m for m in re.findall(r"--\[no-\]([\w-]+)", text)}
    found |= {"--" + m for m in re.findall(r"--\[no\]([\w-]+)", text)}  # ag's spelling
    found |= {"--no" + m for m in re.findall(r"--\[no\]([\w-]+)", text)}
    return found


def _listed(text: str) -> set[str]:
    """Options in the option column of a help text (for the gap report)."""
    out: set[str] = set()
    for line in text.splitlines():
        m = _OPTION_LINE.match(line)
        if m:
            column = re.split(r"\s{2,}|\t", m.group(1).strip())[0]
            out.update(t.split("=")[0].split("[")[0] for t in _TOKEN.findall(column))
    return out


#: Subcommands whose manual sends the reader to another one for the options they take.
_GIT_PAGE = {"whatchanged": "git-log"}


def _cases() -> list[tuple[str, str, str, Spec]]:
    cases = [
        (name, _HELP_OF.get(name, name), _HELP_OF.get(name, name), spec)
        for name, spec in sorted(PROGRAMS.items())
        if spec.known is not None and name not in _BUILTINS
    ]
    cases += [
        (f"git {sub}", "git", _GIT_PAGE.get(sub, f"git-{sub}"), spec)
        for sub, spec in sorted(V.GIT_SUBCOMMANDS.items())
        if spec.known is not None
    ]
    return cases


CASES = _cases()


@pytest.mark.parametrize(("label", "program", "page", "spec"), CASES, ids=[c[0] for c in CASES])
def test_table_claims_only_options_the_tool_documents(
    label: str, program: str, page: str, spec: Spec
) -> None:
    if shutil.which(program) is None:
        print(f"\n{label}: not installed, table not checked")
        return
    text, manual = _help(program, page)
    if program == "git" and not manual:
        print(f"\n{label}: no manual page installed, table not checked")
        return
    documented = _documented(text + manual)
    claimed = _spellings(spec)
    missing = sorted(claimed - documented)
    gaps = sorted(_listed(text + manual) - claimed - {"--help", "--version"})
    if gaps:
        print(f"\n{label}: documented but not in the table (unknown): {' '.join(gaps)}")
    assert not missing, f"{label}: the table claims options its help does not show: {missing}"


def test_ci_installs_the_tools_whose_tables_are_checked() -> None:
    """.ci/run installs them; in CI (CI=true) they must be there."""
    ci_run = (Path(__file__).parents[2] / ".ci" / "run").read_text(encoding="utf-8")
    packages = re.search(r"APT_PACKAGES=\(([^)]*)\)", ci_run)
    assert packages is not None
    assert set(CI_TOOLS) <= set(packages.group(1).split())
    if os.environ.get("CI") == "true":
        missing = [p for p in CI_TOOLS.values() if shutil.which(p) is None]
        assert not missing, f"not installed in CI: {missing}"


def test_every_reader_program_with_a_table_is_checked_somewhere() -> None:
    """The check covers the programs agents run most: they all have tables."""
    for name in (
        "ls",
        "cat",
        "grep",
        "rg",
        "find",
        "tree",
        "sed",
        "awk",
        "jq",
        "sort",
        "head",
        "tail",
        "wc",
        "du",
        "diff",
        "fd",
    ):
        assert PROGRAMS[name].known is not None or PROGRAMS[name].handler == "find", name


def _wrapper_spellings(wrapper: W.Wrapper) -> set[str]:
    names = (
        wrapper.known
        | wrapper.takes_value
        | set(wrapper.value_paths)
        | wrapper.no_command
        | wrapper.shell_string
        | wrapper.shell_flags
        | wrapper.skip_unless
    )
    return {n for n in names if n.startswith("-")}


#: Wrappers whose --help lists no options (nohup's only are --help/--version), or whose own
#: help is not a binary's here (time is also bash's keyword): checked through their manual.
WRAPPER_CASES = sorted((name, wrapper) for name, wrapper in W.WRAPPERS.items() if _wrapper_spellings(wrapper))


@pytest.mark.parametrize(("name", "wrapper"), WRAPPER_CASES, ids=[c[0] for c in WRAPPER_CASES])
def test_a_wrappers_table_claims_only_options_the_wrapper_documents(name: str, wrapper: W.Wrapper) -> None:
    """A wrapper is looked through only for the options its table declares (issue 31): each
    of them must be one the real wrapper documents."""
    if name in _BUILTINS or name in ("exec", "builtin", "coproc") or shutil.which(name) is None:
        print(f"\n{name}: not installed (or a shell builtin), table not checked")
        return
    text, manual = _help(name, name)
    documented = _documented(text + manual)
    missing = sorted(_wrapper_spellings(wrapper) - documented)
    assert not missing, f"{name}: the table claims options its help does not show: {missing}"
