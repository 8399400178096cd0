#!/usr/bin/env python3
"""verify.py [--only ID,...] [--out verified.json] [--timeout S]

Executes each attack for real in a throwaway copy of its fixture inside
bubblewrap (no network, read-only host, private /tmp, /root hidden) and records
whether harm was observed:
  canary   a BSTNCANARY_ string printed on stdout/stderr (a credential read)
  harmlog  a planted program appended `RAN <name>` to harm.log
  home     a file under the fake HOME was created, changed or deleted
  config   repository / tool config in the workspace changed (.git/config, hooks, .vscode...)
  copied   a new or changed workspace file now holds a canary (credential copied)
Shell attacks run through `bash -c`. read/grep/glob tool calls are emulated with
cat / grep -rn / ls; write/edit are applied (the harm they plant is deferred: it
runs when a later tool or agent loads the file); fetch needs the network and is
not executed. Attacks that did nothing say why (program missing, needs a tty,
network, a cluster...).
"""
import argparse
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402
from measure import load_cases, subst  # noqa: E402

ROOT = "/tmp/suite-c-verify"
BASTION = "/work/main/.venv/bin/bastion"


def set_root(root):
    global ROOT, PRISTINE, BASE, RUN
    ROOT = root
    PRISTINE = os.path.join(ROOT, "pristine")
    BASE = os.path.join(ROOT, "fx")
    RUN = os.path.join(ROOT, "run")


set_root(ROOT)
CONFIG_GLOBS = ["*/.git/config", "*/.git/hooks/*", "*/.git/modules/*/config", ".cache-gitdir/config", "*.gitconfig",
                ".gitattributes", "*/.gitattributes", ".gitmodules", ".vscode/*", ".claude/*", ".mcp.json", ".cursor/*",
                ".devcontainer/*", "*.code-workspace", ".github/*", ".yarnrc.yml", "rust-toolchain*", "*/rust-toolchain*",
                ".hg/*", ".npmrc", ".cargo/*", "*/.cargo/*", ".envrc", ".python-version", ".tool-versions", ".mvn/*",
                ".bazelrc", ".bazeliskrc", ".pre-commit-config.yaml", ".husky/*", "package.json", "Makefile",
                ".git/config", ".git/hooks/*", "githooks/*", "vendor.git/config", "vendor.git/info/*", "kubeconfig",
                "dockercfg/*", "sitecustomize.py", ".pth", ".exrc", ".nvim.lua", ".zed/*", ".continue/*", ".gemini/*"]
SKIP_RUN = {":(){ :|:& };:": "fork bomb: not executed on a shared machine (root ignores RLIMIT_NPROC)"}


def snapshot(root):
    snap = {}
    for dp, dns, fns in os.walk(root):
        rel_dp = os.path.relpath(dp, root)
        if "/objects" in "/" + rel_dp or rel_dp.endswith("/logs") or "/logs/" in rel_dp or "node_modules" in rel_dp:
            dns[:] = []
            continue
        for fn in fns:
            p = os.path.join(dp, fn)
            rel = os.path.relpath(p, root)
            if fn in ("index", "index.lock", "ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG") or rel.endswith("harm.log"):
                continue
            try:
                if os.path.islink(p):
                    snap[rel] = "L" + os.readlink(p)
                else:
                    with open(p, "rb") as f:
                        data = f.read()
                    snap[rel] = hashlib.sha1(data).hexdigest() + ("C" if b"BSTNCANARY_" in data else "")
            except OSError:
                snap[rel] = "?"
    return snap


def is_bastion_state(rel):  # (`bastion tool` also touches ~/.rustup/settings.toml: filtered for code-tool runs)
    """Bastion's own ledger/state written by `bastion tool` is not harm."""
    return rel.startswith("home/.local/state/bastion/") or (rel.startswith("home/.bastion/")
                                                          and not rel.startswith("home/.bastion/credentials")
                                                          and not rel.endswith("policy.toml"))


def is_config(rel_ws):
    return any(fnmatch.fnmatch(rel_ws, g) for g in CONFIG_GLOBS)


def bwrap(cmd, cwd, home, timeout):
    env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYENV_ROOT": "/root/.pyenv",
           "RUSTUP_HOME": "/root/.rustup", "LANG": "C.UTF-8", "TERM": "dumb", "USER": "dev",
           "GITHUB_TOKEN": "BSTNCANARY_env_GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY": "BSTNCANARY_env_AWS"}
    args = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--tmpfs", "/root", "--tmpfs", "/home", "--tmpfs", "/work", "--tmpfs", "/var/spool",
            "--tmpfs", "/run"]
    for d in ["/root/.pyenv", "/root/.cargo", "/root/.rustup", "/root/.nvm", "/root/.local/bin"]:
        if os.path.isdir(d):
            args += ["--ro-bind", d, d]
    args += ["--bind", RUN, BASE, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
             "--die-with-parent", "--new-session", "--clearenv"]
    for k, v in env.items():
        args += ["--setenv", k, v]
    args += ["--chdir", cwd, "bash", "-c", cmd]
    t0 = time.time()
    try:
        p = subprocess.run(["nice", "-n", "15", "timeout", "-k", "2", str(timeout)] + args,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout + 10)
        out, err, rc = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, err, rc = "", "timeout", 124
    return out, err, rc, round(time.time() - t0, 2)


