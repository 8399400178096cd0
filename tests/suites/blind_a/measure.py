#!/usr/bin/env python3
"""Run suite-a's cases through `bastion check` and summarise.

    python3 measure.py [--bastion PATH] [--cases cases.jsonl] [--json OUT.json] [--non-interactive]
                       [--keep DIR] [--only-category SLUG] [--show-wrong]

Builds the three fixtures (hostile, clean, lfs-delta) in a temp dir, then decides every case with
HOME set to the fixture's fake home and the case's cwd inside the fixture's workspace. Uses
`bastion check --batch -` when the CLI has it (one process per fixture), else `bastion check
--json` per case with a small pool.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import shutil
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402

DEFAULT_BASTION = "/work/wt/baseline/.venv/bin/bastion"
ARG_KEY = {"shell": "command", "read": "path", "list": "path", "glob": "pattern", "grep": "path",
           "write": "path", "edit": "path", "fetch": "url"}


def expand(s: str, fx: dict) -> str:
    """{HOME} and {WS} placeholders; a shell's own ${HOME} is left alone."""
    s = re.sub(r"(?<!\$)\{HOME\}", lambda m: str(fx["home"]), s)
    return re.sub(r"(?<!\$)\{WS\}", lambda m: str(fx["ws"]), s)


def call_args(case: dict, fx: dict) -> dict:
    fam = case["family"]
    value = expand(case["arg"], fx)
    args = {ARG_KEY[fam]: value}
    if fam == "write":
        args["content"] = "x\n"
    if fam == "edit":
        args.update({"old_string": "x", "new_string": "y"})
    return args


def env_for(fx: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BASTION_")}
    env["HOME"] = str(fx["home"])
    env.pop("KUBECONFIG", None)
    env.pop("XDG_CONFIG_HOME", None)
    return env


def has_batch(bastion: str) -> bool:
    r = subprocess.run([bastion, "check", "--help"], capture_output=True, text=True)
    return "--batch" in (r.stdout + r.stderr)


def run_batch(bastion: str, cases: list[dict], fx: dict, interactive: bool) -> list[dict]:
    lines = []
    for c in cases:
        lines.append(json.dumps({"tool": c["family"], "args": call_args(c, fx),
                                 "cwd": os.path.normpath(fx["ws"] / c["cwd"]),
                                 "interactive": interactive}))
    r = subprocess.run([bastion, "check", "--batch", "-"], input="\n".join(lines) + "\n", capture_output=True,
                       text=True, env=env_for(fx), cwd=fx["ws"])
    out = [ln for ln in r.stdout.splitlines() if ln.strip()]
    if len(out) != len(cases):
        raise SystemExit(f"batch returned {len(out)} lines for {len(cases)} cases (rc {r.returncode}): {r.stderr[-2000:]}")
    return [json.loads(ln) for ln in out]


def run_one(bastion: str, case: dict, fx: dict, interactive: bool) -> dict:
    cmd = [bastion, "check", "--json", "--cwd", os.path.normpath(fx["ws"] / case["cwd"])]
    if not interactive:
        cmd.append("--non-interactive")
    fam = case["family"]
    value = json.dumps(call_args(case, fx)) if fam in ("write", "edit") else expand(case["arg"], fx)
    cmd += [fam, value]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env_for(fx), cwd=fx["ws"])
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"decision": {0: "allow", 3: "ask", 4: "deny"}.get(r.returncode, f"error-{r.returncode}"), "error": r.stderr[-500:]}


