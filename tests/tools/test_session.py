"""The session tool: a real pty inside real bubblewrap, every line decided by the real gate
and recorded in the ledger by a Gatekeeper; the prompt and line checks as pure pieces."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.approval.memory import MemoryStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.procfs import proc_status, running
from bastion.exec.pty import OutputLog
from bastion.policy.decision import Evaluation
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper
from bastion.tools import Authorizer, registry
from bastion.tools.session import PtySession, SessionTool
from bastion.tools.session_prompt import PromptTracker, line_problem
from bastion.tools.session_table import Background, SessionSettings
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import require_bwrap
from tests.tools.conftest import StubAuthorizer

OPEN = {"action": "open"}


class Recording:
    """The Gatekeeper as the tools' authorizer, keeping the calls it was asked about."""

    def __init__(self, keeper: Gatekeeper) -> None:
        self.keeper = keeper
        self.calls: list[ToolCall] = []

    async def request(self, call: ToolCall) -> Evaluation:
        self.calls.append(call)
        return await self.keeper.request(call)

    def record_execution(
        self, call: ToolCall, evaluation: Evaluation, exit_code: int | None, duration: float
    ) -> None:
        self.keeper.record_execution(call, evaluation, exit_code, duration)


@pytest.fixture
def keeper(make_policy: PolicyFactory) -> Iterator[Gatekeeper]:
    policy = make_policy()
    ledger = Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32))
    with Gatekeeper(Gate(policy, resolver=StaticResolver({}), sandboxed=True), store=MemoryStore(),
                    ledger=ledger) as keeper:  # fmt: skip
        yield keeper


SessionFactory = Callable[..., SessionTool]


@pytest.fixture
def make_session(make_policy: PolicyFactory, child_env: dict[str, str]) -> Iterator[SessionFactory]:
    made: list[SessionTool] = []

    def build(authorizer: Authorizer, policy: str = "", **settings: Any) -> SessionTool:
        require_bwrap()
        tools = registry(Configuration(make_policy(policy), exec=ExecConfig(timeout=20)), authorizer=authorizer, runner=BubblewrapRunner(),
                         resolver=StaticResolver({}), environ=child_env)  # fmt: skip
        ctx = dataclasses.replace(tools[0].ctx, background=Background(SessionSettings(**settings)))
        made.append(SessionTool(ctx))
        return made[-1]

    yield build
    for tool in made:  # no shell outlives its test
        tool.ctx.background.close()


def call(tool: SessionTool, **args: Any) -> dict[str, Any]:
    return asyncio.run(tool.run(args))


def opened(tool: SessionTool) -> str:
    result = call(tool, **OPEN)
    assert (result["ok"], result["data"]["state"]) == (True, "ready"), result
    assert result["stdout"].endswith("$ ")
    return str(result["data"]["session"])


def entry(tool: SessionTool, key: str) -> PtySession:
    found = tool.ctx.background.sessions.get(key)
    assert isinstance(found, PtySession)
    return found


def ledger_rows(keeper: Gatekeeper) -> list[tuple[str, str, str, int | None]]:
    return [
        (r.event.kind, r.event.decision, r.event.summary, r.event.exit_code) for r in keeper.ledger.events()
    ]


def outcome(result: Mapping[str, Any]) -> tuple[Any, ...]:
    return (result["ok"], result["decision"], result["exit_code"], result["stdout"], result["data"]["state"])