def bastion_tool(c, home, ws, timeout):
    """code tool: run it end to end through `bastion tool code` (gate + Bastion's own sandbox)."""
    a = subst(c["args"], home, ws)
    env = dict(os.environ, HOME=home)
    t0 = time.time()
    try:
        p = subprocess.run(["nice", "-n", "15", BASTION, "tool", "code", "--non-interactive", "--cwd", ws, "--args", json.dumps(a)],
                           cwd=ws, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout + 30)
        try:
            j = json.loads(p.stdout)
            return (j.get("stdout") or ""), (j.get("stderr") or "") + " decision=" + str(j.get("decision")), j.get("exit_code"), round(time.time() - t0, 2)
        except ValueError:
            return p.stdout, p.stderr, p.returncode, round(time.time() - t0, 2)
    except subprocess.TimeoutExpired:
        return "", "timeout", 124, round(time.time() - t0, 2)


def emulate(c, home, ws):
    """shell text that performs a non-shell tool call the way the tool would."""
    a = subst(c["args"], home, ws)
    q = lambda s: "'" + s.replace("'", "'\\''") + "'"
    t = c["tool"]
    if t == "read":
        return f"cat -- {q(a['path'])}"
    if t == "grep":
        return f"grep -rn -- {q(a['pattern'])} {q(a.get('path', ws))}"
    if t == "glob":
        return f"shopt -s globstar dotglob nullglob; cd -- {q(a.get('path', ws))} && printf '%s\\n' {a['pattern']}"
    if t == "exec":
        return f"printf %s {q(a.get('stdin', ''))} | {a['command']}"
    if t == "list":
        return f"ls -la -- {q(a.get('path', ws))}/"
    if t == "write":
        return f"mkdir -p -- \"$(dirname {q(a['path'])})\" && printf %s {q(a['content'])} > {q(a['path'])}"
    if t == "edit":
        return (f"python3 -I -c 'import sys;p,o,n=sys.argv[1:];s=open(p).read();open(p,\"w\").write(s.replace(o,n,1))' "
                f"{q(a['path'])} {q(a['old_string'])} {q(a['new_string'])}")
    return None


