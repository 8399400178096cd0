#!/usr/bin/env python3
"""Suite J measure: python3 -I measure.py [--bastion PATH] [--json FILE] [--show-wrong]

Builds the fixture in a temp dir and runs ONE `bastion check --batch -` per fixture
(cwd = that fixture's ws, HOME = its home, GITHUB_TOKEN canary, BASTION_STATE_DIR temp,
BASTION_POLICY removed).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402

TOKEN = "ghp_BSTNCANARY_env_github_token"


def subst(obj, home: str, ws: str):
    if isinstance(obj, str):
        return obj.replace("{HOME}", home).replace("{WS}", ws)
    if isinstance(obj, list):
        return [subst(x, home, ws) for x in obj]
    if isinstance(obj, dict):
        return {k: subst(v, home, ws) for k, v in obj.items()}
    return obj


def load_cases() -> list[dict]:
    return [json.loads(l) for l in (HERE / "cases.jsonl").read_text().splitlines() if l.strip()]


def run_batch(bastion: str, fx_root: Path, cases: list[dict], state: Path) -> list[dict]:
    home, ws = fx_root / "home", fx_root / "ws"
    env = {k: v for k, v in os.environ.items() if k not in ("BASTION_POLICY",)}
    env.update(HOME=str(home), GITHUB_TOKEN=TOKEN, BASTION_STATE_DIR=str(state))
    lines = [json.dumps({"tool": c["tool"], "args": subst(c["args"], str(home), str(ws)), "cwd": str(ws),
                         "interactive": True}) for c in cases]
    r = subprocess.run([bastion, "check", "--batch", "-"], input="\n".join(lines) + "\n", cwd=ws, env=env,
                       capture_output=True, text=True, timeout=600)
    outs = [l for l in r.stdout.splitlines() if l.strip()]
    if len(outs) != len(cases):
        sys.stderr.write(r.stderr[-3000:])
        raise SystemExit(f"batch for {fx_root.name}: {len(outs)} answers for {len(cases)} calls (exit {r.returncode})")
    res = []
    for c, o in zip(cases, outs):
        ev = json.loads(o)
        res.append({**c, "decision": ev.get("decision"), "rules": [x.get("rule") for x in ev.get("reasons", [])]})
    return res


def is_wrong(c: dict) -> str | None:
    d = c["decision"]
    if c["kind"] == "attack":
        if c["expect"] == "deny" and d != "deny":
            return f"expect-deny {d}"
        if d == "allow":
            return "attack allowed"
    elif d != "allow":
        return f"everyday {d}"
    return None


def summarize(cases: list[dict]) -> dict:
    att = [c for c in cases if c["kind"] == "attack"]
    allowed = [c for c in att if c["decision"] == "allow"]
    contained = [c for c in allowed if "shell.contained-code" in c["rules"]]
    dc = [c for c in att if c["expect"] == "deny"]
    s = {
        "attack_calls": len(att),
        "attack_decisions": dict(collections.Counter(c["decision"] for c in att)),
        "attacks_allowed": len(allowed),
        "attacks_allowed_pct": round(100 * len(allowed) / max(1, len(att)), 2),
        "attacks_allowed_contained_code": len(contained),
        "allowed_printing_credential": sum(1 for c in allowed if c["prints_credential"]),
        "expect_deny_calls": len(dc),
        "expect_deny_not_denied": sum(1 for c in dc if c["decision"] != "deny"),
        "expect_deny_allowed": sum(1 for c in dc if c["decision"] == "allow"),
        "expect_deny_asked": sum(1 for c in dc if c["decision"] == "ask"),
        "everyday": {},
        "per_category": {},
    }
    for fx in ("clean", "lfs-delta"):
        ev = [c for c in cases if c["kind"] == "everyday" and c["fixture"] == fx]
        a = sum(1 for c in ev if c["decision"] == "allow")
        s["everyday"][fx] = {"calls": len(ev), "allowed": a, "pct": round(100 * a / max(1, len(ev)), 2),
                             "decisions": dict(collections.Counter(c["decision"] for c in ev))}
    for cat in sorted({c["category"] for c in att}):
        cc = [c for c in att if c["category"] == cat]
        s["per_category"][cat] = {"calls": len(cc), **{k: sum(1 for c in cc if c["decision"] == k) for k in ("allow", "ask", "deny")}}
    return s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/main/.venv/bin/bastion")
    ap.add_argument("--json", default=None)
    ap.add_argument("--show-wrong", action="store_true")
    a = ap.parse_args()
    t0 = time.time()
    cases = load_cases()
    with tempfile.TemporaryDirectory(prefix="suite-j-measure-") as td:
        root = Path(td) / "fx"
        fixture.build(root)
        results: list[dict] = []
        for fx in ("hostile", "clean", "lfs-delta"):
            sel = [c for c in cases if c["fixture"] == fx]
            results += run_batch(a.bastion, root / fx, sel, Path(td) / f"state-{fx}")
    s = summarize(results)
    s["seconds"] = round(time.time() - t0, 1)
    if a.json:
        Path(a.json).write_text(json.dumps({"summary": s, "cases": results}, indent=1))
    print(f"Suite J — bastion {a.bastion}  ({s['seconds']} s)")
    print(f"attack calls: {s['attack_calls']}  decisions: {s['attack_decisions']}")
    print(f"attacks allowed: {s['attacks_allowed']} ({s['attacks_allowed_pct']}%), of them shell.contained-code: "
          f"{s['attacks_allowed_contained_code']}")
    print(f"allowed attacks printing a credential: {s['allowed_printing_credential']}")
    print(f"expect-deny calls: {s['expect_deny_calls']}, not denied: {s['expect_deny_not_denied']} "
          f"(allowed {s['expect_deny_allowed']}, asked {s['expect_deny_asked']})")
    for fx, e in s["everyday"].items():
        print(f"everyday {fx}: {e['allowed']}/{e['calls']} allowed ({e['pct']}%) {e['decisions']}")
    print("per category (calls allow/ask/deny):")
    for cat, v in s["per_category"].items():
        print(f"  {cat:30s} {v['calls']:4d}  {v['allow']:3d}/{v['ask']:3d}/{v['deny']:3d}")
    if a.show_wrong:
        print("\nwrong answers:")
        for c in results:
            why = is_wrong(c)
            if why:
                arg = c["args"].get("command", c["args"]) if isinstance(c["args"], dict) else c["args"]
                print(f"  {c['id']} [{c['fixture']}/{c['category']}] {why} rules={','.join(r for r in c['rules'] if r)}"
                      f"\n      {c['tool']}: {json.dumps(arg)[:220]}")


if __name__ == "__main__":
    main()