# -- against the real thing ---------------------------------------------------------------
def test_an_allowed_line_runs_in_the_sandboxed_shell_and_its_output_is_read(
    make_session: SessionFactory, keeper: Gatekeeper, workspace: Path
) -> None:
    tool = make_session(Recording(keeper))
    key = opened(tool)
    result = call(tool, action="send", session=key, input="echo hello; pwd; ls")
    assert outcome(result) == (
        True,
        "allow",
        0,
        f"echo hello; pwd; ls\nhello\n{workspace}\nREADME.md  src\n$ ",  # ls on a terminal: columns
        "ready",
    )
    assert [r["rule"] for r in result["reasons"]] == ["mode.workspace"] * 3
    # Inside bubblewrap: a pid namespace of its own, where the shell is a low pid.
    shell = entry(tool, key).shell_pid
    assert shell is not None and (proc_status(shell) or ("",))[0] == "bash"
    with open(f"/proc/{shell}/status", encoding="ascii") as handle:
        nspid = next(line for line in handle if line.startswith("NSpid:")).split()
    assert len(nspid) >= 3 and int(nspid[-1]) < 10
    assert ledger_rows(keeper) == [
        ("decided", "allow", "shell: echo hello; pwd; ls", None),
        ("executed", "allow", "shell: echo hello; pwd; ls", 0),
    ]


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ("touch marker; rm -rf ~", "proj/marker"),
        ("echo x > ~/.bashrc", ".bashrc"),
        ("truncate -s 0 marker", "proj/marker"),  # no plain writer: `touch marker` is allowed
    ],
)
def test_a_denied_or_unanswered_line_never_reaches_the_shell(
    make_session: SessionFactory, keeper: Gatekeeper, home: Path, line: str, marker: str
) -> None:
    tool = make_session(Recording(keeper))
    key = opened(tool)
    denied = call(tool, action="send", session=key, input=line)
    after = call(tool, action="send", session=key, input="echo after")
    assert (denied["ok"], denied["decision"], denied["stdout"]) == (False, "deny", "")
    assert denied["reasons"][-1]["decision"] == "deny"
    assert not (home / marker).exists()
    # The pty echoes what it is typed: the transcript shows only the line that was allowed.
    assert after["stdout"] == "echo after\nafter\n$ "
    assert [row[:3] for row in ledger_rows(keeper)] == [
        ("decided", "deny", f"shell: {line}"),
        ("decided", "allow", "shell: echo after"),
        ("executed", "allow", "shell: echo after"),
    ]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("echo a\necho b", "control character '\\n' refused"),
        ("echo a\x03", "control character '\\x03' refused"),
        ("\x1b[A", "control character '\\x1b' refused"),
        ("echo\tx", "control character '\\t' refused"),
        ("echo a\x7f\x7frm -rf ~", "control character '\\x7f' refused"),
        ("cat <<EOF", "a heredoc (<<) is refused"),
        ("echo a \\", "a trailing backslash is refused"),
        ("   ", "nothing to type"),
        ("echo " + "a" * 4000, "the line is longer than 4000 bytes"),
    ],
)
def test_input_that_is_not_one_whole_line_is_refused_before_any_decision(
    make_session: SessionFactory, keeper: Gatekeeper, text: str, why: str
) -> None:
    tool = make_session(Recording(keeper))
    key = opened(tool)
    result = call(tool, action="send", session=key, input=text)
    assert (result["ok"], result["decision"], result["stdout"]) == (False, "deny", "")
    assert result["message"].startswith(f"not typed: {why}")
    assert ledger_rows(keeper) == []
    assert call(tool, action="read", session=key)["stdout"] == ""


def test_each_line_is_decided_in_the_shell_s_current_directory(
    make_session: SessionFactory, keeper: Gatekeeper, workspace: Path
) -> None:
    authorizer = Recording(keeper)
    tool = make_session(authorizer)
    key = opened(tool)
    call(tool, action="send", session=key, input="cd src")
    result = call(tool, action="send", session=key, input="ls")
    assert result["stdout"] == "ls\napp.py\n$ "
    assert [(c.args["command"], c.cwd) for c in authorizer.calls] == [
        ("cd src", str(workspace)),
        ("ls", str(workspace / "src")),
    ]


def test_a_line_is_not_typed_while_the_previous_one_still_runs(
    make_session: SessionFactory, keeper: Gatekeeper
) -> None:
    tool = make_session(Recording(keeper))
    key = opened(tool)
    first = call(tool, action="send", session=key, input="sleep 30", wait=0)
    second = call(tool, action="send", session=key, input="echo early")
    assert (first["ok"], first["decision"], first["exit_code"], first["data"]["state"]) == (
        True,
        "allow",
        None,
        "busy",
    )
    assert (second["ok"], second["message"]) == (
        False,
        "not typed: the shell is still running the previous line: read its output first",
    )
    closed = call(tool, action="close", session=key)
    assert (closed["ok"], closed["message"], closed["data"]["state"]) == (True, "closed", "ended")
    assert ledger_rows(keeper) == [
        ("decided", "allow", "shell: sleep 30", None),
        ("executed", "allow", "shell: sleep 30", None),
    ]


def test_a_session_left_idle_is_killed_and_says_why(make_session: SessionFactory, keeper: Gatekeeper) -> None:
    tool = make_session(Recording(keeper), idle_seconds=0.5)
    key = opened(tool)
    session = entry(tool, key)
    assert session.live.wait_ended(20)
    result = call(tool, action="read", session=key)
    assert (result["ok"], result["timed_out"], result["data"]["state"], result["message"]) == (
        False,
        True,
        "ended",
        "killed: nothing was sent or read for 0.5s (its idle limit)",
    )
    assert not running(session.shell_pid or 0)
    refused = call(tool, action="send", session=key, input="echo late")
    assert refused["message"].startswith("not typed: the session has ended (killed: nothing was sent")


