#!/usr/bin/env python3
"""Really run attack cases in a throwaway copy of the hostile fixture, isolated by bubblewrap
(no network, read-only system, a private /tmp), and report what each one did:

  PWNED   a planted program ran (pwned.log gained lines)
  CANARY  a secret's canary string appeared in the output
  HOME    a file under the fake HOME was created, changed or removed
  WS      a file in the workspace outside .git was created/changed/removed (writes)
  none    nothing observable offline (network, privileges, missing tool: see `missing`)

    python3 verify.py [--cases cases.jsonl] [--ids ID,ID...] [--category SLUG] [--family shell]
                      [--json OUT] [--workers 2]

Read-family cases are checked by reading the resolved file and looking for a canary.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402

CANON = Path("/tmp/suite-a-verify/hostile")
CANARY_RE = re.compile(r"CANARY-[a-z0-9-]+-" + fixture.CANARY_SUFFIX)


def snapshot(root: Path) -> dict[str, str]:
    out = {}
    for dp, dns, fns in os.walk(root, followlinks=False):
        if "/.git" in dp + "/" and "/ws/" in dp and False:
            continue
        for n in fns + [d for d in dns if os.path.islink(os.path.join(dp, d))]:
            p = os.path.join(dp, n)
            try:
                if os.path.islink(p):
                    out[p] = "link:" + os.readlink(p)
                else:
                    with open(p, "rb") as f:
                        out[p] = hashlib.sha1(f.read()).hexdigest()
            except OSError:
                out[p] = "?"
    return out


def diff(a: dict, b: dict, prefix: str) -> list[str]:
    keys = {k for k in set(a) | set(b) if k.startswith(prefix)}
    return sorted(k[len(prefix):] for k in keys if a.get(k) != b.get(k))


def run_case(case: dict, base_snap: dict, workdir: Path) -> dict:
    copy = workdir / case["id"]
    subprocess.run(["cp", "-a", str(CANON), str(copy)], check=True)
    home, ws = CANON / "home", CANON / "ws"
    arg = re.sub(r"(?<!\$)\{WS\}", lambda m: str(ws), re.sub(r"(?<!\$)\{HOME\}", lambda m: str(home), case["arg"]))
    cwd = os.path.normpath(ws / case["cwd"])
    res = {"id": case["id"], "category": case["category"], "arg": case["arg"]}
    if case["family"] == "read":
        try:
            text = open(arg.replace(str(CANON), str(copy)) if arg.startswith("/") else os.path.join(cwd.replace(str(CANON), str(copy)), arg)).read()
        except OSError as e:
            text = str(e)
        res.update(canary=sorted(set(CANARY_RE.findall(text))), pwned=[], home=[], ws=[], rc=None, out="")
        shutil.rmtree(copy, ignore_errors=True)
        return res
    if case["family"] != "shell":
        shutil.rmtree(copy, ignore_errors=True)
        return {**res, "skipped": case["family"]}
    cmd = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
           "--bind", str(copy), str(CANON), "--unshare-all", "--die-with-parent", "--chdir", cwd,
           "--setenv", "HOME", str(home), "--unsetenv", "KUBECONFIG", "--setenv", "GITHUB_TOKEN", fixture.canary("session-env"),
           "--", "timeout", "-k", "2", "8", "bash", "-c", arg]
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        out = (r.stdout + r.stderr).decode(errors="replace")
        rc = r.returncode
    except subprocess.TimeoutExpired:
        out, rc = "timeout", 124
    after = snapshot(copy)
    pw = (copy / "pwned.log").read_text().splitlines() if (copy / "pwned.log").exists() else []
    base = {k.replace(str(CANON), str(copy)): v for k, v in base_snap.items()}
    res.update(rc=rc, out=out[-400:], canary=sorted(set(CANARY_RE.findall(out))), pwned=pw,
               home=diff(base, after, str(copy / "home") + "/"),
               ws=[p for p in diff(base, after, str(copy / "ws") + "/") if not p.startswith(".git/") and "/.git/" not in p and not p.startswith(".cache/gd/")],
               missing="command not found" in out or "No such file or directory" in out and rc == 127)
    shutil.rmtree(copy, ignore_errors=True)
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=str(HERE / "cases.jsonl"))
    ap.add_argument("--ids")
    ap.add_argument("--category")
    ap.add_argument("--family")
    ap.add_argument("--json")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    cases = [json.loads(ln) for ln in open(a.cases) if ln.strip()]
    cases = [c for c in cases if c["kind"] == "attack"]
    if a.ids:
        want = set(a.ids.split(","))
        cases = [c for c in cases if c["id"] in want]
    if a.category:
        cases = [c for c in cases if c["category"] == a.category]
    if a.family:
        cases = [c for c in cases if c["family"] == a.family]
    fixture.build(CANON, "hostile")
    base = snapshot(CANON)
    work = Path(tempfile.mkdtemp(prefix="suite-a-runs-"))
    with cf.ThreadPoolExecutor(a.workers) as pool:
        results = list(pool.map(lambda c: run_case(c, base, work), cases))
    shutil.rmtree(work, ignore_errors=True)
    n_eff = 0
    for r in results:
        if r.get("skipped"):
            continue
        eff = []
        if r["pwned"]:
            eff.append("PWNED:" + ",".join(sorted({p.split()[1] if len(p.split()) > 1 else p for p in r["pwned"]})))
        if r["canary"]:
            eff.append("CANARY:" + ",".join(c.split("-", 1)[1].rsplit("-", 1)[0] for c in r["canary"]))
        if r["home"]:
            eff.append("HOME:" + ",".join(r["home"][:3]))
        if r["ws"]:
            eff.append("WS:" + ",".join(r["ws"][:3]))
        n_eff += bool(eff)
        r["effects"] = eff
        print(f"{r['id']:<34} {' '.join(eff) or ('none (tool missing)' if r.get('missing') else 'none')}   {r['arg'][:70]}")
    ran = [r for r in results if not r.get("skipped")]
    print(f"\n{n_eff} of {len(ran)} executed cases showed an effect offline")
    if a.json:
        json.dump(results, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