def wrong(case: dict, decision: str) -> bool:
    if case["kind"] == "everyday":
        return decision != "allow"
    if case["expect"] == "deny":
        return decision != "deny"
    return decision == "allow"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default=DEFAULT_BASTION)
    ap.add_argument("--cases", default=str(HERE / "cases.jsonl"))
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--keep", help="build fixtures here and keep them")
    ap.add_argument("--only-category")
    ap.add_argument("--show-wrong", action="store_true", help="list every wrong decision")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()

    cases = [json.loads(ln) for ln in open(a.cases) if ln.strip()]
    if a.only_category:
        cases = [c for c in cases if c["category"] == a.only_category]
    interactive = not a.non_interactive

    tmp = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="suite-a-"))
    by_fx: dict[str, list[dict]] = defaultdict(list)
    for c in cases:
        by_fx[c["fixture"]].append(c)
    fixtures = {v: fixture.build(tmp / v, v) for v in by_fx}

    batch = has_batch(a.bastion)
    results: dict[str, dict] = {}
    for v, cs in by_fx.items():
        fx = fixtures[v]
        if batch:
            evs = run_batch(a.bastion, cs, fx, interactive)
        else:
            with cf.ThreadPoolExecutor(a.workers) as pool:
                evs = list(pool.map(lambda c: run_one(a.bastion, c, fx, interactive), cs))
        for c, ev in zip(cs, evs):
            results[c["id"]] = ev

    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for c in cases:
        ev = results[c["id"]]
        d = ev.get("decision", "?")
        rows.append({**c, "decision": d, "wrong": wrong(c, d),
                     "reasons": [r.get("rule") for r in ev.get("reasons", []) if isinstance(r, dict)]})

    att = [r for r in rows if r["kind"] == "attack"]
    att_allowed = [r for r in att if r["decision"] == "allow"]
    cred = [r for r in att if r["prints_credential"]]
    cred_allowed = [r for r in cred if r["decision"] == "allow"]
    must_deny = [r for r in att if r["expect"] == "deny"]
    must_deny_not = [r for r in must_deny if r["decision"] != "deny"]
    must_deny_allowed = [r for r in must_deny if r["decision"] == "allow"]

    def pct(n: int, d: int) -> str:
        return f"{100.0 * n / d:.1f}%" if d else "n/a"

    print(f"bastion: {a.bastion}   mode: {'interactive' if interactive else 'non-interactive'}   via: {'--batch' if batch else 'check per case'}")
    print(f"cases: {len(rows)}  (attacks {len(att)}, everyday {len(rows) - len(att)})")
    print()
    dec = Counter(r["decision"] for r in att)
    print(f"ATTACKS: {len(att)}   allow {dec['allow']}  ask {dec['ask']}  deny {dec['deny']}  other {len(att) - dec['allow'] - dec['ask'] - dec['deny']}")
    print(f"  attack calls allowed:              {len(att_allowed)} / {len(att)} ({pct(len(att_allowed), len(att))})")
    print(f"  credential-printing calls allowed: {len(cred_allowed)} / {len(cred)}")
    print(f"  deny-expected calls not denied:    {len(must_deny_not)} / {len(must_deny)}  (of which allowed: {len(must_deny_allowed)})")
    print()
    for v in ("clean", "lfs-delta"):
        ev = [r for r in rows if r["kind"] == "everyday" and r["fixture"] == v]
        if not ev:
            continue
        ok = sum(r["decision"] == "allow" for r in ev)
        git = [r for r in ev if r["category"] == "git-read"]
        gok = sum(r["decision"] == "allow" for r in git)
        print(f"EVERYDAY {v:<10} allowed {ok} / {len(ev)} ({pct(ok, len(ev))})   git reads allowed {gok} / {len(git)}")
    print()
    print("ATTACKS per category                 total  allow   ask  deny  cred-allowed  deny-expected-not-denied")
    cats = sorted({r["category"] for r in att}, key=lambda k: (-sum(r["category"] == k for r in att), k))
    for k in cats:
        rs = [r for r in att if r["category"] == k]
        cd = Counter(r["decision"] for r in rs)
        ca = sum(r["prints_credential"] and r["decision"] == "allow" for r in rs)
        dn = sum(r["expect"] == "deny" and r["decision"] != "deny" for r in rs)
        print(f"  {k:<34} {len(rs):>5} {cd['allow']:>6} {cd['ask']:>5} {cd['deny']:>5} {ca:>13} {dn:>25}")
    print()
    print("EVERYDAY per category                clean-allowed   lfs-delta-allowed")
    ecats = sorted({r["category"] for r in rows if r["kind"] == "everyday"})
    for k in ecats:
        parts = []
        for v in ("clean", "lfs-delta"):
            rs = [r for r in rows if r["kind"] == "everyday" and r["category"] == k and r["fixture"] == v]
            parts.append(f"{sum(r['decision'] == 'allow' for r in rs)}/{len(rs)}")
        print(f"  {k:<34} {parts[0]:>13} {parts[1]:>19}")

    if a.show_wrong:
        print()
        print("WRONG DECISIONS")
        for r in rows:
            if r["wrong"]:
                print(f"  {r['id']:<34} {r['decision']:<5} expect={r['expect']:<9} {r['family']:<6} {r['arg']!r}  cwd={r['cwd']}")

    if a.json_out:
        summary = {
            "attacks": len(att), "attacks_allowed": len(att_allowed), "credential_printing": len(cred),
            "credential_printing_allowed": len(cred_allowed), "deny_expected": len(must_deny),
            "deny_expected_not_denied": len(must_deny_not),
            "everyday": {v: {"total": sum(r["kind"] == "everyday" and r["fixture"] == v for r in rows),
                             "allowed": sum(r["kind"] == "everyday" and r["fixture"] == v and r["decision"] == "allow" for r in rows)}
                         for v in ("clean", "lfs-delta")},
        }
        with open(a.json_out, "w") as f:
            json.dump({"summary": summary, "cases": rows}, f, indent=1)
        print(f"\nper-case results: {a.json_out}")


if __name__ == "__main__":
    main()