def test_a_session_past_its_total_time_is_killed_and_the_running_line_recorded(
    make_session: SessionFactory, keeper: Gatekeeper
) -> None:
    tool = make_session(Recording(keeper), total_seconds=2)
    key = opened(tool)
    call(tool, action="send", session=key, input="sleep 30", wait=0)
    assert entry(tool, key).live.wait_ended(20)
    result = call(tool, action="read", session=key)
    assert (result["ok"], result["timed_out"], result["message"]) == (
        False,
        True,
        "killed: older than its total time limit (2s)",
    )
    assert ledger_rows(keeper)[-1] == ("executed", "allow", "shell: sleep 30", None)


def test_the_output_held_and_the_output_read_are_capped(
    make_session: SessionFactory, keeper: Gatekeeper
) -> None:
    tool = make_session(Recording(keeper), max_output_bytes=1000, read_bytes=300)
    key = opened(tool)
    first = call(tool, action="send", session=key, input="seq 1 3000")  # 13893 bytes of output
    session = entry(tool, key)
    assert session.live.log.held <= 1000 and session.live.log.total > 13893
    assert (first["truncated"], first["data"]["more"], len(first["stdout"])) == (True, True, 300)
    assert first["data"]["dropped"] > 12000
    pieces = [first["stdout"]]
    while len(pieces) < 5 and pieces[-1]:
        pieces.append(call(tool, action="read", session=key)["stdout"])
    assert "".join(pieces).endswith("2999\n3000\n$ ") and len("".join(pieces)) == 1000
    assert all(len(piece) <= 300 for piece in pieces)


def test_at_most_the_configured_number_of_sessions_is_open(make_session: SessionFactory) -> None:
    tool = make_session(StubAuthorizer(Effect.READ), max_open=1)
    key = opened(tool)
    second = call(tool, **OPEN)
    assert (second["ok"], second["decision"], second["message"]) == (
        False,
        "deny",
        "at most 1 sessions may be open at once: close one first",
    )
    call(tool, action="close", session=key)
    assert opened(tool) != key


def test_a_shell_left_waiting_for_a_continuation_line_is_closed(make_session: SessionFactory) -> None:
    # The gate denies an unterminated quote; an authorizer that allows it shows the backstop.
    tool = make_session(StubAuthorizer(Effect.READ))
    key = opened(tool)
    result = call(tool, action="send", session=key, input='echo "unterminated')
    assert (result["ok"], result["data"]["state"]) == (False, "ended")
    assert result["message"] == (
        "closed by Bastion: the shell waited for a continuation line, which would run without "
        "being decided as part of the whole command"
    )
    assert not running(entry(tool, key).shell_pid or 0)


def test_turning_on_history_expansion_closes_the_session_before_a_line_could_use_it(
    make_session: SessionFactory, keeper: Gatekeeper, workspace: Path
) -> None:
    # `set -H` is a harmless reader as a one-off command (the gate allows it); in a session
    # it would make `cat !$` read whatever the previous line named, a file never decided.
    tool = make_session(Recording(keeper))
    key = opened(tool)
    call(tool, action="send", session=key, input="echo README.md")
    switched = call(tool, action="send", session=key, input="set -H; set -o history")
    after = call(tool, action="send", session=key, input="cat !$")
    assert (switched["ok"], switched["data"]["state"], switched["message"]) == (
        False,
        "ended",
        "closed by Bastion: the shell's options changed (histexpand, history): the next line "
        "would not be read as it was decided",
    )
    assert (after["ok"], after["decision"]) == (False, "deny")
    assert after["message"].startswith("not typed: the session has ended")
    assert [row[2] for row in ledger_rows(keeper) if row[0] == "decided"] == [
        "shell: echo README.md",
        "shell: set -H; set -o history",
    ]


