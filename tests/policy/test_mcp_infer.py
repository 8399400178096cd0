"""MCP path/URL arguments are checked by default (issue 15, "MCP path arguments are unchecked
unless hand-configured"): inferred from the inputSchema, the key and the value."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bastion import ToolCall
from bastion.policy.mcp_infer import describe_inferred, implicit_values, infer_schema, value_kind
from tests.conftest import GateFactory

Call = Callable[..., ToolCall]

#: The real @modelcontextprotocol/server-filesystem shapes (read_text_file, move_file, …).
FILESYSTEM_SCHEMAS: dict[str, dict[str, Any]] = {
    "read_text_file": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "head": {"type": "number"}},
    },
    "read_multiple_files": {
        "type": "object",
        "properties": {"paths": {"type": "array", "items": {"type": "string"}}},
    },
    "move_file": {
        "type": "object",
        "properties": {"source": {"type": "string"}, "destination": {"type": "string"}},
    },
    "fetch": {"type": "object", "properties": {"target": {"type": "string", "format": "uri"}}},
    "search": {
        "type": "object",
        "properties": {
            "where": {"type": "string", "description": "Directory to search in"},
            "pattern": {"type": "string"},
        },
    },
}


def mcp(
    call: Call,
    arguments: dict[str, Any],
    *,
    read_only: bool = True,
    tool: str = "read_text_file",
    schema: dict[str, Any] | None = None,
    interactive: bool = True,
) -> ToolCall:
    args: dict[str, Any] = {
        "server": "files",
        "tool": tool,
        "arguments": arguments,
        "annotations": {"readOnlyHint": read_only},
    }
    paths, urls = infer_schema(schema)
    if paths or urls:
        args["inferred"] = {"paths": list(paths), "urls": list(urls)}
    return call("mcp", interactive=interactive, **args)


def test_the_schema_names_format_and_description_say_which_arguments_are_paths_and_urls() -> None:
    found = {tool: infer_schema(schema) for tool, schema in FILESYSTEM_SCHEMAS.items()}

    assert found == {
        "read_text_file": (("path",), ()),
        "read_multiple_files": (("paths[]",), ()),
        "move_file": (("source", "destination"), ()),
        "fetch": ((), ("target",)),
        "search": (("where",), ()),
    }
    assert describe_inferred("files", {"move_file": FILESYSTEM_SCHEMAS["move_file"]}) == [
        "files/move_file: checks paths source, destination"
    ]


@pytest.mark.parametrize(
    "secret", [".env", "server.pem", "~/.ssh/id_rsa", "deploy/.env.production", "id_ed25519"]
)
def test_a_credential_path_argument_is_a_hardline_deny_not_a_question_without_any_config(
    make_gate: GateFactory, call: Call, secret: str
) -> None:
    gate = make_gate('[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n')

    evaluation = gate.evaluate(mcp(call, {"path": secret}, schema=FILESYSTEM_SCHEMAS["read_text_file"]))

    assert (evaluation.decision.label, evaluation.reasons[0].rule, evaluation.marker) == (
        "deny",
        "hardline.credentials",
        "[policy-denied]",
    )


def test_an_unknown_argument_whose_value_looks_like_a_path_is_checked(
    make_gate: GateFactory, call: Call, home: Path
) -> None:
    gate = make_gate('[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n')

    nested = gate.evaluate(mcp(call, {"options": {"extra": [f"{home}/.ssh/id_rsa"]}}, tool="x"))
    outside = gate.evaluate(mcp(call, {"blob": "/opt/data/file.txt"}, tool="x"))
    inside = gate.evaluate(mcp(call, {"blob": "src/app.py"}, tool="x"))

    assert (nested.decision.label, nested.reasons[0].rule) == ("deny", "hardline.credentials")
    assert (outside.decision.label, outside.reasons[0].rule) == ("ask", "paths.outside-roots")
    assert inside.decision.label == "allow"


def test_a_url_argument_is_checked_by_the_network_policy(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate('[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n')

    by_schema = gate.evaluate(
        mcp(
            call,
            {"target": "http://169.254.169.254/latest"},
            tool="fetch",
            schema=FILESYSTEM_SCHEMAS["fetch"],
        )
    )
    by_value = gate.evaluate(mcp(call, {"q": "http://10.0.0.1/admin"}, tool="x"))

    assert (by_schema.decision.label, by_schema.reasons[0].rule) == ("deny", "hardline.metadata")
    assert (by_value.decision.label, by_value.reasons[0].rule) == ("deny", "network.private")


def test_a_write_tool_path_is_checked_for_writing_too(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate('[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n')

    evaluation = gate.evaluate(
        mcp(
            call,
            {"source": "notes.txt", "destination": "/etc/cron.d/x"},
            read_only=False,
            tool="move_file",
            schema=FILESYSTEM_SCHEMAS["move_file"],
        )
    )

    assert (evaluation.decision.label, evaluation.reasons[0].rule) == ("deny", "hardline.system")


def test_source_code_and_prose_are_not_mistaken_for_paths() -> None:
    arguments = {
        "source": "import os\nprint(os.getcwd())",
        "text": "see the docs/ folder and a/b",
        "query": "select 1",
        "count": 3,
    }

    assert list(implicit_values(arguments, frozenset())) == []
    assert [value_kind(v) for v in ("a/b", ".env", "https://x.example/y", "hello", "a b/c")] == [
        "path",
        "path",
        "url",
        None,
        None,
    ]
