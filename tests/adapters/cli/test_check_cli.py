"""``bastion check`` / ``explain`` / ``policy test`` / ``doctor`` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion import load_policy_text
from bastion.adapters.cli.check import run_batch
from bastion.call.model import ToolCall
from bastion.policy.engine import Gate

BASTION = [sys.executable, "-m", "bastion.adapters.cli.main"]


def run(
    args: list[str], env: dict[str, str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **env, "COLUMNS": "200"}
    full_env.pop("BASTION_POLICY", None)
    return subprocess.run(
        [*BASTION, *args], env=full_env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["check", "read", "README.md"], 0),
        (["check", "write", "/opt/elsewhere"], 3),
        (["check", "read", "~/.ssh/id_rsa"], 4),
        (["check", "write", "/etc/passwd"], 4),
        (["check", "fetch", "http://169.254.169.254/"], 4),
        (["check", "--non-interactive", "write", "/opt/elsewhere"], 4),
        (["check", "teleport", "x"], 4),
        (["check", "read"], 2),
        (["check", "--policy", "/nonexistent.toml", "read", "x"], 2),
        (["check", "code", "not json"], 2),
    ],
)
def test_check_exit_codes_follow_the_contract(
    env: dict[str, str], workspace: Path, args: list[str], code: int
) -> None:
    assert run(args, env, workspace).returncode == code


def test_check_json_prints_the_evaluation_object(env: dict[str, str], workspace: Path, home: Path) -> None:
    result = run(["check", "--json", "read", "~/.ssh/id_rsa"], env, workspace)
    data = json.loads(result.stdout)
    assert data["decision"] == "deny"
    assert data["marker"] == "[policy-denied]"
    assert data["effects"] == ["read", "credentials"]
    assert data["reasons"][0] == {
        "rule": "hardline.credentials",
        "source": "built-in",
        "matched": f"{home}/.ssh/id_rsa ~ .ssh",
        "message": f"{home}/.ssh/id_rsa is a credential location: never read by an agent",
        "decision": "deny",
    }


def test_check_takes_the_json_of_several_arguments(env: dict[str, str], workspace: Path) -> None:
    result = run(["check", "--json", "db", '{"operation": "delete", "target": "users"}'], env, workspace)
    assert (result.returncode, json.loads(result.stdout)["decision"]) == (3, "ask")


def test_a_policy_error_says_file_line_and_key(env: dict[str, str], workspace: Path) -> None:
    bad = workspace / "bad.toml"
    bad.write_text('mode = "workspace"\nfoo = 1\n')
    result = run(["check", "--policy", str(bad), "read", "x"], env, workspace)
    assert result.returncode == 2
    assert f"{bad}:2: foo: unknown key" in result.stderr


def test_batch_answers_every_line_in_order_and_denies_malformed_ones(
    env: dict[str, str], workspace: Path
) -> None:
    lines = [
        json.dumps({"tool": "read", "args": {"path": "README.md"}, "cwd": str(workspace)}),
        "{not json",
        json.dumps({"tool": "write", "args": {"path": "/opt/x"}, "interactive": True}),
        json.dumps({"tool": "write", "args": {"path": "/opt/x"}}),
        json.dumps([1, 2]),
        json.dumps({"tool": "read", "args": {"path": "x"}, "bogus": 1}),
    ]
    result = run(["check", "--batch", "-"], env, workspace, stdin="\n".join(lines) + "\n")
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0
    assert [o["decision"] for o in out] == ["allow", "deny", "ask", "deny", "deny", "deny"]
    assert out[1]["reasons"][0]["rule"] == "call.invalid"
    assert [r["rule"] for r in out[3]["reasons"]] == [
        "paths.outside-roots",
        "approval.non_interactive_default",
    ]
    assert set(out[0]) == {"decision", "reasons", "effects", "marker"}


def test_explain_shows_every_stage(env: dict[str, str], workspace: Path) -> None:
    result = run(["explain", "write", "/etc/passwd"], env, workspace)
    assert result.returncode == 4
    assert "stages:" in result.stdout
    assert "write /etc/passwd: deny (hardline.system)" in result.stdout
    assert "DENY [policy-denied]" in result.stdout


def test_explain_names_every_choice_its_engine_was_built_with(env: dict[str, str], workspace: Path) -> None:
    result = run(["explain", "--json", "fetch", "https://pypi.org/"], env, workspace)
    options = [line for line in json.loads(result.stdout)["trace"] if line.startswith("gate option: ")]
    mine, differences = options[:3], options[3:]
    assert [line.split(" ")[2:4] for line in mine] == [
        ["host", "names"],
        ["code", "runs"],
        ["allowed", "shell"],
    ]
    assert "resolved with SystemResolver" in mine[0]
    # explain answers as a hook would here: the sandbox works, so an allowed shell call runs contained
    assert mine[2] == "gate option: allowed shell calls run contained: workspace code is allowed"
    # The intentional differences of other entry points are named, never silent.
    assert any(line.endswith("(for agent hooks)") and "code runs outside" in line for line in differences)
    assert any(line.endswith("(for replay and learn)") and "not resolved" in line for line in differences)


def test_policy_test_prints_each_example(env: dict[str, str], workspace: Path) -> None:
    policy = workspace / "p.toml"
    policy.write_text(
        '[[rule]]\ntool = "read"\npattern = "**/*.log"\naction = "deny"\nmatch = ["a/b.log"]\nnot_match = ["a/b.txt"]\n'
    )
    result = run(["policy", "test", str(policy), "--json"], env, workspace)
    data = json.loads(result.stdout)
    assert result.returncode == 0
    assert [(e["kind"], e["example"], e["ok"]) for e in data["examples"]] == [
        ("match", "a/b.log", True),
        ("not_match", "a/b.txt", True),
    ]


def test_doctor_fails_on_a_missing_root_and_says_so(env: dict[str, str], workspace: Path) -> None:
    policy = workspace / "p.toml"
    policy.write_text('workspace = [".", "missing-dir"]\n')
    result = run(["doctor", "--policy", str(policy), "--json"], env, workspace)
    data = json.loads(result.stdout)
    assert result.returncode == 1
    missing = [c for c in data["checks"] if c["name"] == f"root {workspace / 'missing-dir'}"]
    assert missing == [
        {
            "name": f"root {workspace / 'missing-dir'}",
            "ok": False,
            "detail": "missing: every path under it is refused; create it or fix the policy",
        }
    ]


def test_doctor_refuses_a_credentials_dir_inside_a_readable_root(
    env: dict[str, str], workspace: Path
) -> None:
    policy = workspace / "p.toml"
    policy.write_text('credentials_dir = "creds"\n')
    data = json.loads(run(["doctor", "--policy", str(policy), "--json"], env, workspace).stdout)
    [creds] = [c for c in data["checks"] if c["name"] == "credentials dir"]  # listed once
    assert not creds["ok"]
    assert "lies inside the readable root" in creds["detail"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=80), min_size=1, max_size=5))
def test_batch_never_allows_a_line_it_could_not_parse(lines: list[str]) -> None:
    import io
    import tempfile

    gate = Gate(load_policy_text('mode = "full-access"', cwd="/tmp", env={"HOME": "/tmp/h"}))
    clean = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(clean) + "\n")
    out = io.StringIO()
    try:
        run_batch(gate, handle.name, default_cwd="/tmp", out=out)
    finally:
        os.unlink(handle.name)
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    # One output line per input line: a blank line is an error line, never skipped.
    assert len(results) == len(clean)
    for line, result in zip(clean, results, strict=True):
        try:
            parsed = json.loads(line)
            well_formed = isinstance(parsed, dict) and isinstance(parsed.get("tool"), str)
        except ValueError:
            well_formed = False
        if not well_formed:
            assert result["decision"] == "deny"


def test_policy_test_prints_a_warning_s_bracketed_section_names_as_written(
    env: dict[str, str], workspace: Path
) -> None:
    project = workspace / ".bastion" / "policy.toml"
    project.parent.mkdir(exist_ok=True)
    project.write_text('[exec]\ncontain = "off"\n')  # untrusted: a loosening, ignored and listed
    result = run(["policy", "test"], env, workspace)
    assert result.returncode == 0, result.stderr
    (warning,) = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert "ignored [exec] (it loosens" in warning, warning


class _CountingOut:
    """A text stream that keeps what is written and how many writes it took."""

    def __init__(self) -> None:
        self.chunks: list[str] = []

    def write(self, text: str) -> int:
        self.chunks.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def _batch_file(tmp_path: Path, lines: list[str]) -> str:
    source = tmp_path / "calls.jsonl"
    source.write_text("".join(line + "\n" for line in lines))
    return str(source)


def test_batch_writes_its_answers_in_blocks_each_line_as_a_write_per_line_would(tmp_path: Path) -> None:
    gate = Gate(load_policy_text("", cwd=str(tmp_path), env={"HOME": str(tmp_path)}))
    lines = [json.dumps({"tool": "shell", "args": {"command": f"ls d{i}"}}) for i in range(2000)]
    lines[7] = "not json"
    source = _batch_file(tmp_path, lines)
    out = _CountingOut()
    assert run_batch(gate, source, default_cwd=str(tmp_path), out=out) == 2000  # type: ignore[arg-type]
    one_by_one = [
        json.dumps(gate.evaluate(ToolCall("shell", {"command": f"ls d{i}"}, cwd=str(tmp_path))).to_json())
        for i in range(2000)
    ]
    written = "".join(out.chunks).splitlines()
    assert [json.loads(x) for x in written[:7] + written[8:]] == [
        json.loads(x) for x in one_by_one[:7] + one_by_one[8:]
    ]
    assert json.loads(written[7])["decision"] == "deny"
    assert 1 < len(out.chunks) < 2000 // 50  # blocks of about 64 KiB, not one write per call


def test_batch_writes_every_answer_decided_before_its_input_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bastion.adapters.cli import check

    def failing_lines(source: str) -> Iterator[bytes]:
        yield json.dumps({"tool": "shell", "args": {"command": "ls"}}).encode()
        yield b"{}"
        raise OSError("the disk went away")

    monkeypatch.setattr(check, "_lines", failing_lines)
    gate = Gate(load_policy_text("", cwd=str(tmp_path), env={"HOME": str(tmp_path)}))
    out = _CountingOut()
    with pytest.raises(OSError, match="the disk went away"):
        run_batch(gate, "-", default_cwd=str(tmp_path), out=out)  # type: ignore[arg-type]
    decisions = [json.loads(x)["decision"] for x in "".join(out.chunks).splitlines()]
    assert decisions == ["allow", "deny"]


@pytest.mark.parametrize(
    ("args", "last_line"),
    [
        (
            ["check", "read", "~/.ssh/id_rsa"],
            "This cannot be allowed: the hardline check hardline.credentials refuses it whatever a "
            "policy, a grant or a person says.",
        ),
        (
            ["check", "--non-interactive", "write", "/opt/elsewhere"],
            "To allow it, run it where a person can be asked (an interactive session, or `bastion "
            "request`) and approve it: once, or always (a standing grant then covers it here too); or "
            "add it to [paths] allow_write or allow_read in your own policy file (a project's file "
            "cannot widen paths), or run the agent from a folder that holds it.",
        ),
        (["check", "read", "README.md"], "effects: read"),  # an allow: nothing to add
    ],
)
def test_a_denial_printed_by_check_ends_with_how_to_allow_it(
    env: dict[str, str], workspace: Path, args: list[str], last_line: str
) -> None:
    out = run(args, env, workspace).stdout
    assert out.rstrip("\n").splitlines()[-1] == last_line
