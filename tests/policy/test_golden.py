"""Golden cases: the whole Evaluation JSON — decision, every reason, effects, marker — pinned.

Regenerate only on purpose (and read the diff): the file is the contract agents, the HTTP API
and the ledger see.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bastion import Gate, ToolCall, load_policy_text
from bastion.policy.network import StaticResolver

GOLDEN = json.loads((Path(__file__).parent / "golden" / "evaluations.json").read_text())
POLICY = """[commands]
allow = ["git status", "git log *"]
deny = ["rm -rf *"]
[network]
allow_hosts = ["pypi.org"]
[[rule]]
tool = "shell"
pattern = "git push *"
action = "ask"
reason = "pushing needs a person"
"""


@pytest.mark.parametrize(
    "case", GOLDEN, ids=lambda c: f"{c['call']['tool']}:{json.dumps(c['call']['args'])[:40]}"
)
def test_each_golden_call_gets_exactly_its_pinned_evaluation(case: dict[str, Any], tmp_path: Path) -> None:
    home = tmp_path / "home"
    workspace = home / "proj"
    workspace.mkdir(parents=True)
    env = {"HOME": str(home), "BASTION_STATE_DIR": str(home / "state")}
    policy = load_policy_text(POLICY, cwd=str(workspace), env=env, path=str(workspace / "policy.toml"))
    gate = Gate(policy, resolver=StaticResolver({"pypi.org": ["151.101.0.223"]}))
    call = case["call"]
    evaluation = gate.evaluate(
        ToolCall(call["tool"], call["args"], cwd=str(workspace), interactive=call["interactive"])
    )
    text = json.dumps(evaluation.to_json()).replace(str(workspace), "{ws}").replace(str(home), "{home}")
    assert json.loads(text) == case["evaluation"]
