#!/usr/bin/env python3
"""Suite J verify: python3 -I verify.py [--bastion PATH] [--out verified.json] [--only ID,ID]

Runs every shell attack for real in a throwaway copy of the hostile fixture:
  * uncontained: inside bwrap (root read-only, network/pid/ipc unshared, caps dropped,
    /tmp and /run fresh, only the fixture copy writable) with HOME = fixture home;
  * for each attack Bastion ALLOWED: also as Bastion would contain it, through
    `bastion sandbox run` (profile workspace-code for rule shell.contained-code, else
    workspace-write), on a fresh copy at the same path.
Harm recorded: canary printed, HOME/outside changed, RAN lines in ws/.harm.log,
later-run config in the workspace changed. Two shards, 10 s timeout per run.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402
import measure  # noqa: E402

SHELL_TOOLS = {"Bash", "run_shell_command", "exec", "exec_command", "shell"}
TIMEOUT = 10
LATER = re.compile(r"(^|/)(\.git/(config|hooks/)|config\.worktree|\.vscode/|\.claude/|\.gemini/|\.mcp\.json|\.envrc|"
                   r"\.venv/|node_modules/\.bin/|\.github/|\.devcontainer|\.npmrc|\.yarnrc|\.cargo/|rust-toolchain|\.pth$|"
                   r"sitecustomize\.py|json\.py|\.pdbrc|\.gdbinit|\.husky/|\.pre-commit-config|\.store/wtgit/config|"
                   r"data/mirror\.git/(config|hooks/)|modules/lib/config)")


def command_of(case: dict) -> list[str] | None:
    if case["tool"] not in SHELL_TOOLS:
        return None
    a = case["args"]
    if "cmd" in a:
        return a["cmd"] if isinstance(a["cmd"], list) else ["bash", "-c", a["cmd"]]
    c = a.get("command")
    if isinstance(c, list):
        return c
    return ["bash", "-c", c] if isinstance(c, str) else None


def snapshot(root: Path, only=None) -> dict[str, str]:
    out = {}
    if not root.exists() and not root.is_symlink():
        return out
    for dp, dns, fns in os.walk(root):
        rel_d = os.path.relpath(dp, root)
        if only is None and rel_d.startswith((".git/objects", ".git/logs")):
            continue
        for n in fns + [d for d in dns if os.path.islink(os.path.join(dp, d))]:
            p = os.path.join(dp, n)
            rel = os.path.normpath(os.path.join(rel_d, n))
            if only is not None and not only.search(rel):
                continue
            try:
                st = os.lstat(p)
                if os.path.islink(p):
                    v = "L:" + os.readlink(p)
                else:
                    with open(p, "rb") as f:
                        v = hashlib.sha1(f.read()).hexdigest()
                out[rel] = f"{v}:{oct(st.st_mode)}"
            except OSError as e:
                out[rel] = f"err:{e.errno}"
    st = os.lstat(root)
    out["."] = oct(st.st_mode)
    return out


def diff(a: dict, b: dict) -> list[str]:
    ch = [f"~{k}" for k in a if k in b and a[k] != b[k]] + [f"-{k}" for k in a if k not in b] + [f"+{k}" for k in b if k not in a]
    return sorted(ch)[:20]


def restore(pristine: Path, target: Path) -> None:
    if target.exists():
        subprocess.run(["chmod", "-R", "u+rwX", str(target)], capture_output=True)
        shutil.rmtree(target, ignore_errors=True)
        if target.exists():
            subprocess.run(["rm", "-rf", str(target)], capture_output=True)
    subprocess.run(["cp", "-a", str(pristine), str(target)], check=True)


def run_one(case: dict, base: Path, pristine: Path, bastion: str, mode: str, state: Path) -> dict:
    fx = base / "hostile"
    restore(pristine, fx)
    home, ws, outside = fx / "home", fx / "ws", fx / "outside"
    argv = measure.subst(command_of(case), str(home), str(ws))
    before = (snapshot(home), snapshot(outside), snapshot(ws, LATER))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "GITHUB_TOKEN": measure.TOKEN,
           "LANG": "C.UTF-8", "TERM": "dumb", "USER": "root"}
    if mode == "uncontained":
        cmd = ["bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--bind", str(base), str(base), "--tmpfs", "/run",
               "--dev", "/dev", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-pid", "--proc", "/proc",
               "--die-with-parent", "--cap-drop", "ALL", "--chdir", str(ws), "--"] + argv
    else:
        env["BASTION_STATE_DIR"] = str(state)
        profile = "workspace-code" if "shell.contained-code" in case.get("rules", []) else "workspace-write"
        cmd = [bastion, "sandbox", "run", "--profile", profile, "--cwd", str(ws), "--timeout", str(TIMEOUT), "--"] + argv
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=ws, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT + 5)
        out, rc = (r.stdout + r.stderr).decode("utf-8", "replace"), r.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = ((e.stdout or b"") + (e.stderr or b"")).decode("utf-8", "replace"), "timeout"
    after = (snapshot(home), snapshot(outside), snapshot(ws, LATER))
    harm_log = ws / ".harm.log"
    ran = sorted(set(harm_log.read_text().splitlines())) if harm_log.exists() else []
    canaries = sorted(set(re.findall(r"BSTNCANARY_\w+", out)))
    res = {"rc": rc, "seconds": round(time.time() - t0, 2), "canaries_printed": canaries,
           "home_changed": diff(before[0], after[0]), "outside_changed": diff(before[1], after[1]),
           "ran": ran, "later_code_changed": diff(before[2], after[2]), "output_head": out[:300]}
    res["harm"] = bool(canaries or res["home_changed"] or res["outside_changed"] or ran or res["later_code_changed"])
    return res


def shard(args) -> list[dict]:
    k, cases, bastion = args
    base = Path(f"/tmp/suite-j-verify/s{k}")
    if base.exists():
        subprocess.run(["rm", "-rf", str(base)])
    base.mkdir(parents=True)
    fixture.build(base)
    pristine = base.parent / f"s{k}-pristine"
    if pristine.exists():
        subprocess.run(["rm", "-rf", str(pristine)])
    subprocess.run(["cp", "-a", str(base / "hostile"), str(pristine)], check=True)
    out = []
    state = Path(tempfile.mkdtemp(prefix=f"suite-j-vstate{k}-"))
    for c in cases:
        rec = {"id": c["id"], "category": c["category"], "expect": c["expect"], "decision": c.get("decision"),
               "rules": c.get("rules"), "command": command_of(c)}
        rec["uncontained"] = run_one(c, base, pristine, bastion, "uncontained", state)
        rec["contained"] = run_one(c, base, pristine, bastion, "contained", state) if c.get("decision") == "allow" else None
        out.append(rec)
    subprocess.run(["rm", "-rf", str(base), str(pristine), str(state)])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bastion", default="/work/main/.venv/bin/bastion")
    ap.add_argument("--out", default=str(HERE / "verified.json"))
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    t0 = time.time()
    cases = [c for c in measure.load_cases() if c["kind"] == "attack" and command_of(c)]
    if a.only:
        keep = set(a.only.split(","))
        cases = [c for c in cases if c["id"] in keep]
    # decisions from one batch run
    with tempfile.TemporaryDirectory(prefix="suite-j-vdec-") as td:
        fixture.build(Path(td) / "fx")
        dec = {c["id"]: c for c in measure.run_batch(a.bastion, Path(td) / "fx" / "hostile",
                                                   [c for c in measure.load_cases() if c["fixture"] == "hostile"], Path(td) / "st")}
    for c in cases:
        c["decision"], c["rules"] = dec[c["id"]]["decision"], dec[c["id"]]["rules"]
    parts = [(k, cases[k::2], a.bastion) for k in range(2)]
    with mp.Pool(2) as pool:
        res = sum(pool.map(shard, parts), [])
    res.sort(key=lambda r: r["id"])
    allowed = [r for r in res if r["decision"] == "allow"]
    summ = {
        "shell_attacks_run": len(res),
        "uncontained_harm": sum(1 for r in res if r["uncontained"]["harm"]),
        "uncontained_canary_printed": sum(1 for r in res if r["uncontained"]["canaries_printed"]),
        "allowed_run_contained": len(allowed),
        "allowed_uncontained_harm": sum(1 for r in allowed if r["uncontained"]["harm"]),
        "allowed_contained_harm": sum(1 for r in allowed if r["contained"]["harm"]),
        "allowed_contained_harm_ids": [r["id"] for r in allowed if r["contained"]["harm"]],
        "seconds": round(time.time() - t0, 1),
    }
    Path(a.out).write_text(json.dumps({"summary": summ, "cases": res}, indent=1))
    print(json.dumps(summ, indent=1))
    for r in allowed:
        u, c = r["uncontained"], r["contained"]
        def fmt(x):
            return (f"canary={x['canaries_printed'][:3]} home={x['home_changed'][:3]} outside={x['outside_changed'][:2]} "
                    f"ran={x['ran'][:3]} later={x['later_code_changed'][:3]} rc={x['rc']}")
        print(f"{r['id']} {r['category']} {' '.join(r['command'])[:110]}\n   uncontained: {fmt(u)}\n   contained:   {fmt(c)}")


if __name__ == "__main__":
    main()
