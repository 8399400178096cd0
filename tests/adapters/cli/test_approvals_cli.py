"""``bastion request`` parks, ``bastion approvals`` answers from another process, ``grants``
lists and revokes; every command's ``--json`` shape is pinned."""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.approval.model import ApprovalRequest
from bastion.approval.sqlite import SqliteStore
from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Evaluation, Reason

BASTION = [sys.executable, "-m", "bastion.adapters.cli.main"]
ASKING = ["write", "/opt/elsewhere"]  # outside the workspace, not a system path: a person decides


def _env(env: dict[str, str]) -> dict[str, str]:
    full = {**os.environ, **env, "COLUMNS": "200"}
    full.pop("BASTION_POLICY", None)
    return full


#: Verbs that need an approver identity; ``run`` passes the test's approver key to them.
KEYED = {("approvals", "approve"), ("approvals", "deny"), ("grants", "revoke"), ("policy", "trust")}
KEY_VAR = "TEST_APPROVER_KEY"  # where the ``env`` fixture keeps the key (never read by bastion)


@pytest.fixture
def env(env: dict[str, str]) -> dict[str, str]:
    """The shared env plus an approver key created in its state dir."""
    made = subprocess.run(
        [*BASTION, "keys", "create", "--role", "approver"],
        env=_env(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    return {**env, KEY_VAR: made.stdout.strip()}


def run(
    args: list[str], env: dict[str, str], cwd: Path, *, key: bool = True
) -> subprocess.CompletedProcess[str]:
    extra = ["--key", env[KEY_VAR]] if key and tuple(args[:2]) in KEYED and KEY_VAR in env else []
    return subprocess.run(
        [*BASTION, *args[:2], *extra, *args[2:]],
        env=_env(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def read_line(stream: object, pattern: str = "", deadline: float = 30.0) -> str:
    """The next line of a child's pipe that matches ``pattern`` (fails the test after 30 s)."""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)  # type: ignore[arg-type]
    end = time.monotonic() + deadline
    try:
        while time.monotonic() < end:
            if selector.select(timeout=0.5):
                line = stream.readline()  # type: ignore[attr-defined]
                if not line:
                    raise AssertionError("the child closed its output")
                if re.search(pattern, line):
                    return str(line)
        raise AssertionError(f"no line matching {pattern!r}")
    finally:
        selector.close()


@pytest.fixture
def parked(env: dict[str, str], workspace: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A ``bastion request`` waiting in the background, and its request id."""
    child = subprocess.Popen(
        [*BASTION, "request", "--json", "--session", "s1", *ASKING],
        env=_env(env),
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_line(child.stderr, r"waiting for approval: request ")
        found = re.search(r"request (\S+) \(expires", line)
        assert found is not None
        yield child, found.group(1)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()


def finish(child: subprocess.Popen[str]) -> tuple[int, dict[str, object]]:
    assert child.stdout is not None
    out = child.stdout.read()
    return child.wait(timeout=30), json.loads(out)


def test_a_parked_request_is_listed_and_an_approval_from_another_process_releases_it(
    parked: tuple[subprocess.Popen[str], str], env: dict[str, str], workspace: Path
) -> None:
    child, request_id = parked
    listed = run(["approvals", "list", "--json"], env, workspace)
    [entry] = json.loads(listed.stdout)
    assert set(entry) == {"id", "state", "tool", "summary", "reason", "created", "expires"}
    assert (entry["id"], entry["state"], entry["tool"], entry["summary"]) == (
        request_id,
        "pending",
        "write",
        "write: /opt/elsewhere",
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", str(entry["expires"]))
    approved = run(["approvals", "approve", request_id], env, workspace)
    code, result = finish(child)
    assert (approved.returncode, approved.stdout.strip(), code) == (
        0,
        f"approved {request_id}: write: /opt/elsewhere",
        0,
    )
    assert (result["decision"], result["reasons"][0]["rule"]) == ("allow", "approval.person")  # type: ignore[index]


def test_a_denial_with_feedback_exits_4_and_tells_the_agent_why(
    parked: tuple[subprocess.Popen[str], str], env: dict[str, str], workspace: Path
) -> None:
    child, request_id = parked
    denied = run(["approvals", "deny", request_id, "--feedback", "write inside the project"], env, workspace)
    code, result = finish(child)
    assert (denied.returncode, code, result["marker"]) == (0, 4, "[policy-denied]")
    assert result["reasons"][0]["message"] == "denied by a person: write inside the project"  # type: ignore[index]


def test_the_ledger_shows_the_request_and_who_resolved_it(
    parked: tuple[subprocess.Popen[str], str], env: dict[str, str], workspace: Path
) -> None:
    child, request_id = parked
    run(["approvals", "approve", request_id], env, workspace)
    finish(child)
    events = json.loads(run(["logs", "--json", "--session", "s1"], env, workspace).stdout)
    assert [(e["kind"], e["decision"], e["resolver"], e["rule"], e["decision_id"]) for e in events] == [
        ("requested", "ask", "policy", "paths.outside-roots", request_id),
        ("resolved", "allow", "person", "approval.person", request_id),
    ]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["request", *ASKING, "--timeout", "0"], 4),
        (["request", "--non-interactive", *ASKING], 4),
        (["request", "read", "README.md"], 0),
        (["request", "read", "~/.ssh/id_rsa"], 4),
        (["request", "read"], 2),
        (["request", "--policy", "/nonexistent.toml", "read", "x"], 2),
    ],
)
def test_request_exit_codes_follow_the_contract(
    env: dict[str, str], workspace: Path, args: list[str], code: int
) -> None:
    assert run(args, env, workspace).returncode == code


def test_an_unanswered_request_expires_as_a_denial(env: dict[str, str], workspace: Path) -> None:
    result = run(["request", "--json", "--timeout", "0", *ASKING], env, workspace)
    data = json.loads(result.stdout)
    assert (result.returncode, data["decision"], data["reasons"][0]["rule"]) == (
        4,
        "deny",
        "approval.timeout",
    )
    assert (
        json.loads(run(["approvals", "list", "--all", "--json"], env, workspace).stdout)[0]["state"]
        == "expired"
    )


def test_a_non_interactive_request_never_parks(env: dict[str, str], workspace: Path) -> None:
    run(["request", "--non-interactive", *ASKING], env, workspace)
    assert json.loads(run(["approvals", "list", "--all", "--json"], env, workspace).stdout) == []


def test_approve_always_grants_the_exact_call_until_revoked(
    parked: tuple[subprocess.Popen[str], str], env: dict[str, str], workspace: Path
) -> None:
    child, request_id = parked
    approved = run(["approvals", "approve", request_id, "--always"], env, workspace)
    finish(child)
    [grant] = json.loads(run(["grants", "list", "--json"], env, workspace).stdout)
    assert (grant["kind"], grant["tool"], grant["scope"], grant["scope_value"], grant["request"]) == (
        "exact",
        "write",
        "project",
        str(workspace),
        request_id,
    )
    assert f"revoke with 'bastion grants revoke -- {grant['id']}'" in approved.stdout
    assert run(["request", *ASKING], env, workspace).returncode == 0  # the grant answers at once
    revoked = run(["grants", "revoke", grant["id"]], env, workspace)
    assert (revoked.returncode, json.loads(run(["grants", "list", "--json"], env, workspace).stdout)) == (
        0,
        [],
    )
    assert run(["request", "--timeout", "0", *ASKING], env, workspace).returncode == 4


def _store_request(env: dict[str, str], **kw: object) -> ApprovalRequest:
    evaluation = Evaluation(
        Decision.ASK,
        (Reason(Decision.ASK, "hardline.destructive", "built-in", "rm", "rm"),),
        (Effect.DESTRUCTIVE,),
    )
    fields: dict[str, object] = {
        "id": "hardline-request-1",
        "created": time.time(),
        "expires": time.time() + 300,
        "tool": "shell",
        "summary": "shell: rm -r build",
        "reason": "deleting files",
        "evaluation": evaluation,
        "call_key": "k",
        "project": "/p",
        "argv": ("rm", "-r", "build"),
        "grantable": False,
    }
    fields.update(kw)
    request = ApprovalRequest(**fields)  # type: ignore[arg-type]
    store = SqliteStore(os.path.join(env["BASTION_STATE_DIR"], "bastion.db"))
    store.create_request(request)
    store.close()
    return request


@pytest.mark.parametrize(
    ("args", "code", "error"),
    [
        (
            ["approvals", "approve", "hardline-request-1", "--always"],
            1,
            "error: this call involves a hardline class or raised privilege: never a standing grant\n"
            "hint: approve it once (without --always), or deny it\n",
        ),
        (
            ["approvals", "approve", "nosuchrequest"],
            1,
            "error: no approval request 'nosuchrequest'\n"
            "hint: run 'bastion approvals list --all' to see request ids\n",
        ),
        (
            ["approvals", "approve", "hardline-request-1", "--pattern", "rm *"],
            2,
            "error: --pattern needs --always\n"
            "hint: bastion approvals approve --always --pattern '…' -- hardline-request-1\n",
        ),
        (
            ["grants", "revoke", "nosuchgrant"],
            1,
            "error: no grant 'nosuchgrant'\nhint: run 'bastion grants list' to see grant ids\n",
        ),
    ],
)
def test_an_answer_that_cannot_apply_says_how_to_fix_it(
    env: dict[str, str], workspace: Path, args: list[str], code: int, error: str
) -> None:
    _store_request(env)
    result = run(args, env, workspace)
    assert (result.returncode, result.stderr) == (code, error)


def test_a_hardline_request_is_listed_as_not_grantable(env: dict[str, str], workspace: Path) -> None:
    _store_request(env)
    listed = run(["approvals", "list"], env, workspace)
    assert (listed.returncode, "cannot be granted (hardline)" in listed.stdout) == (0, True)


def test_approving_an_answered_request_says_it_is_already_resolved(
    env: dict[str, str], workspace: Path
) -> None:
    _store_request(env)
    run(["approvals", "deny", "hardline-request-1"], env, workspace)
    again = run(["approvals", "approve", "hardline-request-1"], env, workspace)
    assert (again.returncode, again.stderr) == (
        1,
        "error: request hardline-request-1 is already denied (by person)\n",
    )


def test_listing_expires_requests_whose_waiter_is_gone(env: dict[str, str], workspace: Path) -> None:
    _store_request(env, created=time.time() - 600, expires=time.time() - 300)
    pending = json.loads(run(["approvals", "list", "--json"], env, workspace).stdout)
    every = json.loads(run(["approvals", "list", "--all", "--json"], env, workspace).stdout)
    assert (pending, [e["state"] for e in every]) == ([], ["expired"])


def test_watch_prints_the_list_again_when_it_changes(env: dict[str, str], workspace: Path) -> None:
    child = subprocess.Popen(
        [*BASTION, "approvals", "list", "--json", "--watch"],
        env=_env(env),
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert json.loads(read_line(child.stdout, r"^\[")) == []
        _store_request(env)
        assert [e["id"] for e in json.loads(read_line(child.stdout, r"^\["))] == ["hardline-request-1"]
    finally:
        child.kill()
        child.wait(timeout=30)
        assert child.stdout is not None
        child.stdout.close()


# -- issue 15: self-approval needs an approver identity ------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["approvals", "approve", "hardline-request-1"],
        ["approvals", "deny", "hardline-request-1"],
        ["approvals", "approve", "--always", "--", "hardline-request-1"],
    ],
)
def test_an_agent_running_approve_without_a_key_or_a_terminal_is_refused_and_the_call_stays_parked(
    env: dict[str, str], workspace: Path, args: list[str]
) -> None:
    _store_request(env)
    refused = run(args, env, workspace, key=False)
    listed = json.loads(run(["approvals", "list", "--json"], env, workspace).stdout)
    assert (refused.returncode, "pass --key KEY" in refused.stderr, [e["state"] for e in listed]) == (
        2,
        True,
        ["pending"],
    )


def test_an_agent_key_cannot_approve(env: dict[str, str], workspace: Path) -> None:
    _store_request(env)
    agent = run(["keys", "create", "--role", "agent"], env, workspace).stdout.strip()
    refused = run(
        ["approvals", "approve", "--key", agent, "--", "hardline-request-1"], env, workspace, key=False
    )
    forged = run(
        ["approvals", "approve", "--key", "bst_000000000000_" + "x" * 43, "--", "hardline-request-1"],
        env,
        workspace,
        key=False,
    )
    assert (
        (refused.returncode, "cannot approve" in refused.stderr),
        (forged.returncode, "not a valid key" in forged.stderr),
    ) == ((2, True), (2, True))


def test_an_approval_with_a_key_records_the_key_id_as_its_approver(
    env: dict[str, str], workspace: Path
) -> None:
    _store_request(env)
    done = run(["approvals", "approve", "--json", "--", "hardline-request-1"], env, workspace)
    key_id = env[KEY_VAR].split("_")[1]
    events = json.loads(run(["logs", "--json"], env, workspace).stdout)
    assert (
        done.returncode,
        json.loads(done.stdout)["approver"],
        [(e["kind"], e["decision_id"], e["approver"]) for e in events],
    ) == (0, key_id, [("resolved", "hardline-request-1", key_id)])


def test_approve_uncontained_is_recorded_with_its_approver_as_its_own_answer(
    env: dict[str, str], workspace: Path
) -> None:
    _store_request(env)
    done = run(
        ["approvals", "approve", "--uncontained", "--json", "--", "hardline-request-1"], env, workspace
    )
    key_id = env[KEY_VAR].split("_")[1]
    events = json.loads(run(["logs", "--json"], env, workspace).stdout)
    assert (
        done.returncode,
        json.loads(done.stdout)["state"],
        [(e["kind"], e["decision"], e["rule"], e["approver"]) for e in events],
    ) == (0, "approved_uncontained", [("resolved", "allow", "approval.uncontained", key_id)])


def test_approve_uncontained_is_never_a_standing_grant(env: dict[str, str], workspace: Path) -> None:
    _store_request(env)
    refused = run(["approvals", "approve", "--uncontained", "--always", "hardline-request-1"], env, workspace)
    still = run(["approvals", "list"], env, workspace)
    assert (
        refused.returncode,
        "never a standing grant" in refused.stderr,
        "hardline-request-1" in still.stdout,
    ) == (
        2,
        True,
        True,
    )


def test_grants_revoke_and_policy_trust_refuse_without_an_approver_identity(
    env: dict[str, str], workspace: Path
) -> None:
    (workspace / ".bastion").mkdir(exist_ok=True)
    (workspace / ".bastion" / "policy.toml").write_text('mode = "workspace"\n')
    revoke = run(["grants", "revoke", "nosuchgrant"], env, workspace, key=False)
    trust = run(["policy", "trust"], env, workspace, key=False)
    trusted = run(["policy", "trust"], env, workspace)
    assert (
        (revoke.returncode, "no grant" in revoke.stderr),
        (trust.returncode, "pass --key KEY" in trust.stderr),
        trusted.returncode,
    ) == ((1, True), (2, True), 0)


def _on_a_terminal(args: list[str], env: dict[str, str], cwd: Path, typed: str) -> tuple[int, str]:
    """Run with stdin and stdout on a pty; type ``typed`` once the prompt shows."""
    import pty

    master, slave = pty.openpty()
    child = subprocess.Popen(
        [*BASTION, *args], env=_env(env), cwd=cwd, stdin=slave, stdout=slave, stderr=slave, close_fds=True
    )
    os.close(slave)
    seen = b""
    end = time.monotonic() + 60
    selector = selectors.DefaultSelector()
    selector.register(master, selectors.EVENT_READ)
    try:
        while b"to confirm:" not in seen and time.monotonic() < end:
            if selector.select(timeout=0.5):
                seen += os.read(master, 4096)
        os.write(master, typed.encode() + b"\n")
        while time.monotonic() < end:
            if selector.select(timeout=0.5):
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed the pty
                    break
                if not chunk:
                    break
                seen += chunk
            elif child.poll() is not None:
                break
        return child.wait(timeout=30), seen.decode(errors="replace")
    finally:
        selector.close()
        os.close(master)
        if child.poll() is None:
            child.kill()


def test_a_person_on_a_terminal_confirms_by_typing_the_id_and_is_recorded_as_local_user(
    env: dict[str, str], workspace: Path
) -> None:
    import getpass

    _store_request(env)
    code, screen = _on_a_terminal(
        ["approvals", "approve", "--", "hardline-request-1"], env, workspace, "hardline-request-1"
    )
    [event] = json.loads(run(["logs", "--json"], env, workspace).stdout)
    assert (code, "approved hardline-request-1" in screen, event["approver"]) == (
        0,
        True,
        f"local:{getpass.getuser()}",
    )


def test_a_terminal_confirmation_with_the_wrong_text_changes_nothing(
    env: dict[str, str], workspace: Path
) -> None:
    _store_request(env)
    code, screen = _on_a_terminal(["approvals", "approve", "--", "hardline-request-1"], env, workspace, "no")
    listed = json.loads(run(["approvals", "list", "--json"], env, workspace).stdout)
    assert (code, "not confirmed" in screen, [e["state"] for e in listed]) == (2, True, ["pending"])


def test_approve_always_on_a_sudo_request_is_refused_even_if_it_was_stored_as_grantable(
    env: dict[str, str], workspace: Path
) -> None:
    sudo = Evaluation(
        Decision.ASK,
        (Reason(Decision.ASK, "shell.floor", "built-in", "sudo", "sudo"),),
        (Effect.READ, Effect.PRIVILEGE),
    )
    _store_request(env, evaluation=sudo, summary="shell: sudo ls", argv=("sudo", "ls"), grantable=True)
    refused = run(["approvals", "approve", "--always", "--", "hardline-request-1"], env, workspace)
    grants = json.loads(run(["grants", "list", "--json"], env, workspace).stdout)
    assert (refused.returncode, refused.stderr.splitlines()[0], grants) == (
        1,
        "error: this call involves a hardline class or raised privilege: never a standing grant",
        [],
    )


def test_the_list_says_where_each_approved_call_would_run(env: dict[str, str], workspace: Path) -> None:
    from bastion.policy.containment import Filesystem, Profile

    ask = Evaluation(
        Decision.ASK,
        (Reason(Decision.ASK, "rule[1]", "p", "git push", "a person decides"),),
        (Effect.NETWORK,),
        profile=Profile(Filesystem.READ_ONLY, ("github.com",)),
    )
    _store_request(env, evaluation=ask)

    listed = run(["approvals", "list"], env, workspace)

    assert (listed.returncode, "sandbox: read-only, network: github.com" in listed.stdout) == (0, True)
