"""The README's framework examples run as printed: each one, answered ``y`` by a person, leaves
the request, alice's resolution and the execution in the ledger of a fresh state dir."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bastion import open_gatekeeper
from bastion.configuration import load_configuration

README = Path(__file__).resolve().parents[3] / "README.md"


def examples() -> dict[str, str]:
    text = README.read_text()
    section = text[text.index("### Python agent frameworks") : text.index("### Layout")]
    found = re.findall(r"^#### (.+?)\n.*?```python\n(.*?)```", section, flags=re.S | re.M)
    return dict(found)


def test_the_readme_has_one_example_per_framework() -> None:
    assert list(examples()) == ["OpenAI Agents SDK", "LangChain and LangGraph", "PydanticAI"]


@pytest.mark.parametrize("name", ["OpenAI Agents SDK", "LangChain and LangGraph", "PydanticAI"])
def test_a_readme_example_runs_and_records_the_person_s_approval(
    name: str,
    workspace: Path,
    env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(workspace)
    monkeypatch.setattr("builtins.input", lambda prompt="": "y")
    exec(compile(examples()[name], f"README.md ({name})", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.splitlines()[-1] == "done"
    with open_gatekeeper(load_configuration()) as keeper:
        assert [(e.kind, e.resolver, e.approver) for e in (r.event for r in keeper.ledger.events())] == [
            ("requested", "policy", None),
            ("resolved", "person", "alice"),
            ("executed", "person", None),
        ]
