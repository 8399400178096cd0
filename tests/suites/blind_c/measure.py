#!/usr/bin/env python3
"""measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong]

Builds the fixture in a temp dir, runs every case of cases.jsonl through
`bastion check --batch` (process cwd = the fixture's workspace, HOME = the
fixture's home) and prints a summary. Exit 0 when it ran.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402


def subst(obj, home, ws):
    if isinstance(obj, str):
        return obj.replace("{HOME}", home).replace("{WS}", ws)
    if isinstance(obj, dict):
        return {k: subst(v, home, ws) for k, v in obj.items()}
    if isinstance(obj, list):
        return [subst(v, home, ws) for v in obj]
    return obj


def load_cases(path=os.path.join(HERE, "cases.jsonl")):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def run(bastion, cases, fx, non_interactive):
    out = []
    byfix = collections.defaultdict(list)
    for c in cases:
        byfix[c["fixture"]].append(c)
    for name, cs in byfix.items():
        home, ws = fx[name]["home"], fx[name]["ws"]
        lines = []
        for c in cs:
            line = {"tool": c["tool"], "args": subst(c["args"], home, ws),
                    "cwd": subst(c.get("cwd", "{WS}"), home, ws)}
            if not non_interactive:
                line["interactive"] = True
            lines.append(json.dumps(line))
        env = dict(os.environ, HOME=home)
        env.pop("KUBECONFIG", None)
        args = [bastion, "check", "--batch", "-"]
        if non_interactive:
            args.insert(2, "--non-interactive")
        p = subprocess.run(args, input="\n".join(lines) + "\n", cwd=ws, env=env,
                           capture_output=True, text=True)
        res = [l for l in p.stdout.splitlines() if l.strip()]
        if len(res) != len(cs):
            sys.exit(f"bastion returned {len(res)} lines for {len(cs)} calls (rc={p.returncode}): {p.stderr[-2000:]}")
        for c, r in zip(cs, res):
            ev = json.loads(r)
            d = dict(c)
            d["decision"] = ev.get("decision")
            d["reasons"] = [f"{x.get('rule')}: {x.get('message')}" for x in ev.get("reasons", [])][:3]
            out.append(d)
    order = {c["id"]: i for i, c in enumerate(cases)}
    out.sort(key=lambda d: order[d["id"]])
    return out


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.1f}%)" if b else "0/0"


def summary(res):
    att = [r for r in res if r["kind"] == "attack"]
    allowed = [r for r in att if r["decision"] == "allow"]
    cred = [r for r in att if r["prints_credential"]]
    cred_allowed = [r for r in cred if r["decision"] == "allow"]
    dex = [r for r in att if r["expect"] == "deny"]
    dex_allowed = [r for r in dex if r["decision"] == "allow"]
    dex_asked = [r for r in dex if r["decision"] == "ask"]
    s = {
        "attack_calls": len(att),
        "attack_allowed": len(allowed),
        "attack_allowed_pct": round(100.0 * len(allowed) / max(1, len(att)), 1),
        "credential_printing_attacks": len(cred),
        "credential_printing_allowed": len(cred_allowed),
        "deny_expected": len(dex),
        "deny_expected_not_denied": len(dex_allowed) + len(dex_asked),
        "deny_expected_allowed": len(dex_allowed),
        "deny_expected_asked": len(dex_asked),
        "allowed_by_category": dict(collections.Counter(r["category"] for r in allowed).most_common()),
        "everyday": {},
    }
    for fxn in sorted({r["fixture"] for r in res if r["kind"] == "everyday"}):
        ev = [r for r in res if r["kind"] == "everyday" and r["fixture"] == fxn]
        a = sum(r["decision"] == "allow" for r in ev)
        s["everyday"][fxn] = {"calls": len(ev), "allowed": a, "pct": round(100.0 * a / max(1, len(ev)), 1),
                              "asked": sum(r["decision"] == "ask" for r in ev),
                              "denied": sum(r["decision"] == "deny" for r in ev),
                              "by_subkind": {k: f"{sum(r['decision'] == 'allow' for r in ev if r.get('subkind') == k)}/"
                                                f"{sum(1 for r in ev if r.get('subkind') == k)}"
                                             for k in sorted({r.get('subkind') for r in ev if r.get('subkind')})}}
    return s


def show(r):
    a = r["args"]
    return a.get("command") or json.dumps(a)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/main/.venv/bin/bastion")
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.jsonl"))
    o = ap.parse_args()
    cases = load_cases(o.cases)
    with tempfile.TemporaryDirectory(prefix="suite-c-") as tmp:
        fx = fixture.build(tmp)
        res = run(o.bastion, cases, fx, o.non_interactive)
    s = summary(res)
    if o.json:
        with open(o.json, "w") as f:
            json.dump({"summary": s, "cases": res}, f, indent=1)
    print(f"attack calls allowed:            {pct(s['attack_allowed'], s['attack_calls'])}")
    print(f"credential-printing allowed:     {pct(s['credential_printing_allowed'], s['credential_printing_attacks'])}")
    print(f"deny-expected not denied:        {s['deny_expected_not_denied']}/{s['deny_expected']} "
          f"(allowed {s['deny_expected_allowed']}, asked {s['deny_expected_asked']})")
    for fxn, e in s["everyday"].items():
        print(f"everyday allowed on {fxn:10s}: {pct(e['allowed'], e['calls'])}  (ask {e['asked']}, deny {e['denied']}; "
              f"allowed by kind: {', '.join(k + ' ' + v for k, v in e['by_subkind'].items())})")
    print("wrong allows by category:", ", ".join(f"{k} {v}" for k, v in s["allowed_by_category"].items()) or "none")
    if o.show_wrong:
        print("\n# attacks allowed")
        for r in res:
            if r["kind"] == "attack" and r["decision"] == "allow":
                print(f"{r['id']}\t{r.get('cwd','')}\t{show(r)}\t-- {r['note']}")
        print("\n# deny-expected only asked")
        for r in res:
            if r["kind"] == "attack" and r["expect"] == "deny" and r["decision"] == "ask":
                print(f"{r['id']}\t{show(r)}")
        print("\n# everyday not allowed")
        for r in res:
            if r["kind"] == "everyday" and r["decision"] != "allow":
                print(f"{r['id']}\t{r['decision']}\t{show(r)}\t{r['reasons'][:1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
