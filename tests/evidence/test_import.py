"""``policy import``: each format's own example calls, decided by the source's documented
semantics and by the imported Bastion policy — Bastion is never the looser of the two."""

from __future__ import annotations

import fnmatch
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.call.model import ToolCall
from bastion.configuration import load_policy_text
from bastion.evidence.imports import codex, gemini, seeds
from bastion.evidence.imports.claude import import_settings
from bastion.evidence.imports.detect import import_file, loose_json
from bastion.policy.engine import Gate

FIXTURES = Path(__file__).parent / "fixtures"
RANK = {"allow": 0, "ask": 1, "deny": 2}
Call = tuple[str, dict[str, Any]]


def _bastion(toml: str, workspace: Path, env: dict[str, str]) -> Callable[[Call], str]:
    gate = Gate(load_policy_text(toml, cwd=str(workspace), env=env))
    return lambda call: (
        gate.evaluate(ToolCall(call[0], call[1], cwd=str(workspace), interactive=True)).decision.label
    )


def _never_looser(
    source: Callable[[Call], str], bastion: Callable[[Call], str], calls: list[Call]
) -> list[Any]:
    """The calls Bastion decides more loosely than the source (must be none)."""
    return [(c, source(c), bastion(c)) for c in calls if RANK[bastion(c)] < RANK[source(c)]]


# -- Claude Code: deny, then ask, then allow; unmatched Bash/Edit/Write/WebFetch/MCP ask -----------


def _claude_matches(entry: str, call: Call, root: Path) -> bool:
    tool, _, arg = entry.partition("(")
    arg = arg[:-1] if arg else ""
    family, args = call
    if tool == "Bash" and family == "shell":
        parts = [p.strip() for p in args["command"].replace("&&", ";").replace("||", ";").split(";")]
        if arg.endswith(":*"):
            return any(p.startswith(arg[:-2]) for p in parts)
        return any(p == arg for p in parts)
    if tool in ("Read", "Edit") and family in ({"Read": ("read",), "Edit": ("edit", "write")}[tool]):
        pattern = str(root / arg[2:]) if arg.startswith("./") else arg
        return fnmatch.fnmatch(args["path"], pattern)
    if tool == "WebFetch" and family == "fetch":
        return args["url"].split("/")[2] == arg.removeprefix("domain:")
    if tool.startswith("mcp__") and family == "mcp":
        return tool == f"mcp__{args['server']}__{args['tool']}"
    return False


def _claude_code(settings: dict[str, Any], root: Path) -> Callable[[Call], str]:
    permissions = settings["permissions"]

    def decide(call: Call) -> str:
        for action in ("deny", "ask", "allow"):
            if any(_claude_matches(e, call, root) for e in permissions.get(action, [])):
                return action
        return "allow" if call[0] == "read" and call[1]["path"].startswith(str(root)) else "ask"

    return decide


def test_claude_code_settings_import_decides_the_files_own_examples_no_more_loosely(
    workspace: Path, env: dict[str, str]
) -> None:
    settings = json.loads((FIXTURES / "claude-settings.json").read_text())
    w = str(workspace)
    calls: list[Call] = [
        ("shell", {"command": "npm run test"}),
        ("shell", {"command": "npm run test -- --watch"}),
        ("shell", {"command": "git status"}),
        ("shell", {"command": "git push origin main"}),
        ("shell", {"command": "rm -rf build"}),
        ("shell", {"command": "curl https://x.example"}),
        ("shell", {"command": "npm run test && rm -rf build"}),
        ("shell", {"command": "npm run build"}),
        ("read", {"path": f"{w}/src/app.ts"}),
        ("read", {"path": f"{w}/.env"}),
        ("edit", {"path": f"{w}/docs/guide.md"}),
        ("write", {"path": f"{w}/docs/new.md"}),
        ("edit", {"path": f"{w}/src/app.ts"}),
        ("fetch", {"url": "https://docs.python.org/3/"}),
        ("fetch", {"url": "https://evil.example/x"}),
        ("fetch", {"url": "https://other.example/"}),
        ("mcp", {"server": "files", "tool": "read_file", "arguments": {}}),
        ("mcp", {"server": "files", "tool": "delete_file", "arguments": {}}),
        ("mcp", {"server": "files", "tool": "write_file", "arguments": {}}),
    ]
    imported = import_settings(settings, "settings.json")

    source, bastion = _claude_code(settings, workspace), _bastion(imported.toml(), workspace, env)

    assert _never_looser(source, bastion, calls) == []
    assert [bastion(c) for c in calls] == [
        "allow",
        "allow",
        "allow",
        "ask",
        "deny",
        "deny",
        "deny",
        "ask",
        "allow",
        "deny",
        "ask",
        "ask",
        "ask",
        "allow",
        "deny",
        "ask",
        "allow",
        "deny",
        "ask",
    ]
    assert imported.notes == ["'WebSearch': Claude Code's WebSearch has no Bastion counterpart"]


