#!/usr/bin/env python3
"""Run every case of cases.jsonl through `bastion check --batch` and summarise.

measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong] [--cases FILE] [--keep DIR]

Builds the fixture (fixture.py) in a temp dir; one batch per fixture with process cwd = that
fixture's workspace and HOME = its home.  Writes {"summary": {...}, "cases": [...]} where each case
carries its fields plus "decision" (allow|ask|deny).  Exit 0 when it ran.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402

DEFAULT_BASTION = "/work/main/.venv/bin/bastion"


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


def clean_env(home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BASTION_", "GIT_", "XDG_")) and k not in ("KUBECONFIG", "PYTHONPATH")}
    env["HOME"] = home
    return env


def run_batch(bastion, cases, home, ws, interactive, timeout=150):
    lines = []
    for c in cases:
        lines.append(json.dumps({"tool": c["tool"], "args": subst(c["args"], home, ws), "cwd": ws,
                                 "interactive": interactive}))
    p = subprocess.run([bastion, "check", "--batch", "-"], input="\n".join(lines) + "\n", cwd=ws,
                       env=clean_env(home), capture_output=True, text=True, timeout=timeout)
    outs = [line for line in p.stdout.splitlines() if line.strip()]
    res = []
    for i, c in enumerate(cases):
        if i < len(outs):
            try:
                ev = json.loads(outs[i])
            except ValueError:
                ev = {"decision": "deny", "reasons": [{"rule": "measure.unparsable", "message": outs[i][:200]}]}
        else:
            ev = {"decision": "deny", "reasons": [{"rule": "measure.missing-output",
                                                   "message": (p.stderr or "")[-300:]}]}
        res.append(ev)
    return res, p


def pct(a, b):
    return round(100.0 * a / b, 1) if b else 0.0


def summarise(cases):
    atk = [c for c in cases if c["kind"] == "attack"]
    day = [c for c in cases if c["kind"] == "everyday"]
    allowed = [c for c in atk if c["decision"] == "allow"]
    must_deny = [c for c in atk if c["expect"] == "deny"]
    s = {
        "attacks": len(atk),
        "attacks_allowed": len(allowed),
        "attacks_allowed_pct": pct(len(allowed), len(atk)),
        "credential_printing_attacks": sum(1 for c in atk if c["prints_credential"]),
        "credential_printing_allowed": sum(1 for c in allowed if c["prints_credential"]),
        "deny_expected": len(must_deny),
        "deny_expected_denied": sum(1 for c in must_deny if c["decision"] == "deny"),
        "deny_expected_allowed": sum(1 for c in must_deny if c["decision"] == "allow"),
        "deny_expected_asked": sum(1 for c in must_deny if c["decision"] == "ask"),
        "ask_or_deny_allowed": sum(1 for c in allowed if c["expect"] == "ask-or-deny"),
        "attacks_allowed_by_category": dict(collections.Counter(c["category"] for c in allowed).most_common()),
        "attacks_by_category": dict(collections.Counter(c["category"] for c in atk).most_common()),
        "wrong_allows": [c["id"] for c in allowed],
        "gate_output_leaks_canary": [c["id"] for c in cases if c.get("gate_leak")],
        "everyday": {},
    }
    for fx in sorted(set(c["fixture"] for c in day)):
        rows = [c for c in day if c["fixture"] == fx]
        ok = sum(1 for c in rows if c["decision"] == "allow")
        s["everyday"][fx] = {"calls": len(rows), "allowed": ok, "allowed_pct": pct(ok, len(rows)),
                             "asked": sum(1 for c in rows if c["decision"] == "ask"),
                             "denied": sum(1 for c in rows if c["decision"] == "deny")}
    return s


def describe(c):
    a = c["args"]
    return a.get("command") or json.dumps(a)[:160]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default=DEFAULT_BASTION)
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.jsonl"))
    ap.add_argument("--keep", help="build the fixture here and keep it")
    args = ap.parse_args(argv)
    t0 = time.time()
    cases = load_cases(args.cases)
    root = args.keep or tempfile.mkdtemp(prefix="suite-f-")
    try:
        fixture.build(root)
        out = []
        by_fx = collections.OrderedDict()
        for c in cases:
            by_fx.setdefault(c["fixture"], []).append(c)
        for fx, rows in by_fx.items():
            home, ws = os.path.join(root, fx, "home"), os.path.join(root, fx, "ws")
            evs, p = run_batch(args.bastion, rows, home, ws, not args.non_interactive)
            if p.returncode not in (0, 3, 4) and not p.stdout:
                print(f"bastion batch failed for {fx}: rc={p.returncode}\n{p.stderr[-2000:]}", file=sys.stderr)
            for c, ev in zip(rows, evs):
                r = dict(c)
                d = ev.get("decision", "deny")
                r["decision"] = d if d in ("allow", "ask", "deny") else "deny"
                r["reasons"] = [f"{x.get('rule')}: {x.get('message', '')}"[:300] for x in ev.get("reasons", [])][:4]
                import re as _re
                given = set(_re.findall(r"BSTNCANARY_\w+", json.dumps(c["args"])))
                r["gate_leak"] = bool(set(_re.findall(r"BSTNCANARY_\w+", json.dumps(ev))) - given)
                out.append(r)
        s = summarise(out)
        s["bastion"] = args.bastion
        s["interactive"] = not args.non_interactive
        s["measured_at"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        s["seconds"] = round(time.time() - t0, 1)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"summary": s, "cases": out}, f, indent=1)
    print(f"measured {s['measured_at']} with {args.bastion} ({'interactive' if s['interactive'] else 'non-interactive'}), {s['seconds']} s")
    print(f"attack calls allowed: {s['attacks_allowed']}/{s['attacks']} ({s['attacks_allowed_pct']}%)")
    print(f"credential-printing attacks allowed: {s['credential_printing_allowed']}/{s['credential_printing_attacks']}")
    print(f"deny-expected not denied: {s['deny_expected'] - s['deny_expected_denied']}/{s['deny_expected']} "
          f"(allowed {s['deny_expected_allowed']}, asked {s['deny_expected_asked']})")
    for fx, e in s["everyday"].items():
        print(f"everyday allowed on {fx}: {e['allowed']}/{e['calls']} ({e['allowed_pct']}%) asked {e['asked']} denied {e['denied']}")
    if s["attacks_allowed_by_category"]:
        print("allowed attacks by category: " + ", ".join(f"{k} {v}" for k, v in s["attacks_allowed_by_category"].items()))
    if s["gate_output_leaks_canary"]:
        print("gate output contains a canary: " + ", ".join(s["gate_output_leaks_canary"]))
    if args.show_wrong:
        print("\nwrong allows:")
        for c in out:
            if c["kind"] == "attack" and c["decision"] == "allow":
                print(f"  {c['id']} [{c['category']}] {describe(c)}  -- {c['why']}")
        print("\ndeny-expected asked:")
        for c in out:
            if c["kind"] == "attack" and c["expect"] == "deny" and c["decision"] == "ask":
                print(f"  {c['id']} [{c['category']}] {describe(c)}")
        print("\neveryday not allowed:")
        for c in out:
            if c["kind"] == "everyday" and c["decision"] != "allow":
                print(f"  {c['id']} {c['decision']} {describe(c)}  -- {(c['reasons'] or [''])[0][:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
