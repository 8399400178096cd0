#!/usr/bin/env python3
"""Print the figures section (markdown) from measured.json and verified.json.

report.py [measured.json] [verified.json]
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    m = json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else HERE / "measured.json").read_text())
    vpath = Path(sys.argv[2] if len(sys.argv) > 2 else HERE / "verified.json")
    v = {c["id"]: c for c in json.loads(vpath.read_text())["cases"]} if vpath.exists() else {}
    s, cases = m["summary"], m["cases"]
    att = [c for c in cases if c["kind"] == "attack"]
    out = []
    p = out.append
    p(f"Measured {s['measured_at']} with `{s['bastion']}` (interactive: a person can be asked; {s['seconds']} s).\n")
    p("| figure | value |\n| --- | --- |")
    p(f"| attack calls allowed | **{s['attacks_allowed']} / {s['attacks']} ({s['attacks_allowed_pct']}%)** |")
    p(f"| attack decisions | {s['attacks_decisions']} |")
    p(f"| credential-printing attacks allowed | **{s['credential_printing_allowed']} / {s['credential_printing']}** |")
    p(f"| deny-expected not denied | **{s['deny_expected_not_denied']} / {s['deny_expected']}** (allowed {s['deny_expected_allowed']}, asked {s['deny_expected_asked']}) |")
    for fx, e in s["everyday"].items():
        p(f"| everyday allowed on {fx} | **{e['allowed']} / {e['total']} ({e['allowed_pct']}%)** (asked {e['asked']}, denied {e['denied']}) |")
    allowed = [c for c in att if c["decision"] == "allow"]
    if v:
        real = [c for c in allowed if v.get(c["id"], {}).get("real")]
        landed = [c for c in allowed if (v.get(c["id"], {}).get("contained") or {}).get("harm")]
        shell = [c for c in v.values() if c["tool"] == "Bash"]
        p(f"| allowed attacks shown real (harm when run uncontained) | **{len(real)} / {len(allowed)}** |")
        p(f"| allowed attacks that landed harm when run contained (`bastion sandbox run --profile workspace-write`) | **{len(landed)}** ({', '.join(c['id'] for c in landed) or '-'}) |")
        p(f"| shell attacks executed (plain bubblewrap, no network) | {len(shell)}: {sum(bool(c.get('real')) for c in shell)} did harm, "
          f"{sum(c.get('real') is False for c in shell)} did nothing here (reason recorded), {sum(c.get('real') is None for c in shell)} not run |")
    p("\nAllowed attacks by category: " + ", ".join(f"{k} {n}" for k, n in Counter(c["category"] for c in allowed).most_common()) + "\n")
    p("### Attack calls allowed\n")
    p("| id | category | call | real? | contained run | why it is harmful |\n| --- | --- | --- | --- | --- | --- |")
    for c in allowed:
        r = v.get(c["id"], {})
        call = c["args"].get("command") or json.dumps(c["args"])
        real = "yes" if r.get("real") else ("no: " + r.get("note", "")) if r else "?"
        ch = r.get("contained")
        if ch:
            bits = []
            if ch["canary_printed"]:
                bits.append("printed " + ", ".join(ch["canary_printed"]))
            if ch["planted_ran"]:
                bits.append("planted code ran (bounded)")
            if ch["home_changed"] or ch["protected_changed"] or ch["harm_log"]:
                bits.append("changed " + ", ".join(ch["home_changed"] + ch["protected_changed"] + ch["harm_log"])[:80])
            cont = ("HARM" if ch["harm"] else "no harm") + (": " if bits else "") + "; ".join(bits)
        else:
            cont = "-"
        p(f"| {c['id']} | {c['category']} | `{call.replace('|', '&#124;')[:110]}` | {real.replace('|', '/')} | {cont} | {c['why']} |")
    p("\n### Deny-expected calls that were only asked\n")
    for c in att:
        if c["expect"] == "deny" and c["decision"] == "ask":
            p(f"- {c['id']} [{c['category']}] `{(c['args'].get('command') or json.dumps(c['args']))[:120]}` — {c['why']}")
    p("\n### Everyday calls not allowed\n")
    for c in cases:
        if c["kind"] == "everyday" and c["decision"] != "allow":
            p(f"- {c['id']} ({c['fixture']}) {c['decision']}: `{(c['args'].get('command') or json.dumps(c['args']))[:80]}` — {c.get('reason', '')[:140]}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
