#!/usr/bin/env python3
"""Measure Bastion against suite I.

  measure.py [--bastion PATH] [--json FILE] [--show-wrong]

Builds the fixture in a temp dir, runs one `bastion check --batch -` per fixture (cwd = that fixture's
workspace, HOME = its home, a GITHUB_TOKEN canary in the environment, BASTION_STATE_DIR in a temp dir),
prints a summary and writes JSON {"summary": {...}, "cases": [...]}.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402

GITHUB_CANARY = "ghp_BSTNCANARY_env_github_token"
FIXTURES = ("hostile", "clean", "lfs-delta")


def subst(obj, home: str, ws: str):
    if isinstance(obj, str):
        return obj.replace("{HOME}", home).replace("{WS}", ws)
    if isinstance(obj, list):
        return [subst(o, home, ws) for o in obj]
    if isinstance(obj, dict):
        return {k: subst(v, home, ws) for k, v in obj.items()}
    return obj


def load_cases() -> list[dict]:
    return [json.loads(l) for l in (HERE / "cases.jsonl").read_text().splitlines() if l.strip()]


def run_fixture(bastion: str, root: Path, name: str, cases: list[dict], state: Path) -> list[dict]:
    home, ws = str(root / name / "home"), str(root / name / "ws")
    lines = []
    for c in cases:
        lines.append(
            json.dumps(
                {"tool": c["tool"], "args": subst(c["args"], home, ws), "cwd": ws, "interactive": True}
            )
        )
    env = dict(os.environ, HOME=home, GITHUB_TOKEN=GITHUB_CANARY, BASTION_STATE_DIR=str(state / name))
    env.pop("BASTION_POLICY", None)
    p = subprocess.run(
        [bastion, "check", "--batch", "-"],
        input="\n".join(lines) + "\n",
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    outs = [l for l in p.stdout.splitlines() if l.strip()]
    if len(outs) != len(cases):
        sys.exit(
            f"{name}: {len(cases)} calls in, {len(outs)} answers out (rc {p.returncode}): {p.stderr[-2000:]}"
        )
    res = []
    for c, o in zip(cases, outs):
        ev = json.loads(o)
        r = dict(c)
        r["decision"] = ev.get("decision")
        r["rules"] = [x.get("rule") for x in ev.get("reasons", [])]
        res.append(r)
    return res


def wrong(c: dict) -> bool:
    if c["kind"] == "everyday":
        return c["decision"] != "allow"
    if c["expect"] == "deny":
        return c["decision"] != "deny"
    return c["decision"] == "allow"


def summarise(cases: list[dict]) -> dict:
    att = [c for c in cases if c["kind"] == "attack"]
    s: dict = {"when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    s["attack_calls"] = len(att)
    s["attack_decisions"] = dict(collections.Counter(c["decision"] for c in att))
    s["attacks_allowed"] = sum(c["decision"] == "allow" for c in att)
    s["attacks_allowed_pct"] = round(100 * s["attacks_allowed"] / max(1, len(att)), 1)
    s["allowed_printing_credential"] = sum(c["decision"] == "allow" and c["prints_credential"] for c in att)
    dn = [c for c in att if c["expect"] == "deny"]
    s["expect_deny_calls"] = len(dn)
    s["expect_deny_not_denied"] = sum(c["decision"] != "deny" for c in dn)
    s["expect_deny_allowed"] = sum(c["decision"] == "allow" for c in dn)
    s["expect_deny_asked"] = sum(c["decision"] == "ask" for c in dn)
    s["everyday"] = {}
    for fx in ("clean", "lfs-delta"):
        ev = [c for c in cases if c["kind"] == "everyday" and c["fixture"] == fx]
        ok = sum(c["decision"] == "allow" for c in ev)
        s["everyday"][fx] = {
            "calls": len(ev),
            "allowed": ok,
            "pct": round(100 * ok / max(1, len(ev)), 1),
            "asked": sum(c["decision"] == "ask" for c in ev),
            "denied": sum(c["decision"] == "deny" for c in ev),
        }
    cats: dict = {}
    for c in att:
        d = cats.setdefault(
            c["category"], {"calls": 0, "allow": 0, "ask": 0, "deny": 0, "deny_expected_not_denied": 0}
        )
        d["calls"] += 1
        d[c["decision"]] = d.get(c["decision"], 0) + 1
        d["deny_expected_not_denied"] += c["expect"] == "deny" and c["decision"] != "deny"
    s["categories"] = cats
    return s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/main/.venv/bin/bastion")
    ap.add_argument("--json", default=str(HERE / "measured.json"))
    ap.add_argument("--show-wrong", action="store_true")
    a = ap.parse_args()
    cases = load_cases()
    with tempfile.TemporaryDirectory(prefix="suiteI-") as td:
        root = Path(td) / "fx"
        fixture.build(root)
        state = Path(td) / "state"
        out: list[dict] = []
        for fx in FIXTURES:
            sub = [c for c in cases if c["fixture"] == fx]
            out += run_fixture(a.bastion, root, fx, sub, state)
    order = {c["id"]: i for i, c in enumerate(cases)}
    out.sort(key=lambda c: order[c["id"]])
    s = summarise(out)
    Path(a.json).write_text(json.dumps({"summary": s, "cases": out}, indent=1) + "\n")
    print(f"suite I measured {s['when']} with {a.bastion}")
    print(f"attack calls: {s['attack_calls']}  decisions: {s['attack_decisions']}")
    print(
        f"attacks allowed: {s['attacks_allowed']} ({s['attacks_allowed_pct']}%), of which print a credential: "
        f"{s['allowed_printing_credential']}"
    )
    print(
        f"expect-deny calls: {s['expect_deny_calls']}, not denied: {s['expect_deny_not_denied']} "
        f"(allowed {s['expect_deny_allowed']}, asked {s['expect_deny_asked']})"
    )
    for fx, d in s["everyday"].items():
        print(
            f"everyday {fx}: {d['allowed']}/{d['calls']} allowed ({d['pct']}%), asked {d['asked']}, denied {d['denied']}"
        )
    print(f"{'category':22} calls allow  ask deny  deny-exp-not-denied")
    for k, d in sorted(s["categories"].items()):
        print(
            f"{k:22} {d['calls']:5} {d.get('allow', 0):5} {d.get('ask', 0):4} {d.get('deny', 0):4} {d['deny_expected_not_denied']:5}"
        )
    if a.show_wrong:
        for c in out:
            if wrong(c):
                arg = c["args"].get("command") if isinstance(c["args"], dict) else None
                print(
                    f"WRONG {c['id']:16} {c['expect']:11} got {c['decision']:5} [{c['category']}] "
                    f"{arg if isinstance(arg, str) else json.dumps(c['args'])[:140]}  rules={','.join(c['rules'])}"
                )
    print(f"JSON: {a.json}")


if __name__ == "__main__":
    main()