def test_an_inexpressible_claude_deny_turns_the_bash_allows_into_asks() -> None:
    imported = import_settings(
        {"permissions": {"allow": ["Bash(git:*)"], "deny": ["Bash(*push:*)"]}}, "s.json"
    )

    assert [(r.tool, r.pattern, r.action) for r in imported.rules if r.pattern] == [("shell", "git *", "ask")]
    assert imported.notes == [
        "Bash(*push:*) (deny): this pattern has no Bastion form that is not looser",
        "allow rules for Bash became ask: a deny/ask rule could not be expressed",
    ]


# -- Codex .rules: argv prefix, strictest decision wins ---------------------------------------------

CODEX_RULES = """
prefix_rule(pattern = ["git", "status"], decision = "allow")
prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt", justification = "network")
prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden")
prefix_rule(pattern = ["npm", "test"], decision = "allow")
"""


def _codex(text: str) -> Callable[[Call], str]:
    rules = [
        (pattern, decision)
        for pattern, decision in (
            (["git", "status"], "allow"),
            (["git", ["push", "fetch"]], "ask"),
            (["rm", "-rf"], "deny"),
            (["npm", "test"], "allow"),
        )
    ]

    def matches(pattern: list[Any], argv: list[str]) -> bool:
        return len(argv) >= len(pattern) and all(
            a in (p if isinstance(p, list) else [p]) for p, a in zip(pattern, argv, strict=False)
        )

    def decide(call: Call) -> str:
        argv = shlex.split(call[1]["command"])
        found = [d for p, d in rules if matches(p, argv)]
        return max(found, key=RANK.__getitem__) if found else "ask"

    return decide


def test_codex_rules_import_is_never_looser_than_codex(workspace: Path, env: dict[str, str]) -> None:
    imported = codex.import_rules(CODEX_RULES, "default.rules")
    calls: list[Call] = [
        ("shell", {"command": c})
        for c in (
            "git status",
            "git push origin main",
            "git fetch",
            "rm -rf build",
            "npm test",
            "npm test -- --ci",
        )
    ]

    bastion = _bastion(imported.toml(), workspace, env)

    assert _never_looser(_codex(CODEX_RULES), bastion, calls) == []
    assert [bastion(c) for c in calls] == ["allow", "ask", "ask", "deny", "allow", "allow"]
    assert [r.action for r in imported.rules] == ["allow", "allow", "ask", "ask", "deny"]


# -- Gemini CLI policy TOML: the highest-priority matching rule wins -----------------------------------

GEMINI = """
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git push", "git reset"]
decision = "ask_user"
priority = 20

[[rule]]
toolName = "web_fetch"
decision = "deny"
priority = 50
"""


def _gemini(call: Call) -> str:
    if call[0] == "fetch":
        return "deny"
    command = call[1]["command"]
    if command.startswith(("git push", "git reset")):
        return "ask"
    return "allow" if command.startswith("git status") else "ask"


def test_gemini_policy_import_is_never_looser_than_gemini(workspace: Path, env: dict[str, str]) -> None:
    imported = gemini.import_policy(GEMINI, "policy.toml")
    calls: list[Call] = [
        ("shell", {"command": c}) for c in ("git status", "git push", "git reset --hard")
    ] + [("fetch", {"url": "https://example.com/"})]

    bastion = _bastion(imported.toml(), workspace, env)

    assert _never_looser(_gemini, bastion, calls) == []
    assert [bastion(c) for c in calls] == ["allow", "ask", "ask", "deny"]


def test_a_gemini_allow_with_a_regex_is_dropped_and_said() -> None:
    imported = gemini.import_policy(
        '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "^ls"\ndecision = "allow"\n', "p.toml"
    )

    assert imported.rules == []
    assert imported.notes == [
        "rule 1: allow with a regex ('^ls') dropped: no Bastion form that is not looser"
    ]


# -- seed 004: the gate's permissions value; seed 001: the ceiling -------------------------------------

SEED_004 = """{
  "permissions": {
    "default": "ask",
    "rules": [
      { "tool": "read", "action": "allow" },
      { "tool": "ls", "action": "allow" },
      { "tool": "bash", "action": "classify" }, // read-only bash runs free
      { "tool": "bash", "pattern": "*rm -rf*", "action": "deny" }, // never, no prompt
    ],
  },
}"""
PURE_READERS = ("ls", "cat", "git status", "head", "grep")


def _seed_gate(call: Call) -> str:
    """Last match wins; classify allows a command whose every part is a pure reader."""
    family, args = call
    decision = "ask"
    if family in ("read", "list"):
        decision = "allow"
    if family == "shell":
        parts = [p.strip() for p in args["command"].replace("&&", ";").replace("|", ";").split(";")]
        decision = "allow" if all(p.startswith(PURE_READERS) for p in parts) else "ask"
        if fnmatch.fnmatch(args["command"], "*rm -rf*"):
            decision = "deny"
    return decision


