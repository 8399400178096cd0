#!/usr/bin/env python3
"""Run every case of cases.jsonl through `bastion check --batch` and summarise.

measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong] [--cases FILE]

Builds the three machines (fixture.py) in a temp dir; for each machine runs one batch with
process cwd = its workspace and HOME = its home (plus the agent's env from agent.env).
`check --batch` never has a person to ask, so it answers an ask as deny with the reason
`approval.non_interactive_default`; unless --non-interactive is given, such an answer is counted
as "ask" (an interactive session would have asked). With --non-interactive it is counted as deny.
Standard library only. Exit 0 when it ran.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402

NONINT = "approval.non_interactive_default"


def subst(obj, home: str, ws: str):
    if isinstance(obj, str):
        return obj.replace("{HOME}", home).replace("{WS}", ws)
    if isinstance(obj, dict):
        return {k: subst(v, home, ws) for k, v in obj.items()}
    if isinstance(obj, list):
        return [subst(v, home, ws) for v in obj]
    return obj


def decision_of(ans: dict, non_interactive: bool) -> str:
    d = ans.get("decision")
    if d not in ("allow", "ask", "deny"):
        return "deny"  # an error is never an allow
    if d == "deny" and not non_interactive:
        reasons = ans.get("reasons") or []
        denies = [r for r in reasons if r.get("decision") == "deny"]
        if denies and all(r.get("rule") == NONINT for r in denies):
            return "ask"
    return d


def load_cases(path: str) -> list[dict]:
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_cases.py"), path], check=True, capture_output=True)
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run_batch(bastion: str, rows: list[dict], m: dict, timeout: int = 170) -> list[dict]:
    env = dict(os.environ)
    env["HOME"] = m["home"]
    try:
        with open(os.path.join(m["root"], "agent.env")) as f:
            env.update(json.load(f))
    except OSError:
        pass
    lines = "".join(json.dumps({"tool": c["tool"], "args": subst(c["args"], m["home"], m["ws"])}) + "\n" for c in rows)
    p = subprocess.run([bastion, "check", "--batch", "-"], input=lines, capture_output=True, text=True,
                       cwd=m["ws"], env=env, timeout=timeout)
    out = [json.loads(l) for l in p.stdout.splitlines() if l.strip().startswith("{")]
    if len(out) != len(rows):
        raise SystemExit(f"bastion answered {len(out)} of {len(rows)} lines (rc={p.returncode}): {p.stderr[-2000:]}")
    return out


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100.0 * a / b:.1f}%)" if b else f"{a}/0"


def summarise(cases: list[dict]) -> dict:
    att = [c for c in cases if c["kind"] == "attack"]
    allowed = [c for c in att if c["decision"] == "allow"]
    cred = [c for c in att if c["prints_credential"]]
    must = [c for c in att if c["expect"] == "deny"]
    s = {
        "attack_calls": len(att),
        "attack_allowed": len(allowed),
        "attack_allowed_pct": round(100.0 * len(allowed) / len(att), 2) if att else 0.0,
        "credential_printing_calls": len(cred),
        "credential_printing_allowed": sum(c["decision"] == "allow" for c in cred),
        "deny_expected": len(must),
        "deny_expected_denied": sum(c["decision"] == "deny" for c in must),
        "deny_expected_not_denied": sum(c["decision"] != "deny" for c in must),
        "deny_expected_allowed": sum(c["decision"] == "allow" for c in must),
        "deny_expected_asked": sum(c["decision"] == "ask" for c in must),
        "attack_asked": sum(c["decision"] == "ask" for c in att),
        "attack_denied": sum(c["decision"] == "deny" for c in att),
        "everyday": {},
        "allowed_by_category": {},
    }
    r1 = [c for c in att if c.get("round", 1) == 1]
    s["round1_only"] = {
        "attack_calls": len(r1), "attack_allowed": sum(c["decision"] == "allow" for c in r1),
        "credential_printing_calls": sum(c["prints_credential"] for c in r1),
        "credential_printing_allowed": sum(c["prints_credential"] and c["decision"] == "allow" for c in r1),
        "deny_expected": sum(c["expect"] == "deny" for c in r1),
        "deny_expected_allowed": sum(c["expect"] == "deny" and c["decision"] == "allow" for c in r1),
        "deny_expected_asked": sum(c["expect"] == "deny" and c["decision"] == "ask" for c in r1),
    }
    for c in allowed:
        s["allowed_by_category"][c["category"]] = s["allowed_by_category"].get(c["category"], 0) + 1
    s["allowed_by_category"] = dict(sorted(s["allowed_by_category"].items(), key=lambda kv: (-kv[1], kv[0])))
    for fx in sorted({c["fixture"] for c in cases if c["kind"] == "everyday"}):
        ev = [c for c in cases if c["kind"] == "everyday" and c["fixture"] == fx]
        n = sum(c["decision"] == "allow" for c in ev)
        s["everyday"][fx] = {"calls": len(ev), "allowed": n, "allowed_pct": round(100.0 * n / len(ev), 2) if ev else 0.0,
                             "asked": sum(c["decision"] == "ask" for c in ev), "denied": sum(c["decision"] == "deny" for c in ev),
                             "by_class": {}}
        for cl in ("read", "run", "write"):
            evc = [c for c in ev if c.get("everyday_class", "read") == cl]
            k = sum(c["decision"] == "allow" for c in evc)
            s["everyday"][fx]["by_class"][cl] = {"calls": len(evc), "allowed": k,
                                                 "allowed_pct": round(100.0 * k / len(evc), 2) if evc else 0.0}
    return s


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/main/.venv/bin/bastion")
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.jsonl"))
    a = ap.parse_args()
    t0 = time.time()
    cases = load_cases(a.cases)
    with tempfile.TemporaryDirectory(prefix="suite-d-") as tmp:
        machines = fixture.build(tmp)
        for fx, m in machines.items():
            rows = [c for c in cases if c["fixture"] == fx]
            if not rows:
                continue
            for c, ans in zip(rows, run_batch(a.bastion, rows, m)):
                c["decision"] = decision_of(ans, a.non_interactive)
                c["rules"] = sorted({r.get("rule", "") for r in ans.get("reasons") or [] if r.get("rule") != NONINT})
    s = summarise(cases)
    s["bastion"] = a.bastion
    s["non_interactive"] = a.non_interactive
    s["measured_at"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    s["seconds"] = round(time.time() - t0, 1)
    print(f"suite-d measured {s['measured_at']} with {a.bastion} ({s['seconds']}s)")
    print(f"attack calls allowed: {pct(s['attack_allowed'], s['attack_calls'])}  (asked {s['attack_asked']}, denied {s['attack_denied']})")
    print(f"credential-printing attacks allowed: {pct(s['credential_printing_allowed'], s['credential_printing_calls'])}")
    print(f"deny-expected not denied: {pct(s['deny_expected_not_denied'], s['deny_expected'])}"
          f"  (allowed {s['deny_expected_allowed']}, asked {s['deny_expected_asked']})")
    for fx, e in s["everyday"].items():
        print(f"everyday allowed on {fx}: {pct(e['allowed'], e['calls'])}  (asked {e['asked']}, denied {e['denied']}); "
              + ", ".join(f"{cl} {pct(v['allowed'], v['calls'])}" for cl, v in e["by_class"].items()))
    r1 = s["round1_only"]
    print(f"round 1 only (written before any probing): attacks allowed {pct(r1['attack_allowed'], r1['attack_calls'])}, "
          f"credential-printing allowed {r1['credential_printing_allowed']}/{r1['credential_printing_calls']}, "
          f"deny-expected allowed {r1['deny_expected_allowed']} / asked {r1['deny_expected_asked']} of {r1['deny_expected']}")
    if s["allowed_by_category"]:
        print("attacks allowed by category: " + ", ".join(f"{k} {v}" for k, v in s["allowed_by_category"].items()))
    if a.show_wrong:
        print("\nwrong allows (attack calls allowed):")
        for c in cases:
            if c["kind"] == "attack" and c["decision"] == "allow":
                print(f"  {c['id']}: {c['tool']} {json.dumps(c['args'])[:160]}  -- {c['why']}")
        print("\ndeny-expected but asked:")
        for c in cases:
            if c["kind"] == "attack" and c["expect"] == "deny" and c["decision"] == "ask":
                print(f"  {c['id']}: {c['tool']} {json.dumps(c['args'])[:160]}")
        print("\neveryday not allowed:")
        for c in cases:
            if c["kind"] == "everyday" and c["decision"] != "allow":
                print(f"  {c['id']}: {c['decision']} {json.dumps(c['args'])[:140]}  rules={c['rules']}")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({"summary": s, "cases": cases}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
