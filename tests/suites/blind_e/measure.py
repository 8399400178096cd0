#!/usr/bin/env python3
"""Run every case of cases.jsonl through `bastion check --batch` and summarise.

usage: measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong] [--cases FILE]

Builds the fixture (fixture.py) in a temporary directory; for each fixture, one batch run with
process cwd = that fixture's workspace and HOME = that fixture's home.  Standard library only.
"""
import argparse
import collections
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402


def subst(obj, home, ws):
    if isinstance(obj, str):
        return obj.replace("{HOME}", home).replace("{WS}", ws)
    if isinstance(obj, list):
        return [subst(x, home, ws) for x in obj]
    if isinstance(obj, dict):
        return {k: subst(v, home, ws) for k, v in obj.items()}
    return obj


def load_cases(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run_batch(bastion, machine, cases, non_interactive):
    lines = []
    for c in cases:
        call = {"tool": c["tool"], "args": subst(c["args"], machine.home, machine.ws),
                "cwd": machine.ws, "interactive": not non_interactive}
        lines.append(json.dumps(call))
    env = dict(os.environ)
    env["HOME"] = machine.home
    for k in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "KUBECONFIG",
              "GIT_DIR", "GIT_WORK_TREE", "BASTION_POLICY"):
        env.pop(k, None)
    cmd = [bastion, "check", "--batch", "-"]
    if non_interactive:
        cmd.append("--non-interactive")
    p = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                       cwd=machine.ws, env=env, timeout=150)
    out = [l for l in p.stdout.splitlines() if l.strip()]
    if len(out) != len(cases):
        raise SystemExit(f"bastion returned {len(out)} lines for {len(cases)} calls "
                         f"(rc {p.returncode}): {p.stderr[-2000:]}")
    res = []
    for line in out:
        try:
            ev = json.loads(line)
        except ValueError:
            ev = {"decision": "deny", "reasons": [{"message": "unparseable: " + line[:200]}]}
        res.append(ev)
    return res


def pct(a, b):
    return round(100.0 * a / b, 1) if b else 0.0


def summarise(cases):
    att = [c for c in cases if c["kind"] == "attack"]
    ev = [c for c in cases if c["kind"] == "everyday"]
    allowed = [c for c in att if c["decision"] == "allow"]
    pc_allowed = [c for c in allowed if c["prints_credential"]]
    must_deny = [c for c in att if c["expect"] == "deny"]
    md_allowed = [c for c in must_deny if c["decision"] == "allow"]
    md_asked = [c for c in must_deny if c["decision"] == "ask"]
    per_fx = {}
    for fx in sorted({c["fixture"] for c in ev}):
        xs = [c for c in ev if c["fixture"] == fx]
        a = sum(c["decision"] == "allow" for c in xs)
        per_fx[fx] = {"allowed": a, "total": len(xs), "percent": pct(a, len(xs))}
    by_cat = collections.Counter(c["category"] for c in allowed)
    cat_tot = collections.Counter(c["category"] for c in att)
    return {
        "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "attack_total": len(att),
        "attack_allowed": len(allowed),
        "attack_allowed_percent": pct(len(allowed), len(att)),
        "attack_decisions": dict(collections.Counter(c["decision"] for c in att)),
        "credential_printing_total": sum(c["prints_credential"] for c in att),
        "credential_printing_allowed": len(pc_allowed),
        "deny_expected_total": len(must_deny),
        "deny_expected_not_denied": len(md_allowed) + len(md_asked),
        "deny_expected_allowed": len(md_allowed),
        "deny_expected_asked": len(md_asked),
        "everyday_total": len(ev),
        "everyday_allowed": sum(c["decision"] == "allow" for c in ev),
        "everyday_per_fixture": per_fx,
        "allowed_attacks_by_category": {k: f"{v}/{cat_tot[k]}" for k, v in by_cat.most_common()},
        "wrong_allow_ids": [c["id"] for c in allowed],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default=shutil.which("bastion") or "/work/main/.venv/bin/bastion")
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.jsonl"))
    a = ap.parse_args()
    cases = load_cases(a.cases)
    tmp = tempfile.mkdtemp(prefix="suite-e-")
    try:
        machines = fixture.build(os.path.join(tmp, "fx"))
        out = []
        for fx, m in machines.items():
            mine = [c for c in cases if c["fixture"] == fx]
            if not mine:
                continue
            evs = run_batch(a.bastion, m, mine, a.non_interactive)
            for c, e in zip(mine, evs):
                d = dict(c)
                d["decision"] = e.get("decision", "deny")
                d["reason"] = "; ".join(r.get("message", "") for r in e.get("reasons", [])[:2])[:300]
                # added by the lead when the suite landed: the rule ids, for the held figures
                d["rules"] = [r.get("rule", "") for r in e.get("reasons", [])]
                out.append(d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    order = {c["id"]: i for i, c in enumerate(cases)}
    out.sort(key=lambda c: order[c["id"]])
    s = summarise(out)
    s["bastion"] = a.bastion
    s["non_interactive"] = a.non_interactive
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({"summary": s, "cases": out}, f, indent=1)
    print(f"measured {s['measured_at']} with {a.bastion}{' (non-interactive)' if a.non_interactive else ''}")
    print(f"attack calls allowed: {s['attack_allowed']}/{s['attack_total']} ({s['attack_allowed_percent']}%)"
          f"  decisions {s['attack_decisions']}")
    print(f"credential-printing attacks allowed: {s['credential_printing_allowed']}/{s['credential_printing_total']}")
    print(f"deny-expected not denied: {s['deny_expected_not_denied']}/{s['deny_expected_total']}"
          f" (allowed {s['deny_expected_allowed']}, asked {s['deny_expected_asked']})")
    for fx, v in s["everyday_per_fixture"].items():
        print(f"everyday allowed on {fx}: {v['allowed']}/{v['total']} ({v['percent']}%)")
    print("allowed attacks by category: " + ", ".join(f"{k} {v}" for k, v in s["allowed_attacks_by_category"].items()))
    if a.show_wrong:
        print("\nwrong allows:")
        for c in out:
            if c["kind"] == "attack" and c["decision"] == "allow":
                print(f"  {c['id']:28} {json.dumps(c['args'])[:150]}  -- {c['note']}")
        print("\ndeny-expected but asked:")
        for c in out:
            if c["kind"] == "attack" and c["expect"] == "deny" and c["decision"] == "ask":
                print(f"  {c['id']:28} {json.dumps(c['args'])[:150]}")
        print("\neveryday not allowed:")
        for c in out:
            if c["kind"] == "everyday" and c["decision"] != "allow":
                print(f"  {c['id']:28} {c['fixture']:9} {c['decision']:4} {json.dumps(c['args'])[:110]}  -- {c['reason'][:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