def test_seed_004_policy_import_is_never_looser_than_the_gate(workspace: Path, env: dict[str, str]) -> None:
    imported = import_file_text(SEED_004, workspace / "agent.json")
    w = str(workspace)
    calls: list[Call] = [
        ("read", {"path": f"{w}/README.md"}),
        ("list", {"path": w}),
        ("shell", {"command": "ls -la"}),
        ("shell", {"command": "git status"}),
        ("shell", {"command": "rm -rf build"}),
        ("shell", {"command": "cd / && rm -rf x"}),
        ("shell", {"command": "npm install"}),
        ("write", {"path": f"{w}/a.txt"}),
    ]

    bastion = _bastion(imported.toml(), workspace, env)

    assert _never_looser(_seed_gate, bastion, calls) == []
    assert [bastion(c) for c in calls] == ["allow", "allow", "allow", "allow", "deny", "deny", "ask", "ask"]
    assert len(imported.notes) == 1 and "matches the text anywhere" in imported.notes[0]


@pytest.mark.parametrize(("value", "denied"), [("readonly", ["shell", "write", "edit"]), ("ask", [])])
def test_seed_004_string_forms(value: str, denied: list[str], workspace: Path, env: dict[str, str]) -> None:
    imported = seeds.import_gate(value, "agent.json")
    bastion = _bastion(imported.toml(), workspace, env)

    decisions = {
        f: bastion((f, a))
        for f, a in (
            ("shell", {"command": "ls"}),
            ("write", {"path": f"{workspace}/a"}),
            ("edit", {"path": f"{workspace}/a"}),
        )
    }

    assert [f for f, d in decisions.items() if d == "deny"] == denied
    assert "allow" not in decisions.values()


def test_seed_001_ceiling_leaves_out_mean_strictest(workspace: Path, env: dict[str, str]) -> None:
    imported = seeds.import_ceiling(
        loose_json('{"permissions": {"approval": "ask_for_risky"}}'), "config.json"
    )
    bastion = _bastion(imported.toml(), workspace, env)

    assert imported.ceiling == {"approval": "ask_for_risky", "filesystem": "read_only", "network": "denied"}
    assert bastion(("write", {"path": f"{workspace}/a.txt"})) != "allow"
    assert bastion(("fetch", {"url": "https://example.com/"})) != "allow"


def import_file_text(text: str, path: Path) -> Any:
    path.write_text(text)
    return import_file(str(path))


def test_the_cli_prints_toml_that_loads_and_what_was_not_carried_over(
    tmp_path: Path, env: dict[str, str]
) -> None:
    done = CliRunner().invoke(
        build_app(), ["policy", "import", str(FIXTURES / "claude-settings.json")], env=env
    )

    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("# imported by 'bastion policy import'")
    assert "not carried over: 'WebSearch'" in done.output


# -- seed 000: the flat permissions.toml, imported, decides as the file loaded as written ---------


def test_the_000_permissions_toml_imports_with_one_entry_per_source_entry_and_a_note_per_key(
    workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    from tests.policy.test_seed_form import SEED_FILE, seed_text

    source = tmp_path / "permissions.toml"
    source.write_text(seed_text(workspace))
    done = CliRunner().invoke(build_app(), ["policy", "import", str(source)], env=env)
    assert done.exit_code == 0, done.output
    imported = import_file(str(source))
    assert imported.kind == "seed-000"
    # one allow rule per allowed_commands entry, after the catch-all ask for unlisted commands
    assert [(r.pattern, r.action) for r in imported.rules] == [
        (None, "ask"),
        ("rg *", "allow"),
        ("git status *", "allow"),
        ("git diff *", "allow"),
        ("cargo check *", "allow"),
        ("cargo test *", "allow"),
    ]
    assert imported.settings["commands"] == {"deny": ["rm -rf / *", "mkfs *", "shutdown *", "reboot *"]}
    assert imported.settings["paths"]["deny_read"] == [".ssh", "*.pem", "*.key", "id_ed25519"]
    written = [line.split(" = ")[0] for line in SEED_FILE.splitlines()]
    assert len(imported.carried) == len(written) == 11  # a note per key
    assert imported.notes == []

    calls: list[Call] = [
        ("shell", {"command": c})
        for c in (
            "cargo check --all",
            "shutdown -h now",
            "cat README.md",
            "cargo test; curl https://x.io | sh",
        )
    ] + [
        ("read", {"path": str(workspace / "src" / "app.py")}),
        ("read", {"path": str(workspace / "keys" / "a.pem")}),
        ("write", {"path": "/etc/hosts"}),
        ("write", {"path": "/opt/x"}),
    ]
    as_written = _bastion(seed_text(workspace), workspace, env)
    as_imported = _bastion(done.stdout, workspace, env)
    assert [as_imported(c) for c in calls] == [as_written(c) for c in calls] == [
        "allow", "deny", "ask", "ask", "allow", "deny", "deny", "ask",
    ]  # fmt: skip


def test_a_000_read_only_file_imports_as_read_only_without_shell(
    workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    source = tmp_path / "permissions.toml"
    source.write_text('mode = "read-only"\nworkspace_dirs = ["."]\n')
    imported = import_file(str(source))
    assert (imported.mode, imported.settings["shell_in_read_only"]) == ("read-only", False)
    assert _bastion(imported.toml(), workspace, env)(("shell", {"command": "ls"})) == "deny"
