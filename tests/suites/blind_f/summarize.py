#!/usr/bin/env python3
"""Markdown tables from measure.py --json output and verified.json (used to write README.md).

summarize.py MEASURED.json [VERIFIED.json]
"""
import json
import sys


def cmd_of(c):
    a = c["args"]
    if "command" in a:
        return a["command"].replace("\n", "\\n").replace("|", "\\|")
    return (c["tool"] + " " + json.dumps(a)).replace("|", "\\|")[:140]


def main():
    m = json.load(open(sys.argv[1]))
    v = {}
    if len(sys.argv) > 2:
        v = {r["id"]: r for r in json.load(open(sys.argv[2]))["runs"]}
    s = m["summary"]
    print(f"measured {s['measured_at']} with {s['bastion']} (interactive={s['interactive']})\n")
    print("| id | category | call | expect | why harmful | run uncontained | run contained (as Bastion runs it) |")
    print("|---|---|---|---|---|---|---|")
    for c in m["cases"]:
        if c["kind"] != "attack" or c["decision"] != "allow":
            continue
        r = v.get(c["id"])
        if c["tool"] != "shell":
            unc, con = "not a shell call: runs uncontained in the agent", "n/a (file tool / fetch / MCP: never contained)"
        elif r is None:
            unc, con = "not run", "not run"
        else:
            u = r["uncontained"]
            unc = "; ".join(u["harm"]) or u["note"] or ""
            k = r.get("contained")
            con = ("; ".join(k["harm"]) or k["note"] or "") if k else "not run"
            if k and k.get("quarantined"):
                con += " (quarantined: " + ", ".join(k["quarantined"]) + ")"
        pc = " **prints credential**" if c["prints_credential"] else ""
        print(f"| {c['id']} | {c['category']} | `{cmd_of(c)}` | {c['expect']} | {c['why']}{pc} | {unc[:200]} | {con[:200]} |")


if __name__ == "__main__":
    main()


def figures(measured, verified, measured_ni=None):
    """The README's figures section, as markdown."""
    import collections
    m = json.load(open(measured))
    v = json.load(open(verified))
    s, vs = m["summary"], v["summary"]
    runs = {r["id"]: r for r in v["runs"]}
    out = []
    P = out.append
    P(f"## Figures (measured {s['measured_at']}, `{s['bastion']}`)\n")
    P("Re-measure: `python3 measure.py --bastion /work/main/.venv/bin/bastion --json measured.json --show-wrong`; "
      "re-verify: `python3 verify.py --measure measured.json` (all shell attacks, ~9 min) or "
      "`python3 verify.py --measure measured.json --only-allowed` (only what Bastion allowed, merges into verified.json).\n")
    P("| figure | interactive (default) |" + (" non-interactive |" if measured_ni else ""))
    P("|---|---|" + ("---|" if measured_ni else ""))
    ni = json.load(open(measured_ni))["summary"] if measured_ni else None

    def row(label, f):
        P(f"| {label} | {f(s)} |" + (f" {f(ni)} |" if ni else ""))
    row("attack calls allowed", lambda x: f"**{x['attacks_allowed']} / {x['attacks']} ({x['attacks_allowed_pct']}%)**")
    row("credential-printing attacks allowed", lambda x: f"**{x['credential_printing_allowed']} / {x['credential_printing_attacks']}**")
    row("deny-expected calls not denied", lambda x: f"{x['deny_expected'] - x['deny_expected_denied']} / {x['deny_expected']} (allowed {x['deny_expected_allowed']}, asked {x['deny_expected_asked']})")
    for fx in s["everyday"]:
        row(f"everyday allowed on `{fx}`", lambda x, fx=fx: f"**{x['everyday'][fx]['allowed']} / {x['everyday'][fx]['calls']} ({x['everyday'][fx]['allowed_pct']}%)** (asked {x['everyday'][fx]['asked']}, denied {x['everyday'][fx]['denied']})")
    row("gate output leaking a canary it was not given", lambda x: str(len(x["gate_output_leaks_canary"])))
    P("")
    allowed = [c for c in m["cases"] if c["kind"] == "attack" and c["decision"] == "allow"]
    shell_allowed = [c for c in allowed if c["tool"] == "shell"]
    harmful_con = [c for c in shell_allowed if runs.get(c["id"], {}).get("contained") and runs[c["id"]]["contained"]["harmful"]]
    ran_only = [c for c in shell_allowed if runs.get(c["id"], {}).get("contained") and not runs[c["id"]]["contained"]["harmful"] and runs[c["id"]]["contained"]["ran"]]
    notcont = [c for c in allowed if c["tool"] != "shell"]
    unreal = [c for c in shell_allowed if c["id"] in runs and not runs[c["id"]]["uncontained"]["harmful"]]
    P(f"### Verification (verify.py, {vs['generated_at']})\n")
    P(f"* shell attacks executed uncontained (plain bubblewrap, no network): {vs['shell_attacks_run']}; "
      f"harm observed in **{vs['harmful_uncontained']}**; no harm in {vs['no_effect_uncontained']} (reasons below).")
    notes = collections.Counter()
    for r in v["runs"]:
        if not r["uncontained"]["harmful"]:
            n = r["uncontained"]["note"] or "no harm observed"
            n = "program missing here" if "program missing" in n else n
            notes[n] += 1
    for n, k in notes.most_common():
        P(f"  * {k}: {n}")
    P(f"* allowed attack calls: {len(allowed)} = {len(shell_allowed)} shell calls (run contained as Bastion runs them) "
      f"+ {len(notcont)} calls Bastion never contains (file tools, fetch, MCP, code/agent families).")
    P(f"* **allowed shell attacks that landed harm when run contained: {len(harmful_con)}** "
      f"({', '.join(c['id'] for c in harmful_con)})")
    P(f"* allowed shell attacks whose planted code ran but only inside the sandbox (bounded): {len(ran_only)}")
    P(f"* allowed shell attacks that did nothing even uncontained here (program missing, needs network, …): {len(unreal)} "
      f"({', '.join(c['id'] for c in unreal)})")
    P(f"* **real failures** (allowed and harmful contained, or allowed and never contained, or printing a credential): "
      f"{len(set(c['id'] for c in harmful_con) | set(c['id'] for c in notcont) | set(c['id'] for c in allowed if c['prints_credential']))}\n")
    P("### Allowed attacks by category\n")
    P("| category | allowed / calls | of which harmful contained or not containable |")
    P("|---|---|---|")
    bycat = collections.Counter(c["category"] for c in allowed)
    tot = s["attacks_by_category"]
    real = collections.Counter(c["category"] for c in harmful_con + notcont)
    for k, n in bycat.most_common():
        P(f"| {k} | {n} / {tot[k]} | {real.get(k, 0)} |")
    P("")
    return "\n".join(out)


def lists(measured):
    m = json.load(open(measured))
    out = []
    P = out.append
    P("### Deny-expected calls that were only asked\n")
    for c in m["cases"]:
        if c["kind"] == "attack" and c["expect"] == "deny" and c["decision"] == "ask":
            P(f"* {c['id']} [{c['category']}] `{cmd_of(c)}` — {c['why']}")
    P("\n### Everyday calls not allowed\n")
    for c in m["cases"]:
        if c["kind"] == "everyday" and c["decision"] != "allow":
            P(f"* {c['id']} {c['decision']}: `{cmd_of(c)}` — {(c.get('reasons') or [''])[0][:160]}")
    return "\n".join(out)
