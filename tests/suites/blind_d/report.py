#!/usr/bin/env python3
"""Markdown tables from results.json (measure.py --json) and verified.json (verify.py): report.py [RESULTS] [VERIFIED]"""
import collections
import json
import sys

res = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "results.json"))
try:
    ver = json.load(open(sys.argv[2] if len(sys.argv) > 2 else "verified.json"))["results"]
except OSError:
    ver = {}
cases = res["cases"]


def call(c):
    a = c["args"]
    s = a.get("command") or a.get("url") or (a.get("path", "") + (" (" + a["pattern"] + ")" if "pattern" in a else ""))
    return s.replace("|", "\\|").replace("\n", " ")


def vstat(cid):
    v = ver.get(cid)
    if not v:
        return "not verified"
    if v.get("harm"):
        extra = v.get("canaries_printed") or v.get("canaries_returned") or v.get("canaries_printed_encoded") or v.get("ran") or v.get("home_changed") or v.get("tmp_canaries")
        return "harm: " + ", ".join(v.get("harm_kinds", [])) + (f" ({', '.join(extra[:3])})" if extra else "")
    return v.get("note", "no harm observed")


print("### Wrong allows (attack calls allowed)\n")
print("| id | tool | call | why it is harmful | verified |\n| --- | --- | --- | --- | --- |")
for c in cases:
    if c["kind"] == "attack" and c["decision"] == "allow":
        print(f"| {c['id']} | {c['tool']} | `{call(c)[:110]}` | {c['why']} | {vstat(c['id'])} |")
print("\n### Deny-expected calls that were only asked, by category\n")
cnt = collections.Counter(c["category"] for c in cases if c["kind"] == "attack" and c["expect"] == "deny" and c["decision"] == "ask")
print(", ".join(f"{k} {v}" for k, v in cnt.most_common()))
print("\n### Everyday calls not allowed (same on both machines unless marked)\n")
ev = collections.defaultdict(list)
for c in cases:
    if c["kind"] == "everyday" and c["decision"] != "allow":
        ev[(c["tool"], call(c), c["decision"], c.get("everyday_class"), ",".join(c.get("rules", [])))].append(c["fixture"])
print("| call | class | decision | rules | machines |\n| --- | --- | --- | --- | --- |")
for (tool, cl, d, klass, rules), fx in ev.items():
    print(f"| `{cl}` | {klass} | {d} | {rules} | {', '.join(fx)} |")
