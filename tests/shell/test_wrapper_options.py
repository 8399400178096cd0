"""A wrapper is looked through only for the options its table declares (issue 31): any other
option of its own (valgrind --log-file=…, xvfb-run -e FILE) leaves the command unknown."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.call.effects import Effect
from bastion.shell.analysis import analyze
from bastion.shell.programs.wrappers import WRAPPERS

E = Effect
#: Wrappers that classify what they run (not builtins that replace the shell, not shells).
_LOOKED_THROUGH = sorted(n for n in WRAPPERS if n not in ("exec", "builtin", "coproc", "command", "watch"))
#: A long option (with or without a value) or one short switch (a cluster such as -aa is
#: -a with a value when -a takes one).
_OPTION = st.from_regex(r"--[a-z][a-z-]{0,12}(=[a-z./~]{1,8})?|-[a-zA-Z]", fullmatch=True)


@given(st.sampled_from(_LOOKED_THROUGH), _OPTION)
def test_an_option_a_wrapper_does_not_declare_is_never_a_pure_read(name: str, option: str) -> None:
    spec = WRAPPERS[name]
    head = option.split("=", 1)[0]
    declared = spec.known | spec.takes_value | set(spec.value_paths) | spec.no_command | spec.shell_string
    longs = {
        n for n in declared | spec.shell_flags | spec.skip_unless if n.startswith(head) and n.startswith("--")
    }
    if spec.declares(head) or head in spec.aliases or len(longs) == 1:
        return  # declared, or the unique abbreviation of a declared long option (GNU getopt)
    skip = " 5" if spec.skip else ""
    analysis = analyze(f"{name} {shlex.quote(option)}{skip} ls")
    assert not all(c.pure_reader for c in analysis.commands), (name, option)


@pytest.mark.parametrize(
    ("command", "written"),
    [
        ("valgrind --log-file=~/.bashrc ls", "~/.bashrc"),
        ("valgrind --xml-file=out.xml ls", "out.xml"),
        ("xvfb-run -e err.txt ls", "err.txt"),
        ("xvfb-run --auth-file=auth ls", "auth"),
        ("strace -o trace.txt ls", "trace.txt"),
        ("ltrace --output=trace.txt ls", "trace.txt"),
        ("time -o t.txt ls", "t.txt"),
    ],
)
def test_a_wrappers_output_option_is_a_write_of_its_file(command: str, written: str) -> None:
    cmd = analyze(command).commands[-1]
    assert E.WRITE in cmd.effects and not cmd.pure_reader
    assert [p.path for p in cmd.paths if p.access.value == "write"] == [written]


@pytest.mark.parametrize(
    "command",
    [
        "timeout 5 ls",
        "timeout -k 2 5 ls",
        "nice -n 5 ls",
        "stdbuf -oL ls",
        "strace -f -c ls",
    ],
)
def test_a_wrapper_with_declared_options_is_looked_through(command: str) -> None:
    assert [c.pure_reader for c in analyze(command).commands] == [True]


@pytest.mark.parametrize(
    "command",
    ["nohup ls", "setsid -f sleep 100", "nohup setsid sh -c 'sleep 1000'", "nohup sh -c 'ls; cat README'"],
)
def test_a_command_that_detaches_from_the_call_is_never_a_pure_reader(command: str) -> None:
    # It outlives the call unless a sandbox's own pid namespace ends it with the call (suite F).
    commands = analyze(command).commands
    assert [(c.pure_reader, Effect.UNKNOWN in c.effects) for c in commands] == [(False, True)] * len(commands)


@pytest.mark.parametrize(
    ("command", "program", "unknown"),
    [
        ("bwrap --bind / / --dev /dev sh -c 'cat ~/.netrc'", "cat", True),  # suite H
        ("bwrap --bind / / --setenv A b --symlink usr/lib /lib ls", "ls", True),  # two-value options
        ("bwrap --ro-bind /usr /usr --chdir / rm -rf home", "rm", True),  # another folder
        ("bwrap --args 3 ls", "ls", True),  # more arguments from a descriptor
    ],
)
def test_bwrap_is_looked_through_to_what_it_runs(command: str, program: str, unknown: bool) -> None:
    # bwrap writes its own namespaces' uid_map: what runs under it is never a pure read
    commands = analyze(command).commands
    assert [(c.program, Effect.UNKNOWN in c.effects, c.pure_reader) for c in commands][-1] == (
        program,
        unknown,
        False,
    )