@pytest.mark.parametrize(
    ("line", "variable"),
    [
        ("for PROMPT_COMMAND in 'touch made'; do :; done", "PROMPT_COMMAND"),
        ("for PS1 in '$(touch made)'; do :; done", "PS1"),
        ("let PATH=1", "PATH"),
    ],
)
def test_the_variables_that_run_or_find_commands_cannot_be_changed_by_a_line_a_gate_allows(
    make_session: SessionFactory, keeper: Gatekeeper, workspace: Path, line: str, variable: str
) -> None:
    # In a session these would run `touch made` before every prompt, undecided, or make `ls`
    # run ./1/ls. The gate no longer allows them (they assign a special variable); the
    # session's read-only variables are the second layer, tested with a gate that allows.
    call_of_line = ToolCall("shell", {"command": line}, cwd=str(workspace))
    assert keeper.decide(call_of_line).decision.value != "allow"
    tool = make_session(StubAuthorizer(Effect.READ))
    key = opened(tool)
    result = call(tool, action="send", session=key, input=line)
    after = call(tool, action="send", session=key, input="ls")
    assert (result["decision"], result["exit_code"]) == ("allow", 1)
    assert result["stdout"] == f"{line}\nbash: {variable}: readonly variable\n$ "
    assert after["stdout"] == "ls\nREADME.md  src\n$ "
    assert not (workspace / "made").exists()


def test_a_changed_terminal_closes_the_session_before_the_next_line(
    make_session: SessionFactory, workspace: Path
) -> None:
    # The gate asks for stty; were it approved, `stty kill K` would make the terminal erase
    # everything typed before a K: `echo 'Kcat secret #'` would reach the shell as `cat …`.
    tool = make_session(StubAuthorizer(Effect.READ))
    key = opened(tool)
    call(tool, action="send", session=key, input="stty kill K")
    result = call(tool, action="send", session=key, input="echo 'Ktouch made #'")
    assert (result["ok"], result["decision"], result["data"]["state"]) == (False, "deny", "ended")
    assert result["message"] == (
        "not typed: the session has ended (closed by Bastion: the terminal's settings changed: "
        "a typed line would not reach the shell as it was decided)"
    )
    assert not (workspace / "made").exists()


def test_in_read_only_mode_the_sandbox_refuses_a_write_even_when_the_line_was_allowed(
    make_session: SessionFactory, workspace: Path
) -> None:
    tool = make_session(StubAuthorizer(Effect.WRITE), policy='mode = "read-only"')
    key = opened(tool)
    result = call(tool, action="send", session=key, input="touch made")
    assert (result["ok"], result["exit_code"], result["data"]["state"]) == (False, 1, "ready")
    assert "Read-only file system" in result["stdout"]
    assert not (workspace / "made").exists()


def test_a_policy_that_denies_the_shell_offers_neither_session_nor_job(
    make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    require_bwrap()
    policy = make_policy('[[rule]]\ntool = "shell"\naction = "deny"\n')
    names = [t.name for t in registry(Configuration(policy), runner=BubblewrapRunner(), environ=child_env)]
    assert names == [
        "read", "write", "edit", "multi_edit", "list", "glob", "grep", "code", "fetch", "install",
        "detect_tools",
    ]  # fmt: skip


class Held(StubAuthorizer):
    """Allows, but only once the test lets the decision finish."""

    entered: asyncio.Event
    release: asyncio.Event

    async def request(self, call: ToolCall) -> Evaluation:
        self.entered.set()
        await self.release.wait()
        return await super().request(call)


def test_a_second_line_is_refused_while_the_first_is_being_decided(make_session: SessionFactory) -> None:
    authorizer = Held(Effect.READ)
    tool = make_session(authorizer)
    key = opened(tool)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        authorizer.entered, authorizer.release = asyncio.Event(), asyncio.Event()
        first = asyncio.ensure_future(tool.run({"action": "send", "session": key, "input": "echo one"}))
        await authorizer.entered.wait()  # a person is being asked about the first line
        second = await tool.run({"action": "send", "session": key, "input": "echo two"})
        authorizer.release.set()
        return await first, second

    first, second = asyncio.run(scenario())
    assert (second["ok"], second["message"]) == (False, "another line is being decided for this session")
    assert first["stdout"] == "echo one\none\n$ "
    assert [c.args["command"] for c in authorizer.requests] == ["echo one"]


CONTROLS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c != 0x0A]


def test_a_line_waiting_for_a_person_keeps_the_session_from_going_idle(make_session: SessionFactory) -> None:
    authorizer = Held(Effect.READ)
    tool = make_session(authorizer, idle_seconds=0.3)
    key = opened(tool)
    session = entry(tool, key)

    async def scenario() -> dict[str, Any]:
        authorizer.entered, authorizer.release = asyncio.Event(), asyncio.Event()
        sent = asyncio.ensure_future(tool.run({"action": "send", "session": key, "input": "echo late"}))
        await authorizer.entered.wait()
        # Three idle limits pass while the person thinks (the pump checks every 50 ms).
        ended = await asyncio.to_thread(session.live.wait_ended, 1.0)
        authorizer.release.set()
        result = await sent
        return {"ended": ended, **result}

    result = asyncio.run(scenario())
    assert (result["ended"], result["ok"], result["stdout"]) == (False, True, "echo late\nlate\n$ ")


