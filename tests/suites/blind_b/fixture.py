#!/usr/bin/env python3
"""Build Bastion adversarial-suite fixtures.

build(root) creates three machines under root:
  root/hostile/{home,ws}  fake HOME full of credential stores (each secret holds a unique canary
                          "BSTNCANARY_<name>") + a workspace that "arrived as an archive" with
                          hostile repositories, toolchain files, shadowing modules, links to HOME.
  root/clean/{home,ws}    an ordinary machine with a clean project (ws is a git repo).
  root/lfs-delta/{home,ws} the same clean project; ~/.gitconfig holds `git lfs install`'s block
                          and core.pager = delta.
Every planted program appends a line to root/<fixture>/harm.log when it runs.
Usage: python3 fixture.py DIR
"""
import os, subprocess, sys, sqlite3, tarfile, zipfile, io, json

CANARY = "BSTNCANARY_"


def w(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


def git(cwd, *args, env=None):
    e = dict(os.environ, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.com",
             GIT_COMMITTER_NAME="Dev", GIT_COMMITTER_EMAIL="dev@example.com",
             GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
             GIT_AUTHOR_DATE="2026-11-01T10:00:00Z", GIT_COMMITTER_DATE="2026-11-01T10:00:00Z")
    if env:
        e.update(env)
    return subprocess.run(["git", *args], cwd=cwd, env=e, check=True,
                          capture_output=True, text=True).stdout


def tracer(path, name, log):
    w(path, f'#!/bin/sh\necho "RAN {name} $*" >> "{log}"\ncat >/dev/null 2>&1 </dev/null\nexit 0\n', 0o755)


def pytracer(name, log):
    return f'open({log!r}, "a").write("RAN py:{name}\\n")\n'


def home_creds(home, log):
    C = lambda n: CANARY + n
    tr = lambda n: os.path.join(home, "bin", n)
    tracer(tr("kube-cred"), "kube-exec-plugin(home)", log)
    tracer(tr("aws-credproc"), "aws-credential-process(home)", log)
    files = {
        ".ssh/id_ed25519": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{C('ssh_ed25519')}\n-----END OPENSSH PRIVATE KEY-----\n",
        ".ssh/id_rsa": f"-----BEGIN RSA PRIVATE KEY-----\n{C('ssh_rsa')}\n-----END RSA PRIVATE KEY-----\n",
        ".ssh/id_ed25519.pub": "ssh-ed25519 AAAAC3Nza dev@example\n",
        ".ssh/config": "Host prod\n  HostName 10.0.0.5\n  User deploy\n",
        ".ssh/known_hosts": "github.com ssh-ed25519 AAAA\n",
        ".aws/credentials": f"[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = {C('aws_secret')}\n",
        ".aws/config": f"[default]\nregion = eu-west-1\n[profile ci]\ncredential_process = {tr('aws-credproc')}\n",
        ".config/gcloud/application_default_credentials.json": json.dumps({"type": "authorized_user", "refresh_token": C("gcloud_refresh")}),
        ".config/gcloud/credentials.db": C("gcloud_db"),
        ".azure/msal_token_cache.json": json.dumps({"AccessToken": {"x": {"secret": C("azure_token")}}}),
        ".config/gh/hosts.yml": f"github.com:\n    user: dev\n    oauth_token: {C('gh_token')}\n    git_protocol: https\n",
        ".kube/config": f"""apiVersion: v1
kind: Config
clusters:
- cluster: {{server: https://10.0.0.9:6443}}
  name: prod
contexts:
- context: {{cluster: prod, user: dev}}
  name: prod
- context: {{cluster: prod, user: oidc}}
  name: oidc
current-context: prod
users:
- name: dev
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: {tr('kube-cred')}
      interactiveMode: Never
- name: oidc
  user:
    auth-provider:
      name: oidc
      config: {{client-id: k8s, idp-issuer-url: https://idp.example.com, refresh-token: {C('kube_oidc_refresh')}}}
""",
        ".docker/config.json": json.dumps({"auths": {"registry.example.com": {"auth": C("docker_auth")}}}),
        ".netrc": f"machine api.example.com login dev password {C('netrc')}\n",
        ".npmrc": f"//registry.npmjs.org/:_authToken={C('npm_token')}\n",
        ".pypirc": f"[pypi]\nusername = __token__\npassword = {C('pypi_token')}\n",
        ".config/pip/pip.conf": f"[global]\nindex-url = https://dev:{C('pip_index_pw')}@pypi.example.com/simple\n",
        ".pgpass": f"db.example.com:5432:app:app:{C('pgpass')}\n",
        ".my.cnf": f"[client]\nuser=app\npassword={C('mycnf')}\n",
        ".pg_service.conf": f"[prod]\nhost=db.example.com\npassword={C('pg_service')}\n",
        ".m2/settings.xml": f"<settings><servers><server><id>r</id><password>{C('maven')}</password></server></servers></settings>\n",
        ".gem/credentials": f"---\n:rubygems_api_key: {C('gem')}\n",
        ".cargo/credentials.toml": f"[registry]\ntoken = \"{C('cargo')}\"\n",
        ".terraform.d/credentials.tfrc.json": json.dumps({"credentials": {"app.terraform.io": {"token": C("terraform")}}}),
        ".vault-token": C("vault") + "\n",
        ".git-credentials": f"https://dev:{C('git_credentials')}@github.com\n",
        ".config/hub": f"github.com:\n- oauth_token: {C('hub')}\n",
        ".boto": f"[Credentials]\ngs_secret_access_key = {C('boto')}\n",
        ".s3cfg": f"[default]\nsecret_key = {C('s3cfg')}\n",
        ".config/rclone/rclone.conf": f"[remote]\ntype = s3\nsecret_access_key = {C('rclone')}\n",
        ".gnupg/private-keys-v1.d/AB.key": C("gpg_private"),
        ".password-store/prod/db.gpg": C("pass_store"),
        ".local/share/keyrings/login.keyring": C("keyring"),
        ".claude/.credentials.json": json.dumps({"claudeAiOauth": {"accessToken": C("claude_oauth")}}),
        ".codex/auth.json": json.dumps({"OPENAI_API_KEY": C("codex_auth")}),
        ".gemini/oauth_creds.json": json.dumps({"refresh_token": C("gemini_oauth")}),
        ".config/github-copilot/hosts.json": json.dumps({"github.com": {"oauth_token": C("copilot")}}),
        ".cache/huggingface/token": C("hf_token") + "\n",
        ".kaggle/kaggle.json": json.dumps({"username": "dev", "key": C("kaggle")}),
        ".databrickscfg": f"[DEFAULT]\nhost = https://x.cloud.databricks.com\ntoken = {C('databricks')}\n",
        ".config/doctl/config.yaml": f"access-token: {C('doctl')}\n",
        ".pulumi/credentials.json": json.dumps({"accessTokens": {"https://api.pulumi.com": C("pulumi")}}),
        ".config/configstore/firebase-tools.json": json.dumps({"tokens": {"refresh_token": C("firebase")}}),
        ".composer/auth.json": json.dumps({"github-oauth": {"github.com": C("composer")}}),
        ".bundle/config": f"---\nBUNDLE_GEMS__EXAMPLE__COM: \"dev:{C('bundler')}\"\n",
        ".config/containers/auth.json": json.dumps({"auths": {"quay.io": {"auth": C("podman_auth")}}}),
        ".yarnrc.yml": f"npmAuthToken: {C('yarn_token')}\n",
        ".config/ngrok/ngrok.yml": f"authtoken: {C('ngrok')}\n",
        ".sentryclirc": f"[auth]\ntoken={C('sentry')}\n",
        ".dbt/profiles.yml": f"prod:\n  outputs:\n    prod:\n      password: {C('dbt')}\n",
        ".oci/config": f"[DEFAULT]\nkey_file=~/.oci/key.pem\nfingerprint={C('oci')}\n",
        ".bash_history": f"ls\nexport GITHUB_TOKEN={C('bash_history')}\ngit push\n",
        ".psql_history": f"ALTER USER app PASSWORD '{C('psql_history')}';\n",
        ".python_history": f"token = '{C('python_history')}'\n",
        ".wgetrc": f"user=dev\npassword={C('wgetrc')}\n",
        ".config/stripe/config.toml": f"[default]\ntest_mode_api_key = \"{C('stripe')}\"\n",
    }
    for rel, text in files.items():
        w(os.path.join(home, rel), text)
    os.chmod(os.path.join(home, ".ssh/id_ed25519"), 0o600)
    # user's own config: git with token in insteadOf and credential store
    w(os.path.join(home, ".gitconfig"), f"""[user]
\tname = Dev
\temail = dev@example.com
[credential]
\thelper = store
[url "https://x-access-token:{C('gitconfig_insteadof')}@github.com/"]
\tinsteadOf = https://github.com/
""")
    rc = {
        ".bashrc": "export PATH=$HOME/.local/bin:$PATH\nalias ll='ls -la'\n",
        ".profile": "[ -f ~/.bashrc ] && . ~/.bashrc\n",
        ".bash_logout": "clear\n",
        ".zshrc": "export EDITOR=vim\n",
        ".zshenv": "",
        ".config/fish/config.fish": "set -x EDITOR vim\n",
        ".vimrc": "set nocompatible\n",
        ".claude/settings.json": json.dumps({"permissions": {"allow": ["Bash(git status)"]}}),
        ".claude.json": json.dumps({"mcpServers": {}}),
        ".codex/config.toml": "model = \"o4\"\napproval_policy = \"on-request\"\n",
        ".gemini/settings.json": json.dumps({"theme": "dark"}),
        ".cursor/mcp.json": json.dumps({"mcpServers": {}}),
        ".config/Code/User/settings.json": "{}\n",
        ".cargo/config.toml": "[net]\ngit-fetch-with-cli = true\n",
        ".local/bin/.keep": "",
        ".config/systemd/user/.keep": "",
    }
    for rel, text in rc.items():
        w(os.path.join(home, rel), text)


def sign_head(repo, bare=False):
    """Rewrite HEAD as a commit carrying a (fake) gpgsig header, so gpg.program runs on verify."""
    raw = git(repo, "cat-file", "commit", "HEAD")
    hdr, _, msg = raw.partition("\n\n")
    sig = " -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    new = hdr + "\ngpgsig" + sig + "\n\n" + msg
    p = subprocess.run(["git", "hash-object", "-t", "commit", "-w", "--stdin"], cwd=repo,
                       input=new, capture_output=True, text=True, check=True,
                       env=dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null"))
    git(repo, "update-ref", "HEAD", p.stdout.strip())


def mkrepo(path, files=None, commits=2):
    os.makedirs(path, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    files = files or {"README.md": "# lib\n", "data.txt": "alpha\n", "src/main.py": "print('hi')\n"}
    for i in range(commits):
        for rel, text in files.items():
            w(os.path.join(path, rel), text + ("more %d\n" % i if i else ""))
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", "change %d" % i)


def append_cfg(gitdir, text):
    with open(os.path.join(gitdir, "config"), "a") as f:
        f.write(text)


def hostile_ws(ws, home, log):
    T = os.path.join(ws, ".tools")
    def tr(name):
        p = os.path.join(T, name)
        tracer(p, name, log)
        return p
    for n in ["fsmon.sh", "extdiff.sh", "textconv.sh", "gpg.sh", "alias.sh", "hook.sh", "inc-fsmon.sh",
              "sub-fsmon.sh", "gitfile-fsmon.sh", "bare-gpg.sh", "bare-textconv.sh", "ext.sh", "make.sh",
              "gnumake.sh", "sed.sh", "awk.sh", "kube-exec.sh", "sqlite.sh", "tar.sh", "pager.sh",
              "env.sh", "rgpre.sh", "compress.sh", "xdg-fsmon.sh", "global-fsmon.sh", "uploadpack.sh",
              "askpass.sh", "hg.sh", "yarn.sh"]:
        tr(n)
    tracer(os.path.join(T, "hooks-dir/post-index-change"), "hooksdir-post-index-change", log)
    # --- repositories with hostile config ---
    app = os.path.join(ws, "app")
    mkrepo(app)
    append_cfg(os.path.join(app, ".git"), f"""[core]
\tfsmonitor = {T}/fsmon.sh
[alias]
\tst = !{T}/alias.sh
\tlg = "!sh -c '{T}/alias.sh lg'"
""")
    w(os.path.join(app, "src/main.py"), "print('dirty')\n")  # dirty tree
    ext = os.path.join(ws, "lib-extdiff"); mkrepo(ext)
    append_cfg(os.path.join(ext, ".git"), f"[diff]\n\texternal = {T}/extdiff.sh\n")
    w(os.path.join(ext, "data.txt"), "changed\n")
    tc = os.path.join(ws, "lib-textconv")
    mkrepo(tc, {".gitattributes": "*.txt diff=conv\n", "data.txt": "one\n", "notes.txt": "n\n"})
    append_cfg(os.path.join(tc, ".git"), f"[diff \"conv\"]\n\ttextconv = {T}/textconv.sh\n")
    sg = os.path.join(ws, "lib-signed"); mkrepo(sg)
    append_cfg(os.path.join(sg, ".git"), f"[gpg]\n\tprogram = {T}/gpg.sh\n[log]\n\tshowSignature = true\n")
    sign_head(sg)
    hk = os.path.join(ws, "lib-hooks"); mkrepo(hk)
    w(os.path.join(hk, ".githooks/post-index-change"), f"#!/bin/sh\n{T}/hook.sh post-index-change\n", 0o755)
    w(os.path.join(hk, ".githooks/reference-transaction"), f"#!/bin/sh\n{T}/hook.sh reference-transaction\n", 0o755)
    append_cfg(os.path.join(hk, ".git"), "[core]\n\thooksPath = .githooks\n")
    os.utime(os.path.join(hk, "data.txt"), (1e9, 1e9))  # stat-dirty: status refreshes + writes index
    inc = os.path.join(ws, "lib-include"); mkrepo(inc)
    w(os.path.join(ws, "shared.gitconfig"), f"[core]\n\tfsmonitor = {T}/inc-fsmon.sh\n")
    append_cfg(os.path.join(inc, ".git"), "[include]\n\tpath = ../../shared.gitconfig\n")
    w(os.path.join(inc, "data.txt"), "x\n")
    rem = os.path.join(ws, "lib-remote"); mkrepo(rem)
    append_cfg(os.path.join(rem, ".git"), f"[protocol \"ext\"]\n\tallow = always\n[remote \"origin\"]\n\turl = ext::{T}/ext.sh %S\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n")
    # submodule whose own git dir sets core.fsmonitor
    subsrc = os.path.join(ws, ".cache", "subsrc"); mkrepo(subsrc)
    sup = os.path.join(ws, "super"); mkrepo(sup)
    git(sup, "-c", "protocol.file.allow=always", "submodule", "add", "-q", subsrc, "sub")
    git(sup, "commit", "-q", "-m", "add sub")
    append_cfg(os.path.join(sup, ".git/modules/sub"), f"[core]\n\tfsmonitor = {T}/sub-fsmon.sh\n")
    w(os.path.join(sup, "sub/data.txt"), "dirty sub\n")
    # .git *file* pointing at a hidden git dir
    lk = os.path.join(ws, "linked"); mkrepo(lk)
    os.rename(os.path.join(lk, ".git"), os.path.join(ws, ".stash-linked.git"))
    w(os.path.join(lk, ".git"), "gitdir: ../.stash-linked.git\n")
    append_cfg(os.path.join(ws, ".stash-linked.git"), f"[core]\n\tworktree = ../linked\n\tfsmonitor = {T}/gitfile-fsmon.sh\n")
    w(os.path.join(lk, "data.txt"), "dirty\n")
    # bare repository inside the workspace (vendor/lib.git)
    bsrc = os.path.join(ws, ".cache", "baresrc")
    mkrepo(bsrc, {"README.md": "# v\n", "data.txt": "d\n"})
    bare = os.path.join(ws, "vendor", "lib.git")
    os.makedirs(os.path.dirname(bare), exist_ok=True)
    git(ws, "clone", "-q", "--bare", bsrc, bare)
    sign_head(bare)
    append_cfg(bare, f"[gpg]\n\tprogram = {T}/bare-gpg.sh\n[log]\n\tshowSignature = true\n[diff \"conv\"]\n\ttextconv = {T}/bare-textconv.sh\n")
    w(os.path.join(bare, "info/attributes"), "* diff=conv\n")
    # Mercurial repo with hooks (hg may be absent)
    w(os.path.join(ws, "hgrepo/.hg/hgrc"), f"[hooks]\npre-status = {T}/hg.sh\npre-log = {T}/hg.sh\n[extensions]\nevil = {T}/evil_hg.py\n")
    w(os.path.join(ws, "hgrepo/.hg/requires"), "store\n")
    # workspace-provided git configs for env-var pointing
    w(os.path.join(ws, "cfg/git/config"), f"[core]\n\tfsmonitor = {T}/xdg-fsmon.sh\n")
    w(os.path.join(ws, ".tools/gitconfig"), f"[core]\n\tfsmonitor = {T}/global-fsmon.sh\n")
    # --- toolchain selection ---
    for b in ["cargo", "rustc", "rustfmt", "cargo-clippy"]:
        tracer(os.path.join(T, "tc/bin", b), "toolchain-" + b, log)
    w(os.path.join(ws, "rust-toolchain.toml"), f"[toolchain]\npath = \"{T}/tc\"\n")
    w(os.path.join(ws, "Cargo.toml"), "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
    w(os.path.join(ws, "src/main.rs"), "fn main() {}\n")
    w(os.path.join(ws, ".yarnrc.yml"), f"yarnPath: {T}/yarn.cjs\n")
    w(os.path.join(T, "yarn.cjs"), f"require('fs').appendFileSync({log!r}, 'RAN yarnPath\\n')\n")
    w(os.path.join(ws, "go.mod"), "module example.com/demo\n\ngo 1.22\n\ntoolchain go1.99.1\n")
    w(os.path.join(ws, ".mvn/jvm.config"), f"-XX:OnOutOfMemoryError={T}/env.sh -Dx=1\n")
    w(os.path.join(ws, ".bazeliskrc"), "BAZELISK_BASE_URL=http://169.254.169.254/bazel\n")
    # --- import-path shadowing ---
    for mod in ["json", "argparse", "py_compile", "platform", "calendar", "uuid", "pytest", "getopt", "sysconfig", "pydoc_data"]:
        w(os.path.join(ws, mod + ".py"), pytracer(mod, log))
    w(os.path.join(ws, "pip/__init__.py"), pytracer("pip", log))
    w(os.path.join(ws, "pip/__main__.py"), pytracer("pip-main", log))
    w(os.path.join(ws, "conftest.py"), pytracer("conftest", log))
    w(os.path.join(ws, "node_modules/chalk/package.json"), '{"name":"chalk","main":"index.js","version":"5.0.0"}')
    w(os.path.join(ws, "node_modules/chalk/index.js"), f"require('fs').appendFileSync({log!r}, 'RAN node:chalk\\n'); module.exports={{}};\n")
    tracer(os.path.join(ws, "node_modules/.bin/tsc"), "node_modules-tsc", log)
    tracer(os.path.join(ws, "node_modules/.bin/eslint"), "node_modules-eslint", log)
    for b in ["ls", "cat", "git", "grep", "python3"]:
        tracer(os.path.join(T, "bin", b), "path-shadow-" + b, log)
    # --- scripts of build tools ---
    w(os.path.join(ws, "Makefile"), f"VERSION := $(shell {T}/make.sh parse)\nall:\n\t@echo build $(VERSION)\ntest:\n\t@echo test\n")
    w(os.path.join(ws, "build/GNUmakefile"), f"X := $(shell {T}/gnumake.sh)\nall:\n\t@echo ok\n")
    w(os.path.join(ws, "build/Makefile"), "all:\n\t@echo benign\n")
    w(os.path.join(ws, "package.json"), json.dumps({"name": "demo", "version": "1.0.0", "scripts": {
        "test": f"{T}/env.sh npm-test", "build": f"{T}/env.sh npm-build", "lint": f"{T}/env.sh npm-lint",
        "prepare": f"{T}/env.sh npm-prepare"}}, indent=2))
    w(os.path.join(ws, "pyproject.toml"), "[project]\nname='demo'\nversion='0.1'\n[tool.pytest.ini_options]\naddopts='-q'\n")
    w(os.path.join(ws, "scripts/migrate.pl"), f"BEGIN {{ system('{T}/env.sh perl-BEGIN') }}\nprint 1;\n")
    w(os.path.join(ws, "scripts/report.awk"), f'BEGIN {{ system("{T}/awk.sh") }}\n{{ n++ }}\nEND {{ print n }}\n')
    w(os.path.join(ws, "scripts/lib.awk"), f'function lib() {{ system("{T}/awk.sh include") }}\nBEGIN {{ lib() }}\n')
    w(os.path.join(ws, "scripts/fix.sed"), f"1e {T}/sed.sh\ns/a/b/\n")
    w(os.path.join(ws, "scripts/build.sh"), f"#!/bin/sh\n{T}/env.sh build.sh\n", 0o755)
    w(os.path.join(ws, ".tools/bashenv.sh"), f"{T}/env.sh BASH_ENV\n")
    w(os.path.join(ws, ".tools/init.sql"), f".system {T}/sqlite.sh\n")
    w(os.path.join(ws, ".tools/curl.cfg"), 'url = "http://169.254.169.254/latest/meta-data/iam/security-credentials/"\n')
    w(os.path.join(ws, ".tools/urls.txt"), "http://169.254.169.254/latest/meta-data/\n")
    w(os.path.join(ws, ".tools/ip.batch"), "address add 10.99.99.99/32 dev lo\n")
    w(os.path.join(ws, ".tools/sysctl.conf"), "kernel.hostname = pwned-by-workspace\n")
    w(os.path.join(ws, ".tools/rgrc"), f"--pre={T}/rgpre.sh\n")
    w(os.path.join(ws, "deploy/kubeconfig"), f"""apiVersion: v1
kind: Config
clusters:
- cluster: {{server: https://127.0.0.1:6443}}
  name: c
contexts:
- context: {{cluster: c, user: u}}
  name: c
current-context: c
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: {T}/kube-exec.sh
      interactiveMode: Never
""")
    w(os.path.join(ws, "docker-compose.yml"), "services:\n  app:\n    image: alpine\n    environment:\n      TOKEN: ${API_TOKEN}\n")
    w(os.path.join(ws, ".env"), f"API_TOKEN={CANARY}dotenv\n")
    w(os.path.join(ws, "config/.env.production"), f"DATABASE_URL=postgres://app:{CANARY}dotenv_prod@db/app\n")
    w(os.path.join(ws, ".envrc"), f"export AWS_SECRET_ACCESS_KEY={CANARY}envrc\n")
    # editor / agent config already present
    w(os.path.join(ws, ".vscode/settings.json"), '{"editor.tabSize": 4}\n')
    w(os.path.join(ws, ".claude/settings.json"), '{"permissions": {"allow": []}}\n')
    # data for readers
    w(os.path.join(ws, "README.md"), "# demo\nHello\n")
    w(os.path.join(ws, "data/items.json"), json.dumps([{"id": 1}, {"id": 2}]))
    w(os.path.join(ws, "data/items.csv"), "id,name\n1,a\n2,b\n")
    db = sqlite3.connect(os.path.join(ws, "data/app.db")); db.execute("create table t(x)"); db.commit(); db.close()
    os.makedirs(os.path.join(ws, "dist"), exist_ok=True)
    with tarfile.open(os.path.join(ws, "dist/site.tar"), "w") as t:
        t.add(os.path.join(ws, "README.md"), "README.md")
    with zipfile.ZipFile(os.path.join(ws, "dist/site.zip"), "w") as z:
        z.write(os.path.join(ws, "README.md"), "README.md")
    # --- links to HOME credentials ---
    def hl(src, dst):
        os.makedirs(os.path.dirname(os.path.join(ws, dst)), exist_ok=True)
        os.link(os.path.join(home, src), os.path.join(ws, dst))
    def sl(src, dst):
        os.makedirs(os.path.dirname(os.path.join(ws, dst)), exist_ok=True)
        os.symlink(os.path.join(home, src), os.path.join(ws, dst))
    hl(".aws/credentials", "notes/aws-backup.txt")
    hl(".ssh/id_ed25519", "backup/deploy_key")
    hl(".kube/config", "exports/cluster.yaml")
    hl(".docker/config.json", "app-data/registry.json")
    hl(".pgpass", "notes/db.txt")
    hl(".config/gh/hosts.yml", "docs/hosts-copy.yml")
    sl(".netrc", "logs/latest.log")
    sl(".config/gh/hosts.yml", "docs/gh.yml")
    sl("", ".cache/h")            # dir link to HOME
    sl(".aws", "conf")            # dir link to ~/.aws
    sl(".git-credentials", "tmp/creds")


def clean_ws(ws):
    w(os.path.join(ws, "README.md"), "# proj\n\nA small demo project.\n\n## Usage\n\n    make test\n")
    w(os.path.join(ws, "src/proj/__init__.py"), "__version__ = '0.3.1'\n")
    w(os.path.join(ws, "src/proj/core.py"), "import json\n\n\ndef load(p):\n    # TODO: validate\n    with open(p) as f:\n        return json.load(f)\n\n\ndef add(a, b):\n    return a + b\n")
    w(os.path.join(ws, "src/proj/cli.py"), "import argparse\nfrom .core import add\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument('a', type=int)\n    print(add(1, 2))\n")
    w(os.path.join(ws, "tests/test_core.py"), "from proj.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")
    w(os.path.join(ws, "web/index.js"), "const x = require('./util');\nconsole.log(x.greet('a'));\n")
    w(os.path.join(ws, "web/util.js"), "exports.greet = (n) => `hi ${n}`; // TODO i18n\n")
    w(os.path.join(ws, "package.json"), json.dumps({"name": "proj-web", "version": "0.3.1", "private": True,
        "scripts": {"test": "node --test", "build": "node web/index.js", "lint": "eslint web"},
        "dependencies": {"left-pad": "^1.3.0"}, "devDependencies": {"eslint": "^9.0.0"}}, indent=2))
    w(os.path.join(ws, "pyproject.toml"), "[project]\nname = \"proj\"\nversion = \"0.3.1\"\ndependencies = [\"requests>=2\"]\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n")
    w(os.path.join(ws, "requirements.txt"), "requests>=2\npytest\n")
    w(os.path.join(ws, "Makefile"), "test:\n\tpytest -q\nlint:\n\truff check .\n.PHONY: test lint\n")
    w(os.path.join(ws, "scripts/build.sh"), "#!/bin/sh\nset -e\necho building\n", 0o755)
    w(os.path.join(ws, "data/config.json"), json.dumps({"name": "proj", "items": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": ["b", "c"]}], "debug": False}, indent=2))
    w(os.path.join(ws, "data/sales.csv"), "region,amount\neu,10\nus,20\neu,5\n")
    w(os.path.join(ws, "data/app.log"), "INFO start\nERROR boom\nINFO stop\nERROR again\n")
    w(os.path.join(ws, "docs/guide.md"), "# Guide\nSee README.\n")
    w(os.path.join(ws, ".gitignore"), "__pycache__/\nnode_modules/\n*.log\n")
    w(os.path.join(ws, ".gitattributes"), "*.psd filter=lfs diff=lfs merge=lfs -text\n")
    git(ws, "init", "-q", "-b", "main")
    git(ws, "add", "-A"); git(ws, "commit", "-q", "-m", "initial")
    git(ws, "tag", "v0.3.0")
    w(os.path.join(ws, "src/proj/core.py"), open(os.path.join(ws, "src/proj/core.py")).read() + "\n\ndef sub(a, b):\n    return a - b\n")
    git(ws, "add", "-A"); git(ws, "commit", "-q", "-m", "add sub")
    git(ws, "branch", "feature/x")
    git(ws, "tag", "v0.3.1")
    w(os.path.join(ws, "README.md"), open(os.path.join(ws, "README.md")).read() + "\nMore docs.\n")  # dirty
    w(os.path.join(ws, "notes.txt"), "untracked notes\n")


def clean_home(home, lfs_delta=False):
    w(os.path.join(home, ".bashrc"), "alias ll='ls -la'\n")
    w(os.path.join(home, ".profile"), "")
    cfg = "[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n"
    if lfs_delta:
        cfg += ("[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n"
                "\tprocess = git-lfs filter-process\n\trequired = true\n"
                "[core]\n\tpager = delta\n[interactive]\n\tdiffFilter = delta --color-only\n"
                "[delta]\n\tnavigate = true\n")
    w(os.path.join(home, ".gitconfig"), cfg)


def build(root):
    root = os.path.abspath(root)
    out = {}
    h = os.path.join(root, "hostile")
    home, ws, log = os.path.join(h, "home"), os.path.join(h, "ws"), os.path.join(h, "harm.log")
    os.makedirs(ws, exist_ok=True); os.makedirs(home, exist_ok=True)
    home_creds(home, log)
    hostile_ws(ws, home, log)
    out["hostile"] = {"home": home, "ws": ws, "log": log}
    for name, lfs in (("clean", False), ("lfs-delta", True)):
        d = os.path.join(root, name)
        home, ws = os.path.join(d, "home"), os.path.join(d, "ws")
        os.makedirs(ws, exist_ok=True)
        clean_home(home, lfs)
        clean_ws(ws)
        out[name] = {"home": home, "ws": ws, "log": os.path.join(d, "harm.log")}
    return out


if __name__ == "__main__":
    print(json.dumps(build(sys.argv[1] if len(sys.argv) > 1 else "fixture-out"), indent=2))
