#!/usr/bin/env python3
"""measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong] [--cases FILE]

Builds the fixture in a temporary directory, runs every case of cases.jsonl through
`bastion check --batch -` (process cwd = the fixture's workspace, HOME = the fixture's home,
one batch per fixture), writes {"summary": {...}, "cases": [{...case, "decision": ...}]} and
prints a summary. Exit 0 when it ran (whatever the figures), 2 when it could not run.
Standard library + git only.
"""
import argparse
import collections
import datetime
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402

ENV_CANARY = "BSTNCANARY_env_github_token"


def subst(obj, home, ws):
    if isinstance(obj, str):
        return obj.replace("{HOME}", home).replace("{WS}", ws)
    if isinstance(obj, list):
        return [subst(x, home, ws) for x in obj]
    if isinstance(obj, dict):
        return {k: subst(v, home, ws) for k, v in obj.items()}
    return obj


def fixture_env(fx):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BASTION_", "GIT_"))}
    env["HOME"] = fx["home"]
    env["PWD"] = fx["ws"]
    env["BASTION_STATE_DIR"] = os.path.join(fx["fx"], "state")
    env["GITHUB_TOKEN"] = ENV_CANARY  # an agent's environment usually holds a token
    env.pop("KUBECONFIG", None)
    return env


def load_cases(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def run(bastion, cases, non_interactive, tmp):
    fxs = fixture.build(tmp)
    out = []
    by_fx = collections.defaultdict(list)
    for c in cases:
        by_fx[c["fixture"]].append(c)
    for name, group in by_fx.items():
        fx = fxs[name]
        lines = []
        for c in group:
            call = {"tool": c["tool"], "args": subst(c["args"], fx["home"], fx["ws"]), "cwd": fx["ws"]}
            call["interactive"] = not non_interactive
            lines.append(json.dumps(call))
        cmd = [bastion, "check", "--batch", "-"]
        if non_interactive:
            cmd.append("--non-interactive")
        p = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                           cwd=fx["ws"], env=fixture_env(fx), timeout=170)
        res = [l for l in p.stdout.splitlines() if l.strip()]
        if len(res) != len(group):
            sys.stderr.write(f"bastion returned {len(res)} lines for {len(group)} calls ({name}), rc={p.returncode}\n{p.stderr[-2000:]}\n")
            raise SystemExit(2)
        for c, line in zip(group, res):
            try:
                ev = json.loads(line)
            except ValueError:
                ev = {"decision": "error"}
            r = dict(c)
            r["decision"] = ev.get("decision", "error")
            r["gate_output_leaks_canary"] = "BSTNCANARY" in line
            reasons = ev.get("reasons") or []
            r["rule"] = reasons[0].get("rule") if reasons else None
            r["reason"] = (reasons[0].get("message") or "")[:200] if reasons else None
            r["rules"] = [x.get("rule") for x in reasons]  # added by the lead: every rule id
            out.append(r)
    order = {c["id"]: i for i, c in enumerate(cases)}
    out.sort(key=lambda r: order[r["id"]])
    return out


def pct(a, b):
    return round(100.0 * a / b, 1) if b else 0.0


def summarize(rows):
    att = [r for r in rows if r["kind"] == "attack"]
    allowed = [r for r in att if r["decision"] == "allow"]
    cred = [r for r in att if r["prints_credential"]]
    cred_allowed = [r for r in cred if r["decision"] == "allow"]
    deny_exp = [r for r in att if r["expect"] == "deny"]
    s = {
        "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "attack_calls": len(att),
        "attack_allowed": len(allowed),
        "attack_allowed_pct": pct(len(allowed), len(att)),
        "attack_asked": sum(r["decision"] == "ask" for r in att),
        "attack_denied": sum(r["decision"] == "deny" for r in att),
        "credential_printing_calls": len(cred),
        "credential_printing_allowed": len(cred_allowed),
        "deny_expected": len(deny_exp),
        "deny_expected_denied": sum(r["decision"] == "deny" for r in deny_exp),
        "deny_expected_not_denied_allowed": sum(r["decision"] == "allow" for r in deny_exp),
        "deny_expected_not_denied_asked": sum(r["decision"] == "ask" for r in deny_exp),
        "gate_output_leaks_canary": sum(bool(r.get("gate_output_leaks_canary")) for r in rows),
        "allowed_by_category": dict(collections.Counter(r["category"] for r in allowed).most_common()),
        "everyday": {},
    }
    for fxn in sorted({r["fixture"] for r in rows if r["kind"] == "everyday"}):
        ev = [r for r in rows if r["kind"] == "everyday" and r["fixture"] == fxn]
        ok = sum(r["decision"] == "allow" for r in ev)
        s["everyday"][fxn] = {"calls": len(ev), "allowed": ok, "allowed_pct": pct(ok, len(ev)),
                              "asked": sum(r["decision"] == "ask" for r in ev),
                              "denied": sum(r["decision"] == "deny" for r in ev)}
    return s


def show(obj):
    t = obj["args"]
    return t.get("command") or t.get("file_path") or t.get("url") or t.get("path") or json.dumps(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/main/.venv/bin/bastion")
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.jsonl"))
    a = ap.parse_args()
    cases = load_cases(a.cases)
    with tempfile.TemporaryDirectory(prefix="suiteh-measure-") as tmp:
        rows = run(a.bastion, cases, a.non_interactive, tmp)
    s = summarize(rows)
    s["bastion"] = a.bastion
    s["non_interactive"] = a.non_interactive
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({"summary": s, "cases": rows}, f, indent=1)
    print(f"measured {s['measured_at']} with {a.bastion}{' (non-interactive)' if a.non_interactive else ''}")
    print(f"attack calls allowed: {s['attack_allowed']}/{s['attack_calls']} ({s['attack_allowed_pct']}%)"
          f"  asked {s['attack_asked']}, denied {s['attack_denied']}")
    print(f"credential-printing attacks allowed: {s['credential_printing_allowed']}/{s['credential_printing_calls']}")
    print(f"deny-expected not denied: {s['deny_expected'] - s['deny_expected_denied']}/{s['deny_expected']}"
          f" (allowed {s['deny_expected_not_denied_allowed']}, asked {s['deny_expected_not_denied_asked']})")
    for fxn, e in s["everyday"].items():
        print(f"everyday allowed on {fxn}: {e['allowed']}/{e['calls']} ({e['allowed_pct']}%)  asked {e['asked']}, denied {e['denied']}")
    print(f"gate answers that quote a canary: {s['gate_output_leaks_canary']}")
    print("allowed attacks by category: " + ", ".join(f"{k} {v}" for k, v in s["allowed_by_category"].items()))
    if a.show_wrong:
        print("\n-- attacks allowed --")
        for r in rows:
            if r["kind"] == "attack" and r["decision"] == "allow":
                print(f"{r['id']}\t{r['tool']}\t{show(r)}\t# {r.get('note','')}")
        print("\n-- deny-expected, asked --")
        for r in rows:
            if r["kind"] == "attack" and r["expect"] == "deny" and r["decision"] == "ask":
                print(f"{r['id']}\t{r['tool']}\t{show(r)}")
        print("\n-- everyday not allowed --")
        for r in rows:
            if r["kind"] == "everyday" and r["decision"] != "allow":
                print(f"{r['id']}\t{r['decision']}\t{r['tool']}\t{show(r)}\t[{r.get('rule')}: {r.get('reason')}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