@given(st.text(max_size=40), st.integers(min_value=0, max_value=40), st.sampled_from(CONTROLS), st.booleans())
def test_any_control_character_but_a_final_newline_is_refused(
    text: str, at: int, char: str, final: bool
) -> None:
    line = "echo " + text[:at] + char + text[at:] + ("\n" if final else "")
    assert line_problem(line, 4000) is not None


def test_an_unknown_session_is_refused(make_session: SessionFactory) -> None:
    tool = make_session(StubAuthorizer(Effect.READ))
    result = call(tool, action="read", session="-rf")
    assert (result["ok"], result["decision"], result["message"]) == (
        False,
        "deny",
        "no session '-rf' here: open one first",
    )


def test_session_ids_are_random_and_never_look_like_an_option(make_session: SessionFactory) -> None:
    tool = make_session(StubAuthorizer(Effect.READ))
    keys = {tool.ctx.background.sessions.new_id() for _ in range(50)}
    assert len(keys) == 50
    assert all(k.startswith("sess") and len(k) == 28 and int(k[4:], 16) >= 0 for k in keys)


# -- the pure pieces ------------------------------------------------------------------------
def test_a_prompt_is_replaced_and_counted_with_its_exit_status() -> None:
    tracker = PromptTracker("abc")
    out = tracker.feed(b"hi\n<bastion:abc:0:braceexpand:hashall>ls\n<bastion:abc:127:hashall>")
    assert (out, tracker.prompts, tracker.exit_code, tracker.refused) == (b"hi\n$ ls\n$ ", 2, 127, "")


def test_output_that_only_looks_like_a_prompt_is_left_as_it_is() -> None:
    tracker = PromptTracker("abc")
    text = b"<bastion:xyz:0:> <bastion:abc:x> <bastion:abc> <bastion:abc:0:A> <b"
    assert tracker.feed(text) + tracker.feed(b"old>") == text + b"old>"
    assert tracker.prompts == 0


@given(st.lists(st.integers(min_value=0, max_value=90), max_size=6))
def test_a_prompt_cut_between_chunks_is_found_all_the_same(cuts: list[int]) -> None:
    data = b"out <1>\n<bastion:n0nce:2:hashall:noglob>x<bastion:n0nce:more>tail<"
    tracker = PromptTracker("n0nce")
    points = sorted({min(c, len(data)) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    out = b"".join(tracker.feed(piece) for piece in pieces)
    assert (out, tracker.prompts, tracker.exit_code) == (b"out <1>\n$ x> tail", 1, 2)
    assert tracker.refused.startswith("the shell waited for a continuation line")


@pytest.mark.parametrize("options", ["histexpand", "history", "emacs", "vi", "posix", "keyword", "onecmd"])
def test_a_prompt_showing_an_option_that_changes_how_lines_are_read_refuses_the_next(options: str) -> None:
    tracker = PromptTracker("abc")
    tracker.feed(f"<bastion:abc:0:braceexpand:{options}:hashall>".encode())
    assert (
        tracker.refused
        == f"the shell's options changed ({options}): the next line would not be read as it was decided"
    )


def test_the_prompt_variables_carry_the_nonce_and_the_options() -> None:
    assert PromptTracker("abc").env == {"PS1": "<bastion:abc:$?:$SHELLOPTS>", "PS2": "<bastion:abc:more>"}


@pytest.mark.parametrize("line", ["echo hi", "echo hi\n", "grep -c x <<< 'x'", "echo 'ünïcode'"])
def test_a_whole_line_of_text_is_accepted(line: str) -> None:
    assert line_problem(line, 4000) is None


def test_the_output_log_keeps_the_newest_bytes_and_counts_what_it_dropped() -> None:
    log = OutputLog(10)
    log.feed(b"0123456789")
    log.feed(b"abcde")
    assert (log.held, log.start, log.total) == (10, 5, 15)
    assert dataclasses.astuple(log.read(0, 4)) == (b"5678", 5, 9, 5)
    assert dataclasses.astuple(log.read(12, 100)) == (b"cde", 12, 15, 0)
    assert dataclasses.astuple(log.read(40, 100)) == (b"", 40, 40, 0)


def test_no_shell_outlives_close(make_session: SessionFactory) -> None:
    tool = make_session(StubAuthorizer(Effect.READ))
    key = opened(tool)
    shell = entry(tool, key).shell_pid or 0
    call(tool, action="close", session=key)
    assert shell and not running(shell)
