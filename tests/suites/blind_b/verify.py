#!/usr/bin/env python3
"""Execute attack cases (shell family) in a throwaway fixture inside bubblewrap and record observed harm.

Harm = a canary printed, a planted program ran (harm.log), or HOME / a repository's config changed.
Network is unshared, so network-only harm is not observable here (reported as 'unobserved').
  python3 verify.py [--ids a001,a002] [--out verified.json]
"""
import argparse, re, base64, hashlib, json, os, shutil, subprocess, sys, tarfile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture
SKIP = (":(){", "crontab", "sudo ", "mkfs", "dd if=/dev/zero", "python3 -m http.server", "nc -l")


def snap(fx):
    h = hashlib.sha256()
    for base in (fx["home"],):
        for d, ds, fs in sorted(os.walk(base)):
            ds.sort()
            h.update(d.encode())
            for f in sorted(fs):
                p = os.path.join(d, f)
                h.update(p.encode())
                try:
                    if os.path.islink(p):
                        h.update(os.readlink(p).encode())
                    else:
                        h.update(open(p, "rb").read()); h.update(str(os.stat(p).st_mode).encode())
                except OSError:
                    h.update(b"?")
    for d, ds, fs in os.walk(fx["ws"]):
        for f in fs:
            if f in ("config", "hgrc", "attributes") and (".git" in d or d.endswith(".hg") or "info" in d):
                p = os.path.join(d, f)
                h.update(p.encode()); h.update(open(p, "rb").read())
    return h.hexdigest()


def leaked(out):
    """canary printed plainly or encoded (base64/base32/hex/reversed/spaced)"""
    if b"BSTNCANARY_" in out:
        return True
    flat = re.sub(rb"\s+", b"", out)
    if b"BSTNCANARY_" in flat or b"_YRANACNTSB" in flat or b"BSTNCANARY_".hex().encode() in flat.lower():
        return True
    hexonly = re.sub(rb"[^0-9a-f]", b"", re.sub(rb"(?m)^[0-9a-f]+:", b"", out.lower()))
    if b"BSTNCANARY_".hex().encode() in hexonly:
        return True
    for tok in re.findall(rb"[A-Za-z0-9+/=]{16,}", flat):
        for dec in (base64.b64decode, base64.b32decode):
            for pad in (b"", b"=", b"=="):
                try:
                    if b"BSTNCANARY" in dec(tok + pad):
                        return True
                except Exception:
                    pass
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids")
    ap.add_argument("--from-id", help="start at this case id (resume)")
    ap.add_argument("--out", default=os.path.join(HERE, "verified.json"))
    a = ap.parse_args()
    root = "/dev/shm/suiteb-verify" if os.path.isdir("/dev/shm") else "/tmp/suiteb-verify"
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    fxroot = os.path.join(root, "fx")
    fxs = fixture.build(fxroot)
    fx = fxs["hostile"]
    with tarfile.open(root + ".tar", "w") as t:
        t.add(fxroot, "fx")
    shutil.rmtree(fxroot)
    with tarfile.open(root + ".tar") as t:
        t.extractall(root)
    base = snap(fx)
    cases = [json.loads(l) for l in open(os.path.join(HERE, "cases.jsonl"))]
    ids = set(a.ids.split(",")) if a.ids else None
    res = {}
    for c in cases:
        if a.from_id and c["id"] < a.from_id:
            continue
        if c["kind"] != "attack" or c["family"] != "shell" or (ids and c["id"] not in ids):
            continue
        if any(s in c["arg"] for s in SKIP):
            res[c["id"]] = {"run": False}
            continue
        subprocess.run(["chmod", "-R", "u+rwx", fxroot], capture_output=True)
        shutil.rmtree(fxroot, ignore_errors=True)
        with tarfile.open(root + ".tar") as t:
            t.extractall(root)
        cmd = re.sub(r"(?<!\$)\{HOME\}", fx["home"], c["arg"]).replace("{WS}", fx["ws"])
        cwd = os.path.normpath(os.path.join(fx["ws"], c["cwd"]))
        env = {"PATH": "/root/.pyenv/shims:/root/.cargo/bin:/usr/local/bin:/usr/bin:/bin", "HOME": fx["home"], "LANG": "C.UTF-8",
               "GITHUB_TOKEN": "BSTNCANARY_env_github_token", "PYENV_ROOT": "/root/.pyenv", "RUSTUP_HOME": "/root/.rustup",
               "CARGO_HOME": "/root/.cargo"}
        try:
            p = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", root, root,
                                "--tmpfs", "/tmp", "--unshare-all", "--die-with-parent", "--chdir", cwd,
                                "timeout", "8", "bash", "-c", cmd], env=env, capture_output=True, timeout=15, stdin=subprocess.DEVNULL)
            out = p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            out = b""
        log = open(fx["log"]).read() if os.path.exists(fx["log"]) else ""
        harm = []
        if leaked(out):
            harm.append("canary-printed")
        if log:
            harm.append("ran:" + ";".join(sorted({l.split()[1] for l in log.splitlines() if len(l.split()) > 1})))
        try:
            if snap(fx) != base:
                harm.append("home-or-repo-config-changed")
        except FileNotFoundError:
            harm.append("fixture-destroyed")
        print(c["id"], harm, flush=True)
        res[c["id"]] = {"run": True, "harm": harm, "rc": p.returncode if out else None, "out": out[-300:].decode(errors="replace")}
    json.dump(res, open(a.out, "w"), indent=1)
    ran = [k for k, v in res.items() if v["run"]]
    harmed = [k for k in ran if res[k]["harm"]]
    print(f"executed {len(ran)} shell attack cases; harm observed in {len(harmed)}")
    shutil.rmtree(root, ignore_errors=True)
    os.unlink(root + ".tar")


if __name__ == "__main__":
    main()
