#!/usr/bin/env python3
"""Run suite G's cases through `bastion check --batch` and summarise.

measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong] [--cases FILE]

Builds the fixture in a temp dir, runs each fixture's cases in one batch (process cwd = that
fixture's workspace, HOME = its home) and writes {"summary": {...}, "cases": [...]}.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402

DEFAULT_BASTION = "/work/main/.venv/bin/bastion"


def fill(value, home: str, ws: str):
    if isinstance(value, str):
        # "${HOME}" in a command is bash, not a placeholder
        return re.sub(r"(?<!\$)\{HOME\}", lambda _: home, re.sub(r"(?<!\$)\{WS\}", lambda _: ws, value))
    if isinstance(value, list):
        return [fill(v, home, ws) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, home, ws) for k, v in value.items()}
    return value


def load_cases(path: Path) -> list[dict]:
    with path.open() as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run_batch(bastion: str, cases: list[dict], home: Path, ws: Path, non_interactive: bool) -> list[dict]:
    lines = []
    for c in cases:
        call = {"tool": c["tool"], "args": fill(c["args"], str(home), str(ws)), "cwd": str(ws)}
        call["interactive"] = not non_interactive
        lines.append(json.dumps(call))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "BASTION_"))}
    env["HOME"] = str(home)
    cmd = [bastion, "check", "--batch", "-"]
    if non_interactive:
        cmd.insert(2, "--non-interactive")
    proc = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ws, env=env, timeout=170)
    out = [l for l in proc.stdout.splitlines() if l.strip()]
    results = []
    for i, c in enumerate(cases):
        try:
            ev = json.loads(out[i])
            results.append({"decision": ev.get("decision", "error"), "reasons": ev.get("reasons", [])})
        except (IndexError, json.JSONDecodeError):
            results.append({"decision": "error", "reasons": [{"message": proc.stderr[-300:]}]})
    return results


def pct(a: int, b: int) -> float:
    return round(100.0 * a / b, 1) if b else 0.0


def summarise(cases: list[dict]) -> dict:
    att = [c for c in cases if c["kind"] == "attack"]
    allowed = [c for c in att if c["decision"] == "allow"]
    deny_exp = [c for c in att if c["expect"] == "deny"]
    cred = [c for c in att if c["prints_credential"]]
    s = {
        "attacks": len(att),
        "attacks_allowed": len(allowed),
        "attacks_allowed_pct": pct(len(allowed), len(att)),
        "attacks_decisions": dict(Counter(c["decision"] for c in att)),
        "credential_printing": len(cred),
        "credential_printing_allowed": sum(c["decision"] == "allow" for c in cred),
        "deny_expected": len(deny_exp),
        "deny_expected_not_denied": sum(c["decision"] != "deny" for c in deny_exp),
        "deny_expected_allowed": sum(c["decision"] == "allow" for c in deny_exp),
        "deny_expected_asked": sum(c["decision"] == "ask" for c in deny_exp),
        "allowed_by_category": dict(Counter(c["category"] for c in allowed).most_common()),
        "everyday": {},
    }
    for fx in ("clean", "lfs-delta"):
        ev = [c for c in cases if c["kind"] == "everyday" and c["fixture"] == fx]
        n = sum(c["decision"] == "allow" for c in ev)
        s["everyday"][fx] = {"total": len(ev), "allowed": n, "allowed_pct": pct(n, len(ev)),
                             "asked": sum(c["decision"] == "ask" for c in ev),
                             "denied": sum(c["decision"] == "deny" for c in ev)}
    return s


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default=DEFAULT_BASTION)
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=str(HERE / "cases.jsonl"))
    a = ap.parse_args()
    cases = load_cases(Path(a.cases))
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="suite-g-") as tmp:
        root = Path(tmp)
        fixture.build(root)
        for fx in fixture.FIXTURES:
            mine = [c for c in cases if c["fixture"] == fx]
            if not mine:
                continue
            home, ws = root / fx / "home", root / fx / "ws"
            for c, r in zip(mine, run_batch(a.bastion, mine, home, ws, a.non_interactive)):
                c["decision"] = r["decision"]
                c["reason"] = "; ".join(str(x.get("message", ""))[:160] for x in r["reasons"][:2])
                c["rules"] = [str(x.get("rule", "")) for x in r["reasons"]]  # kept by the lead (#31)
    summary = summarise(cases)
    summary["bastion"] = a.bastion
    summary["non_interactive"] = a.non_interactive
    summary["measured_at"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    summary["seconds"] = round(time.time() - t0, 1)
    if a.json_out:
        Path(a.json_out).write_text(json.dumps({"summary": summary, "cases": cases}, indent=1) + "\n")
    s = summary
    print(f"suite G  {s['measured_at']}  bastion={a.bastion}  ({s['seconds']} s)")
    print(f"attack calls allowed: {s['attacks_allowed']}/{s['attacks']} ({s['attacks_allowed_pct']}%)  decisions {s['attacks_decisions']}")
    print(f"credential-printing attacks allowed: {s['credential_printing_allowed']}/{s['credential_printing']}")
    print(f"deny-expected not denied: {s['deny_expected_not_denied']}/{s['deny_expected']} "
          f"(allowed {s['deny_expected_allowed']}, asked {s['deny_expected_asked']})")
    for fx, e in s["everyday"].items():
        print(f"everyday allowed on {fx}: {e['allowed']}/{e['total']} ({e['allowed_pct']}%)  asked {e['asked']} denied {e['denied']}")
    print("allowed attacks by category:", s["allowed_by_category"])
    if a.show_wrong:
        print("\n-- attacks allowed --")
        for c in cases:
            if c["kind"] == "attack" and c["decision"] == "allow":
                print(f"{c['id']} [{c['category']}] {c['tool']} {json.dumps(c['args'])[:160]}  -- {c['why']}")
        print("\n-- deny-expected asked --")
        for c in cases:
            if c["kind"] == "attack" and c["expect"] == "deny" and c["decision"] == "ask":
                print(f"{c['id']} [{c['category']}] {json.dumps(c['args'])[:140]}")
        print("\n-- everyday not allowed --")
        for c in cases:
            if c["kind"] == "everyday" and c["decision"] != "allow":
                print(f"{c['id']} {c['fixture']} {c['decision']} {json.dumps(c['args'])[:100]}  | {c['reason'][:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
