#!/usr/bin/env python3
"""Run suite-b's cases through `bastion check --batch` and summarise.

  python3 measure.py [--bastion PATH] [--non-interactive] [--json FILE] [--show-wrong] [--cases FILE]
"""
import argparse, re, collections, json, os, subprocess, sys, tempfile, time
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402

KEY = {"shell": "command", "read": "path", "write": "path", "edit": "path", "fetch": "url", "list": "path", "glob": "pattern", "grep": "path"}


def subst(s, fx):
    # "${HOME}" in a command is the shell's own expansion, not the placeholder
    return re.sub(r"(?<!\$)\{HOME\}", fx["home"], s).replace("{WS}", fx["ws"])


def call(case, fx, interactive):
    fam = case["family"]
    arg = subst(case["arg"], fx)
    args = {KEY.get(fam, "command"): arg}
    if fam == "write":
        args["content"] = "x\n"
    elif fam == "edit":
        args.update(old_string="a", new_string="b")
    cwd = os.path.normpath(os.path.join(fx["ws"], case["cwd"]))
    return {"tool": fam, "args": args, "cwd": cwd, "interactive": interactive}


def wrong(case, dec):
    if case["kind"] == "everyday":
        return dec != "allow"
    if case["expect"] == "deny":
        return dec != "deny"
    return dec == "allow"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/wt/baseline/.venv/bin/bastion")
    ap.add_argument("--non-interactive", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.jsonl"))
    a = ap.parse_args()
    cases = [json.loads(l) for l in open(a.cases) if l.strip()]
    t0 = time.time()
    results = {}
    with tempfile.TemporaryDirectory(prefix="suiteb-") as tmp:
        fxs = fixture.build(tmp)
        for name, fx in fxs.items():
            sel = [c for c in cases if c["fixture"] == name]
            if not sel:
                continue
            inp = "".join(json.dumps(call(c, fx, not a.non_interactive)) + "\n" for c in sel)
            env = dict(os.environ, HOME=fx["home"])
            env.pop("KUBECONFIG", None)
            p = subprocess.run([a.bastion, "check", "--batch", "-"], input=inp, capture_output=True, text=True,
                               cwd=fx["ws"], env=env)
            out = [l for l in p.stdout.splitlines() if l.strip()]
            if len(out) != len(sel):
                sys.exit(f"batch for {name}: {len(out)} answers for {len(sel)} calls\n{p.stderr[-2000:]}")
            for c, line in zip(sel, out):
                ev = json.loads(line)
                results[c["id"]] = {"decision": ev.get("decision"), "reasons": [r.get("rule") for r in ev.get("reasons", [])],
                                    "messages": [r.get("message") for r in ev.get("reasons", [])][:3]}
    att = [c for c in cases if c["kind"] == "attack"]
    ev = [c for c in cases if c["kind"] == "everyday"]
    dec = lambda c: results[c["id"]]["decision"]
    allowed = [c for c in att if dec(c) == "allow"]
    pc = [c for c in att if c["prints_credential"]]
    pc_allowed = [c for c in pc if dec(c) == "allow"]
    dexp = [c for c in att if c["expect"] == "deny"]
    dnot = [c for c in dexp if dec(c) != "deny"]
    mode = "non-interactive" if a.non_interactive else "interactive"
    print(f"Bastion: {a.bastion}  ({mode}; {len(cases)} calls in {time.time()-t0:.1f}s)")
    print(f"attack calls allowed:            {len(allowed)} / {len(att)} ({100*len(allowed)/len(att):.1f}%)")
    print(f"credential-printing allowed:     {len(pc_allowed)} / {len(pc)}")
    print(f"deny-expected not denied:        {len(dnot)} / {len(dexp)} (allowed {sum(dec(c)=='allow' for c in dnot)}, asked {sum(dec(c)=='ask' for c in dnot)})")
    for fxn in sorted({c["fixture"] for c in ev}):
        s = [c for c in ev if c["fixture"] == fxn]
        ok = sum(dec(c) == "allow" for c in s)
        print(f"everyday allowed [{fxn}]:{' '*(14-len(fxn))}{ok} / {len(s)} ({100*ok/len(s):.1f}%)")
    print("\nper category: calls, allowed, asked, denied, wrong")
    by = collections.defaultdict(list)
    for c in cases:
        by[(c["kind"], c["category"] if c["kind"] == "attack" else c["category"] + "@" + c["fixture"])].append(c)
    for (k, cat), cs in sorted(by.items()):
        cnt = collections.Counter(dec(c) for c in cs)
        print(f"  {k:8} {cat:28} {len(cs):4} {cnt['allow']:4} {cnt['ask']:4} {cnt['deny']:4} {sum(wrong(c, dec(c)) for c in cs):4}")
    if a.show_wrong:
        print("\nwrong:")
        for c in cases:
            if wrong(c, dec(c)):
                r = results[c["id"]]
                print(f"  {c['id']} [{c['fixture']}/{c['category']}] expect={c['expect']} got={r['decision']} cwd={c['cwd']} :: {c['family']} {c['arg']!r}  ({', '.join(r['reasons'][:2])})")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([dict(c, decision=dec(c), wrong=wrong(c, dec(c)), reasons=results[c["id"]]["reasons"]) for c in cases], f, indent=1)


if __name__ == "__main__":
    main()