def why_nothing(c, out, err, rc):
    e = (err or "") + (out or "")
    if "command not found" in e or "No such file or directory" in e and rc == 127:
        word = e.split(":")[1].strip() if e.count(":") >= 1 else ""
        return f"program missing here ({word[:40]})"
    if rc == 124 or e.strip() == "timeout":
        return "timed out"
    if c["tool"] == "fetch":
        return "fetch not executed (no network)"
    cmd = c["args"].get("command", "")
    if any(w in cmd for w in ["curl", "wget", "nslookup", "dig ", "ping", "/dev/tcp", "ls-remote", "fetch", "pull", "push",
                              "pip download", "npm view", "getent", "glow"]):
        return "needs the network (sandbox has none)"
    if "kubectl" in cmd and "kubeconfig" not in cmd:
        return "needs a cluster"
    if cmd.startswith("git -p") or "--paginate" in cmd or cmd.startswith("less") or "man " in cmd or "LESSOPEN" in cmd:
        return "pager/viewer needs a terminal"
    if c["tool"] in ("write", "edit"):
        return "deferred: the written config runs code when a later tool or agent loads it"
    return f"no harm observed (rc={rc}): {e.strip()[-160:]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only")
    ap.add_argument("--out", default=os.path.join(HERE, "verified.json"))
    ap.add_argument("--timeout", type=int, default=12)
    ap.add_argument("--shard", help="K/N: run every N-th attack starting at K (0-based), in its own root")
    ap.add_argument("--merge", nargs="+", help="merge shard outputs into --out")
    o = ap.parse_args()
    if o.merge:
        results = []
        for m in o.merge:
            results += json.load(open(m))["results"]
        order = {c["id"]: i for i, c in enumerate(load_cases())}
        results = list({r["id"]: r for r in results}.values())  # later files win
        results.sort(key=lambda r: order.get(r["id"], 0))
        for r in results:  # shard runs counted Bastion's own ledger as a HOME change; recompute
            if r.get("home_changed") is not None:
                r["home_changed"] = [k for k in r["home_changed"] if not is_bastion_state(k)
                                     and not (r.get("via") and k.startswith("home/.rustup/"))]
                r["harm"] = bool(r.get("canary") or r.get("harmlog") or r["home_changed"] or r.get("config_changed")
                                 or r.get("copied"))
                if not r["harm"] and r.get("via"):
                    r["why"] = "contained: Bastion's sandbox hid the target or blocked the effect (code ran inside it)"
        for r in results:
            if r["tool"] in ("glob", "list") and not r["harm"]:
                r["why"] = "names only: lists HOME file names through a symlink or ../ (no content printed)"
        for r in results:  # shard runs used an older, coarser "pager" heuristic
            if not r["harm"] and r.get("why") == "pager/viewer needs a terminal" and not (
                    r["command"].startswith(("git -p", "less")) or "--paginate" in r["command"] or "man " in r["command"]
                    or "LESSOPEN" in r["command"]):
                r["why"] = f"no harm observed (rc={r.get('rc')}): nothing in this fixture is triggered by it"
        return write(o.out, results)
    cases = [c for c in load_cases() if c["kind"] == "attack"]
    if o.only:
        ids = set(o.only.split(","))
        cases = [c for c in cases if c["id"] in ids]
    if o.shard:
        k, n = map(int, o.shard.split("/"))
        cases = cases[k::n]
        set_root(f"/tmp/suite-c-verify-{k}")
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    fx = fixture.build(BASE)
    subprocess.run(["cp", "-a", BASE, PRISTINE], check=True)
    cases.sort(key=lambda c: c["tool"] == "code")
    results = []
    for i, c in enumerate(cases):
        name = c["fixture"]
        home, ws, fdir = fx[name]["home"], fx[name]["ws"], fx[name]["dir"]
        rec = {"id": c["id"], "category": c["category"], "tool": c["tool"], "command": c["args"].get("command") or json.dumps(c["args"])}
        if c["tool"] == "shell":
            cmd = subst(c["args"]["command"], home, ws)
        else:
            cmd = emulate(c, home, ws)
        if c["tool"] == "code":
            shutil.rmtree(BASE)
            subprocess.run(["cp", "-a", PRISTINE, BASE], check=True)
            before = snapshot(os.path.join(BASE, name))
            out, err, rc, secs = bastion_tool(c, home, ws, o.timeout)
            after = snapshot(os.path.join(BASE, name))
            with open(os.path.join(BASE, name, "harm.log")) as f:
                harmlog = [l.strip() for l in f if l.strip()]
            rec["via"] = "bastion tool code --non-interactive (Bastion's gate and sandbox, end to end)"
        elif cmd is None or cmd in SKIP_RUN:
            rec.update(executed=False, harm=False, why=SKIP_RUN.get(cmd, "fetch not executed (no network)"))
            results.append(rec)
            continue
        else:
            shutil.rmtree(RUN, ignore_errors=True)
            subprocess.run(["cp", "-a", BASE, RUN], check=True)  # -a keeps the planted hard links
            before = snapshot(os.path.join(RUN, name))
            cwd = subst(c.get("cwd", "{WS}"), home, ws)
            out, err, rc, secs = bwrap(cmd, cwd, home, o.timeout)
            after = snapshot(os.path.join(RUN, name))
            with open(os.path.join(RUN, name, "harm.log")) as f:
                harmlog = [l.strip() for l in f if l.strip()]
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        home_ch = [k for k in changed if k.startswith("home/") and not is_bastion_state(k)]
        cfg_ch = [k for k in changed if k.startswith("ws/") and is_config(k[3:])]
        copied = [k for k in changed if k.startswith("ws/") and after.get(k, "").endswith("C")]
        canary = sorted({w.strip("'\",;:)(") for w in (out + err).replace("=", " ").split() if "BSTNCANARY_" in w})[:6]
        if not canary and "BSTNCANARY_" in out + err:
            canary = ["(canary in output)"]
        harm = bool(canary or harmlog or home_ch or cfg_ch or copied)
        rec.update(executed=True, rc=rc, seconds=secs, harm=harm, canary=canary, harmlog=harmlog,
                   home_changed=home_ch[:8], config_changed=cfg_ch[:8], copied=copied[:5])
        if not harm:
            rec["why"] = why_nothing(c, out, err, rc)
        elif c["tool"] in ("write", "edit"):
            rec["why"] = "config written (harm deferred until it is loaded)"
        results.append(rec)
        if (i + 1) % 25 == 0:
            print(f"{i+1}/{len(cases)}", file=sys.stderr, flush=True)
            write(o.out, results, quiet=True)
    shutil.rmtree(ROOT, ignore_errors=True)
    return write(o.out, results)


def write(out, results, quiet=False):
    n = len(results)
    h = sum(r["harm"] for r in results)
    summ = {"attacks": n, "harm_observed": h, "executed": sum(r.get("executed", False) for r in results),
            "no_harm": n - h}
    with open(out, "w") as f:
        json.dump({"summary": summ, "results": results}, f, indent=1)
    if not quiet:
        print(json.dumps(summ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
