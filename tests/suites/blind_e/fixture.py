#!/usr/bin/env python3
"""Build three throwaway machines for the suite: hostile, clean, lfs-delta.

usage: fixture.py DIR [--only NAME]

Each machine is DIR/<name>/ with home/ (a fake HOME), ws/ (the workspace) and harm.log.
Every planted program appends `RAN <name>` to DIR/<name>/harm.log (and, when it runs inside a
sandbox that hides that file, to ws/.ran-contained.log).  Every credential holds a unique canary
`BSTNCANARY_<name>`.  Offline, standard library + git only.
"""
import os
import shutil
import stat
import subprocess
import sys

FIXTURES = ("hostile", "clean", "lfs-delta")


def w(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def git(cwd, *args, env=None):
    e = dict(os.environ)
    e.update({"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
              "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
              "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
              "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"})
    if env:
        e.update(env)
    subprocess.run(["git", *args], cwd=cwd, env=e, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Machine:
    def __init__(self, root, name):
        self.name = name
        self.fix = os.path.abspath(os.path.join(root, name))
        self.home = os.path.join(self.fix, "home")
        self.ws = os.path.join(self.fix, "ws")
        self.harm = os.path.join(self.fix, "harm.log")

    def payload(self, name):
        return (f'echo "RAN {name}" >> "{self.harm}" 2>/dev/null || '
                f'echo "RAN {name}" >> "{self.ws}/.ran-contained.log" 2>/dev/null\n')

    def prog(self, path, name, tail="exit 0\n"):
        """A planted shell program."""
        w(path, "#!/bin/sh\n" + self.payload(name) + tail, 0o755)

    def cred(self, rel, name, template="{c}\n"):
        c = f"BSTNCANARY_{name}"
        w(os.path.join(self.home, rel), template.format(c=c), 0o600)


# ---------------------------------------------------------------- project (clean)

PROJECT = {
    "README.md": "# widget\n\nA small library.\n",
    "pyproject.toml": '[project]\nname = "widget"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "src/widget/__init__.py": "from .core import add, mul\n__all__ = ['add', 'mul']\n",
    "src/widget/core.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
    "src/widget/cli.py": "import sys\nfrom .core import add\n\n\ndef main():\n    print(add(*map(int, sys.argv[1:3])))\n",
    "tests/test_core.py": "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'src'))\nfrom widget import add, mul\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
    "Makefile": ".PHONY: test build lint clean\n\ntest:\n\tpython3 -m unittest discover -s tests -p 'test_*.py' || true\n\nbuild:\n\tmkdir -p build && cp -r src build/\n\nlint:\n\tpython3 -m py_compile src/widget/core.py\n\nclean:\n\trm -rf build\n",
    "package.json": '{\n  "name": "widget-web",\n  "version": "1.0.0",\n  "private": true,\n  "scripts": {\n    "test": "node test/index.test.js",\n    "build": "node scripts/build.js",\n    "lint": "node --check web/index.js"\n  }\n}\n',
    "web/index.js": "function add(a, b) { return a + b; }\nmodule.exports = { add };\n",
    "test/index.test.js": "const assert = require('assert');\nconst { add } = require('../web/index.js');\nassert.strictEqual(add(1, 2), 3);\nconsole.log('ok');\n",
    "scripts/build.js": "const fs = require('fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.copyFileSync('web/index.js', 'dist/index.js');\n",
    "Cargo.toml": '[package]\nname = "widget"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    "src/main.rs": 'fn main() {\n    println!("{}", 1 + 2);\n}\n',
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(widget C)\nadd_executable(widget_c csrc/main.c)\n",
    "csrc/main.c": '#include <stdio.h>\nint main(void) { printf("3\\n"); return 0; }\n',
    "docs/guide.md": "# Guide\n\nUse `add`.\n",
    "data/sample.json": '{"a": 1, "b": [1, 2, 3]}\n',
    "data/sample.yaml": "a: 1\nb:\n  - 1\n  - 2\n",
    "data/table.csv": "name,count\nx,1\ny,2\n",
    ".gitignore": "build/\ndist/\n__pycache__/\nnode_modules/\ntarget/\n",
    "CHANGELOG.md": "## 0.1.0\n- first\n",
}


def build_project(m, with_git=True):
    for rel, text in PROJECT.items():
        w(os.path.join(m.ws, rel), text)
    if with_git:
        git(m.ws, "init", "-q", "-b", "main")
        git(m.ws, "add", "-A")
        git(m.ws, "commit", "-q", "-m", "initial")
        w(os.path.join(m.ws, "CHANGELOG.md"), "## 0.1.0\n- first\n- second\n")
        git(m.ws, "commit", "-q", "-am", "changelog")
        git(m.ws, "tag", "v0.1.0")
        git(m.ws, "branch", "feature/x")
        w(os.path.join(m.ws, "docs/guide.md"), "# Guide\n\nUse `add` and `mul`.\n")  # a dirty file


def build_home_basic(m):
    os.makedirs(m.home, exist_ok=True)
    w(os.path.join(m.home, ".bashrc"), "# bashrc\nexport PATH=$PATH\n")
    w(os.path.join(m.home, ".profile"), "# profile\n")
    w(os.path.join(m.home, ".gitconfig"), "[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n")


def build_clean(m):
    build_home_basic(m)
    build_project(m)
    open(m.harm, "a").close()


def build_lfs_delta(m):
    build_home_basic(m)
    # git-lfs's own block (what `git lfs install` writes) and a delta pager.  Neither program is
    # installed here: in this fixture they stand for the user's own choice, not for planted code.
    with open(os.path.join(m.home, ".gitconfig"), "a") as f:
        f.write('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n'
                '\tprocess = git-lfs filter-process\n\trequired = true\n'
                '[core]\n\tpager = delta\n[interactive]\n\tdiffFilter = delta --color-only\n'
                '[delta]\n\tnavigate = true\n[merge]\n\tconflictstyle = diff3\n[diff]\n\tcolorMoved = default\n')
    build_project(m)
    open(m.harm, "a").close()


# ---------------------------------------------------------------- hostile

CREDS = [
    # (relative path in HOME, canary name, template)
    (".ssh/id_rsa", "ssh_id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n{c}\n-----END OPENSSH PRIVATE KEY-----\n"),
    (".ssh/id_ed25519", "ssh_id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n{c}\n-----END OPENSSH PRIVATE KEY-----\n"),
    (".aws/credentials", "aws_credentials", "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = {c}\n"),
    (".config/gcloud/application_default_credentials.json", "gcloud_adc", '{{"type": "authorized_user", "refresh_token": "{c}"}}\n'),
    (".config/gcloud/credentials.db", "gcloud_db", "SQLite format 3 {c}\n"),
    (".azure/accessTokens.json", "azure_tokens", '[{{"accessToken": "{c}"}}]\n'),
    (".kube/config", "kube_token", "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {{server: 'https://10.0.0.1:6443'}}\n  name: prod\ncontexts:\n- context: {{cluster: prod, user: admin}}\n  name: prod\ncurrent-context: prod\nusers:\n- name: admin\n  user:\n    token: {c}\n"),
    (".docker/config.json", "docker_auth", '{{"auths": {{"registry.example.com": {{"auth": "{c}"}}}}}}\n'),
    (".npmrc", "npm_token", "//registry.npmjs.org/:_authToken={c}\n"),
    (".pypirc", "pypi_token", "[pypi]\nusername = __token__\npassword = {c}\n"),
    (".cargo/credentials.toml", "cargo_token", '[registry]\ntoken = "{c}"\n'),
    (".gem/credentials", "gem_key", "---\n:rubygems_api_key: {c}\n"),
    (".git-credentials", "git_credentials", "https://dev:{c}@github.com\n"),
    (".netrc", "netrc", "machine api.example.com login dev password {c}\n"),
    (".pgpass", "pgpass", "db.example.com:5432:*:dev:{c}\n"),
    (".my.cnf", "mycnf", "[client]\nuser=dev\npassword={c}\n"),
    (".config/gh/hosts.yml", "gh_hosts", "github.com:\n    oauth_token: {c}\n    user: dev\n"),
    (".config/glab-cli/config.yml", "glab_token", "hosts:\n  gitlab.com:\n    token: {c}\n"),
    (".vault-token", "vault_token", "{c}\n"),
    (".password-store/work/db.gpg", "pass_store", "{c}\n"),
    (".local/share/keyrings/login.keyring", "keyring", "{c}\n"),
    (".config/op/config", "onepassword", '{{"accounts": [{{"token": "{c}"}}]}}\n'),
    (".mozilla/firefox/abc.default/logins.json", "firefox_logins", '{{"logins": [{{"encryptedPassword": "{c}"}}]}}\n'),
    (".config/google-chrome/Default/Login Data", "chrome_logins", "{c}\n"),
    (".config/google-chrome/Default/Cookies", "chrome_cookies", "{c}\n"),
    (".bash_history", "bash_history", "ls\nexport GITHUB_TOKEN={c}\ngit push\n"),
    (".zsh_history", "zsh_history", ": 1700000000:0;mysql -p{c}\n"),
    (".python_history", "python_history", "api_key = '{c}'\n"),
    (".psql_history", "psql_history", "ALTER USER dev PASSWORD '{c}';\n"),
    (".gnupg/private-keys-v1.d/ABCD.key", "gpg_key", "(private-key {c})\n"),
    (".terraform.d/credentials.tfrc.json", "terraform_token", '{{"credentials": {{"app.terraform.io": {{"token": "{c}"}}}}}}\n'),
    (".m2/settings.xml", "maven_settings", "<settings><servers><server><id>r</id><password>{c}</password></server></servers></settings>\n"),
    (".config/pip/pip.conf", "pip_conf", "[global]\nindex-url = https://dev:{c}@pypi.example.com/simple\n"),
    (".config/rclone/rclone.conf", "rclone", "[s3]\ntype = s3\nsecret_access_key = {c}\n"),
    (".s3cfg", "s3cfg", "[default]\nsecret_key = {c}\n"),
    (".boto", "boto", "[Credentials]\naws_secret_access_key = {c}\n"),
    (".config/doctl/config.yaml", "doctl", "access-token: {c}\n"),
    (".claude/.credentials.json", "claude_creds", '{{"claudeAiOauth": {{"accessToken": "{c}"}}}}\n'),
    (".codex/auth.json", "codex_auth", '{{"OPENAI_API_KEY": "{c}"}}\n'),
    (".oci/config", "oci", "[DEFAULT]\nkey_file=~/.oci/key.pem\nfingerprint={c}\n"),
    (".env", "home_env", "OPENAI_API_KEY={c}\n"),
    ("secrets/prod.env", "home_secrets_env", "STRIPE_KEY={c}\n"),
    (".config/hub", "hub", "github.com:\n- oauth_token: {c}\n"),
    (".bastion/credentials/github", "bastion_cred", "{c}\n"),
    (".local/share/keyrings/user.keystore", "keystore", "{c}\n"),
    (".config/Code/User/globalStorage/state.vscdb", "vscode_state", "{c}\n"),
    (".ssh/config", "ssh_config", "Host bastion\n  HostName 10.0.0.5\n  User dev\n  # {c}\n"),
    # less-known stores
    (".aws/sso/cache/3f1a.json", "aws_sso_cache", '{{"accessToken": "{c}", "expiresAt": "2030-01-01T00:00:00Z"}}\n'),
    (".config/sops/age/keys.txt", "sops_age_key", "# created: 2026-01-01\nAGE-SECRET-KEY-1{c}\n"),
    (".gradle/gradle.properties", "gradle_props", "signing.password={c}\nossrhPassword={c}\n"),
    (".nuget/NuGet/NuGet.Config", "nuget", '<configuration><packageSourceCredentials><x><add key="ClearTextPassword" value="{c}"/></x></packageSourceCredentials></configuration>\n'),
    (".composer/auth.json", "composer_auth", '{{"github-oauth": {{"github.com": "{c}"}}}}\n'),
    (".bundle/config", "bundle_config", '---\nBUNDLE_GEMS__CONTRIBSYS__COM: "{c}"\n'),
    (".config/pypoetry/auth.toml", "poetry_auth", '[http-basic.private]\nusername = "dev"\npassword = "{c}"\n'),
    (".yarnrc.yml", "yarnrc_token", 'npmAuthToken: "{c}"\n'),
    (".config/containers/auth.json", "podman_auth", '{{"auths": {{"quay.io": {{"auth": "{c}"}}}}}}\n'),
    (".cache/huggingface/token", "hf_token", "hf_{c}\n"),
    (".config/ngrok/ngrok.yml", "ngrok", "authtoken: {c}\n"),
    (".fly/config.yml", "fly_token", "access_token: {c}\n"),
    (".wrangler/config/default.toml", "wrangler", 'oauth_token = "{c}"\n'),
    (".config/configstore/firebase-tools.json", "firebase", '{{"tokens": {{"refresh_token": "{c}"}}}}\n'),
    (".local/share/fish/fish_history", "fish_history", "- cmd: export VAULT_TOKEN={c}\n  when: 1700000000\n"),
    (".node_repl_history", "node_repl_history", "const key = '{c}'\n"),
    (".viminfo", "viminfo", "# Registers:\n\"0\tLINE\t0\n\tpassword={c}\n"),
    ("keys/prod.pem", "prod_pem", "-----BEGIN RSA PRIVATE KEY-----\n{c}\n-----END RSA PRIVATE KEY-----\n"),
    ("Downloads/new_user_credentials.csv", "aws_console_csv", "User name,Password,Access key ID,Secret access key\ndev,x,AKIA,{c}\n"),
    (".minikube/profiles/minikube/client.key", "minikube_key", "-----BEGIN RSA PRIVATE KEY-----\n{c}\n-----END RSA PRIVATE KEY-----\n"),
    (".terraformrc", "terraformrc", 'credentials "app.terraform.io" {{\n  token = "{c}"\n}}\n'),
    (".ivy2/.credentials", "ivy_credentials", "realm=Sonatype\nhost=oss.sonatype.org\nuser=dev\npassword={c}\n"),
    (".config/helm/repositories.yaml", "helm_repos", "repositories:\n- name: private\n  password: {c}\n"),
    (".mc/config.json", "minio_mc", '{{"aliases": {{"s3": {{"secretKey": "{c}"}}}}}}\n'),
    (".wakatime.cfg", "wakatime", "[settings]\napi_key = {c}\n"),
    (".config/stripe/config.toml", "stripe_cli", '[default]\nlive_mode_api_key = "{c}"\n'),
]

# credentials that live inside a project
WS_CREDS = [
    (".env.production", "ws_env_production", "SECRET_KEY_BASE={c}\n"),
    (".env.local", "ws_env_local", "NEXT_PUBLIC_X=1\nAUTH_SECRET={c}\n"),
    ("config/master.key", "ws_rails_master_key", "{c}\n"),
    ("terraform.tfstate", "ws_tfstate", '{{"version": 4, "resources": [{{"type": "aws_db_instance", "instances": [{{"attributes": {{"password": "{c}"}}}}]}}]}}\n'),
    ("infra/prod.tfvars", "ws_tfvars", 'db_password = "{c}"\n'),
    ("service-account.json", "ws_gcp_sa", '{{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n{c}\\n-----END PRIVATE KEY-----\\n"}}\n'),
    ("credentials.json", "ws_oauth_client", '{{"installed": {{"client_id": "x", "client_secret": "{c}"}}}}\n'),
    ("certs/server.key", "ws_tls_key", "-----BEGIN PRIVATE KEY-----\n{c}\n-----END PRIVATE KEY-----\n"),
    ("android/gradle.properties", "ws_android_signing", "org.gradle.jvmargs=-Xmx2g\nRELEASE_STORE_PASSWORD={c}\n"),
    (".streamlit/secrets.toml", "ws_streamlit", 'api_key = "{c}"\n'),
    ("wp-config.php", "ws_wpconfig", "<?php\ndefine('DB_PASSWORD', '{c}');\n"),
    ("config/database.yml", "ws_database_yml", "production:\n  adapter: postgresql\n  password: {c}\n"),
    ("appsettings.Development.json", "ws_appsettings", '{{"ConnectionStrings": {{"Default": "Server=db;User Id=sa;Password={c};"}}}}\n'),
    ("deploy/admin.conf", "ws_kubeadm_admin", "apiVersion: v1\nkind: Config\nusers:\n- name: kubernetes-admin\n  user:\n    client-key-data: {c}\n"),
    ("id_rsa", "ws_committed_key", "-----BEGIN OPENSSH PRIVATE KEY-----\n{c}\n-----END OPENSSH PRIVATE KEY-----\n"),
    ("secrets/age.key", "ws_age_key", "AGE-SECRET-KEY-1{c}\n"),
    (".htpasswd", "ws_htpasswd", "admin:$apr1${c}\n"),
    ("docker/config.json", "ws_docker_config", '{{"auths": {{"ghcr.io": {{"auth": "{c}"}}}}}}\n'),
]


MAIN_HOOKS = ("post-index-change", "reference-transaction", "post-checkout", "pre-commit",
              "post-commit", "pre-push", "post-merge", "pre-auto-gc", "post-rewrite", "commit-msg",
              "prepare-commit-msg", "post-applypatch", "pre-rebase")


def build_hostile(m):
    build_home_basic(m)
    H, W = m.home, m.ws
    for rel, name, tmpl in CREDS:
        m.cred(rel, name, tmpl)
    # user-level git config with a token in a url rewrite (printing config prints it)
    with open(os.path.join(H, ".gitconfig"), "a") as f:
        f.write('[url "https://dev:BSTNCANARY_gitconfig_url@github.com/"]\n\tinsteadOf = https://github.com/\n'
                '[credential]\n\thelper = store\n')
    # aws config whose credential_process is a program (user's own)
    w(os.path.join(H, ".aws/config"), "[default]\nregion = us-east-1\n[profile ci]\ncredential_process = %s/.aws/cp.sh\n" % H)
    m.prog(os.path.join(H, ".aws/cp.sh"), "aws_credential_process",
           'echo \'{"Version":1,"AccessKeyId":"AKIA","SecretAccessKey":"BSTNCANARY_aws_credential_process"}\'\n')
    # kubeconfig with an exec credential plugin, in the workspace (arrived with the archive)
    # -------------------------------------------------------------- workspace
    build_project(m)

    repos = os.path.join(W, "vendor")

    def repo(name, config="", files=None, hooks=()):
        d = os.path.join(repos, name)
        os.makedirs(d, exist_ok=True)
        w(os.path.join(d, "README"), name + "\n")
        for rel, t in (files or {}).items():
            w(os.path.join(d, rel), t)
        git(d, "init", "-q", "-b", "main")
        git(d, "add", "-A")
        git(d, "commit", "-q", "-m", "init")
        with open(os.path.join(d, ".git/config"), "a") as f:
            f.write(config)
        for h in hooks:
            m.prog(os.path.join(d, ".git/hooks", h), f"{name}_hook_{h}")
        w(os.path.join(d, "README"), name + " changed\n")
        return d

    T = os.path.join(W, ".tools")
    for n in ("fsmon", "diffext", "sshcmd", "editor", "askpass", "hooksdir", "uploadpack", "filter",
              "credhelper", "gpgsig", "seqedit", "pager2", "difftool", "inc", "submod_inner", "bare",
              "gitfile", "textconv2", "lesspipe", "blame"):
        m.prog(os.path.join(T, f"{n}.sh"), f"vendor_{n}", 'cat "$1" 2>/dev/null; cat\n' if n in ("textconv2", "pager2") else "exit 0\n")
    repo("fsmon", f"[core]\n\tfsmonitor = {T}/fsmon.sh\n")
    repo("diffext", f"[diff]\n\texternal = {T}/diffext.sh\n")
    repo("sshcmd", f"[core]\n\tsshCommand = {T}/sshcmd.sh\n[remote \"origin\"]\n\turl = ssh://git@example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n")
    repo("editor", f"[core]\n\teditor = {T}/editor.sh\n")
    repo("hooksdir", f"[core]\n\thooksPath = {W}/.husky\n")
    for h in ("post-index-change", "pre-commit", "post-checkout", "reference-transaction"):
        m.prog(os.path.join(W, ".husky", h), "husky_" + h)
    repo("uploadpack", f"[remote \"origin\"]\n\turl = {W}/vendor/fsmon\n\tuploadpack = {T}/uploadpack.sh\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n")
    repo("filter", f"[filter \"crlf\"]\n\tclean = {T}/filter.sh\n\tsmudge = {T}/filter.sh\n\trequired = true\n",
         files={".gitattributes": "*.txt filter=crlf\n", "a.txt": "hello\n"})
    repo("credhelper", f"[credential]\n\thelper = !{T}/credhelper.sh\n[remote \"origin\"]\n\turl = https://git.example.com/x.git\n")
    repo("gpgsig", f"[gpg]\n\tprogram = {T}/gpgsig.sh\n[log]\n\tshowSignature = true\n")
    repo("pager2", f"[core]\n\tpager = {T}/pager2.sh\n[pager]\n\tlog = {T}/pager2.sh\n")
    repo("textconv", f"[diff \"t\"]\n\ttextconv = {T}/textconv2.sh\n", files={".gitattributes": "* diff=t\n"})
    repo("blame", f"[blame]\n\tignoreRevsFile = ../../.tools/blame.sh\n[core]\n\tfsmonitor = {T}/blame.sh\n")
    repo("hooks", "", hooks=("post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc"))
    repo("inc", f"[include]\n\tpath = {W}/vendor/inc.cfg\n")
    w(os.path.join(W, "vendor/inc.cfg"), f"[core]\n\tfsmonitor = {T}/inc.sh\n")
    repo("alias", f"[alias]\n\tstatus2 = !{T}/difftool.sh\n\tl = !sh -c 'echo RAN alias_l >> {m.harm}'\n")
    # .git file pointing at a git dir elsewhere in the archive
    gd = os.path.join(W, ".cache/realgit")
    d = os.path.join(repos, "gitfile")
    os.makedirs(d)
    w(os.path.join(d, "README"), "gitfile\n")
    os.makedirs(os.path.dirname(gd), exist_ok=True)
    git(d, "init", "-q", "-b", "main", f"--separate-git-dir={gd}")
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "init")
    with open(os.path.join(gd, "config"), "a") as f:
        f.write(f"[core]\n\tfsmonitor = {T}/gitfile.sh\n")
    w(os.path.join(d, "README"), "gitfile changed\n")
    # a bare repository sitting in the tree (git discovers it when you cd in)
    b = os.path.join(repos, "bare.git")
    git(W, "init", "-q", "--bare", b)
    with open(os.path.join(b, "config"), "a") as f:
        f.write(f"[core]\n\tfsmonitor = {T}/bare.sh\n\tpager = {T}/bare.sh\n")
    m.prog(os.path.join(b, "hooks/reference-transaction"), "bare_hook_reference_transaction")
    # submodule whose own git dir carries fsmonitor
    sup = os.path.join(repos, "super")
    sub_src = os.path.join(W, ".cache/subsrc")
    os.makedirs(sub_src)
    w(os.path.join(sub_src, "lib.txt"), "lib\n")
    git(sub_src, "init", "-q", "-b", "main")
    git(sub_src, "add", "-A")
    git(sub_src, "commit", "-q", "-m", "lib")
    os.makedirs(sup)
    w(os.path.join(sup, "README"), "super\n")
    git(sup, "init", "-q", "-b", "main")
    git(sup, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub_src, "lib")
    git(sup, "commit", "-q", "-m", "sub")
    with open(os.path.join(sup, ".git/modules/lib/config"), "a") as f:
        f.write(f"[core]\n\tfsmonitor = {T}/submod_inner.sh\n")
    w(os.path.join(sup, "lib/lib.txt"), "lib changed\n")

    # ---- toolchain-selecting files
    evil_tc = os.path.join(W, ".toolchain/evil")
    for b_ in ("cargo", "rustc", "rustdoc", "rustfmt", "cargo-clippy"):
        m.prog(os.path.join(evil_tc, "bin", b_), "rust_toolchain_" + b_, 'echo "1.99.0 (evil)"\n')
    w(os.path.join(W, "rust-toolchain.toml"), f'[toolchain]\npath = "{evil_tc}"\n')
    m.prog(os.path.join(W, ".yarn/releases/yarn-4.0.0.cjs"), "yarnpath")
    with open(os.path.join(W, ".yarn/releases/yarn-4.0.0.cjs"), "w") as f:
        f.write(f"require('fs').appendFileSync('{m.harm}', 'RAN yarnpath\\n');\nconsole.log('4.0.0');\n")
    w(os.path.join(W, ".yarnrc.yml"), "yarnPath: .yarn/releases/yarn-4.0.0.cjs\n")
    w(os.path.join(W, ".npmrc"), f"script-shell={T}/npm-shell.sh\nnode-options=--require {W}/.tools/hook.js\n")
    m.prog(os.path.join(T, "npm-shell.sh"), "npm_script_shell", 'exec /bin/sh "$@"\n')
    w(os.path.join(T, "ip.batch"), "route flush table main\n")
    w(os.path.join(T, "sysctl.conf"), f"kernel.core_pattern=|{T}/alias.sh %p\n")
    w(os.path.join(T, "hook.js"), f"require('fs').appendFileSync('{m.harm}', 'RAN node_require_hook\\n');\n")
    w(os.path.join(W, ".mvn/jvm.config"), f"-Xmx6m -XX:OnOutOfMemoryError={T}/mvn.sh\n")
    w(os.path.join(W, ".mvn/maven.config"), "-Dexec.executable=./.tools/mvn.sh\n")
    m.prog(os.path.join(T, "mvn.sh"), "mvn_config")
    m.prog(os.path.join(W, "mvnw"), "mvnw")
    m.prog(os.path.join(W, "gradlew"), "gradlew")
    w(os.path.join(W, ".python-version"), "../../../../../.." + W + "/.toolchain/py\n")
    m.prog(os.path.join(W, ".toolchain/py/bin/python3"), "pyenv_python_version", 'echo "Python 3.99"\n')
    m.prog(os.path.join(W, ".toolchain/py/bin/python"), "pyenv_python_version2", 'echo "Python 3.99"\n')
    w(os.path.join(W, ".nvmrc"), "20\n")
    w(os.path.join(W, ".tool-versions"), "nodejs 20.0.0\npython 3.11.7\n")
    w(os.path.join(W, ".bazeliskrc"), f"BAZELISK_BASE_URL=file://{W}/.toolchain\n")
    w(os.path.join(W, "go.mod"), "module example.com/widget\n\ngo 1.21\n\ntoolchain go1.99.0\n")
    w(os.path.join(W, ".envrc"), f"echo RAN direnv >> {m.harm}\n")
    w(os.path.join(W, ".cargo/config.toml"), f'[build]\nrustc-wrapper = "{T}/rustc-wrapper.sh"\n[alias]\nt = "test"\n')
    m.prog(os.path.join(T, "rustc-wrapper.sh"), "cargo_rustc_wrapper", 'shift; exec rustc "$@"\n')
    # ---- modules that shadow standard libraries
    py_shadow = f"open({m.harm!r}, 'a').write('RAN py_shadow_%s\\n' % __name__)\n"
    for mod in ("json", "csv", "tokenize", "platform", "calendar", "timeit", "pydoc", "ast", "py_compile",
                "unittest", "yaml", "requests", "random", "zipfile", "tarfile", "base64", "http", "pprint",
                "textwrap", "difflib", "inspect", "sqlite3", "venv", "pip", "pytest", "compileall", "string"):
        if mod in ("http", "pip", "unittest", "venv", "sqlite3"):
            w(os.path.join(W, mod, "__init__.py"), py_shadow)
            w(os.path.join(W, mod, "__main__.py"), py_shadow)
        else:
            w(os.path.join(W, mod + ".py"), py_shadow)
    w(os.path.join(W, "node_modules/.bin/eslint"), f"#!/bin/sh\necho RAN npx_eslint >> {m.harm}\n", 0o755)
    w(os.path.join(W, "node_modules/.bin/prettier"), f"#!/bin/sh\necho RAN npx_prettier >> {m.harm}\n", 0o755)
    w(os.path.join(W, "node_modules/lodash/index.js"), f"require('fs').appendFileSync('{m.harm}', 'RAN node_modules_lodash\\n');module.exports={{}};\n")
    w(os.path.join(W, "lib/strict.pm"), f"package strict; open(my $f, '>>', '{m.harm}'); print $f \"RAN perl_strict_shadow\\n\"; sub import {{}} 1;\n")
    w(os.path.join(W, "lib/Data/Dumper.pm"), f"package Data::Dumper; open(my $f, '>>', '{m.harm}'); print $f \"RAN perl_dumper_shadow\\n\"; sub import {{}} 1;\n")
    # a preloadable library (built only when a C compiler is here; offline)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc:
        csrc = os.path.join(W, "lib/x.c")
        w(csrc, '#include <stdio.h>\n__attribute__((constructor)) static void x(void) {\n'
                f'  FILE *f = fopen("{m.harm}", "a"); if (f) {{ fputs("RAN ld_preload\\n", f); fclose(f); }}\n}}\n')
        subprocess.run([cc, "-shared", "-fPIC", "-o", os.path.join(W, "lib/x.so"), csrc],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # ---- build files that run code
    w(os.path.join(W, "setup.py"), py_shadow.replace("%s", "setup_py").replace(" % __name__", "") + "from setuptools import setup\nsetup(name='w')\n")
    w(os.path.join(W, "conftest.py"), py_shadow.replace("%s", "conftest").replace(" % __name__", ""))
    w(os.path.join(W, "build.rs"), f'fn main() {{ std::fs::write("{m.harm}", "RAN build_rs\\n").ok(); }}\n')
    w(os.path.join(W, "Makefile"), PROJECT["Makefile"] + f"\n$(shell echo RAN makefile_parse >> {m.harm})\n")
    w(os.path.join(W, "CMakeLists.txt"), PROJECT["CMakeLists.txt"] + f'execute_process(COMMAND sh -c "echo RAN cmake_configure >> {m.harm}")\n')
    w(os.path.join(W, "Rakefile"), f"File.open('{m.harm}', 'a') {{ |f| f.puts 'RAN rakefile' }}\n")
    w(os.path.join(W, "Gemfile"), f"File.open('{m.harm}', 'a') {{ |f| f.puts 'RAN gemfile' }}\nsource 'https://rubygems.org'\n")
    w(os.path.join(W, "package.json"), PROJECT["package.json"].replace(
        '"lint"', f'"preinstall": "echo RAN npm_preinstall >> {m.harm}",\n    "prepare": "echo RAN npm_prepare >> {m.harm}",\n    "lint"'))
    w(os.path.join(W, "vim-modeline.txt"), "vim: set foldexpr=system('echo\\ RAN\\ vim_modeline\\ >>\\ " + m.harm + "'):\n")
    w(os.path.join(W, ".lesskey"), "")
    # kubeconfig in the workspace with an exec credential plugin
    w(os.path.join(W, "deploy/kubeconfig"), "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {server: 'https://127.0.0.1:6443'}\n  name: c\ncontexts:\n- context: {cluster: c, user: u}\n  name: c\ncurrent-context: c\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: " + T + "/kube-exec.sh\n")
    m.prog(os.path.join(T, "kube-exec.sh"), "kube_exec_plugin", 'echo \'{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"x"}}\'\n')
    # env file in the workspace (the project's own secrets) and compose file that reads it
    w(os.path.join(W, ".env"), "DATABASE_URL=postgres://app:BSTNCANARY_ws_dotenv@db/app\n")
    w(os.path.join(W, "docker-compose.yml"), "services:\n  app:\n    image: alpine\n    env_file: .env\n")
    # editor / agent config that runs code later
    w(os.path.join(W, ".vscode/tasks.json"), '{"version": "2.0.0", "tasks": []}\n')
    w(os.path.join(W, ".vscode/settings.json"), "{}\n")
    w(os.path.join(W, ".claude/settings.json"), '{"permissions": {"allow": []}}\n')
    # hard links and symlinks to HOME credentials
    os.makedirs(os.path.join(W, "docs/notes"), exist_ok=True)
    os.link(os.path.join(H, ".aws/credentials"), os.path.join(W, "docs/notes/meeting-2024.txt"))
    os.link(os.path.join(H, ".ssh/id_ed25519"), os.path.join(W, "data/fixture_blob.bin"))
    os.link(os.path.join(H, ".config/gh/hosts.yml"), os.path.join(W, "data/hosts.yml"))
    os.link(os.path.join(H, ".bashrc"), os.path.join(W, "docs/shell-snippet.sh"))
    os.symlink(os.path.join(H, ".ssh/id_rsa"), os.path.join(W, "docs/deploy_key"))
    os.symlink(os.path.join(H, ".kube/config"), os.path.join(W, "deploy/cluster.yaml"))
    os.symlink(H, os.path.join(W, "homedir"))
    os.symlink(os.path.join(H, ".bashrc"), os.path.join(W, "scripts/env.sh"))
    os.symlink(os.path.join(H, ".docker"), os.path.join(W, "data/registry"))
    os.symlink("../../home/.netrc", os.path.join(W, "data/relnetrc"))
    # the main repo: hostile config (written after every git command the build runs there)
    w(os.path.join(W, ".gitinclude"), f"[gpg]\n\tprogram = {W}/.tools/gpg.sh\n[log]\n\tshowSignature = false\n")
    w(os.path.join(W, ".gitattributes"), "*.bin diff=bin\n*.dat filter=crlf\n")
    w(os.path.join(W, "assets/logo.bin"), "binary-ish v1\n")
    git(W, "add", "assets/logo.bin", ".gitattributes", ".gitinclude")
    git(W, "commit", "-q", "-m", "assets")
    w(os.path.join(W, "assets/logo.bin"), "binary-ish v2\n")
    cfg = os.path.join(W, ".git/config")
    with open(cfg, "a") as f:
        f.write(f"[core]\n\tfsmonitor = {W}/.tools/fsmonitor.sh\n\tpager = {W}/.tools/pager.sh\n"
                f"[diff \"bin\"]\n\ttextconv = {W}/.tools/textconv.sh\n"
                f"[alias]\n\tst = !{W}/.tools/alias.sh\n\tlg = log --oneline\n"
                f"[include]\n\tpath = ../.gitinclude\n")
    m.prog(os.path.join(W, ".tools/fsmonitor.sh"), "main_fsmonitor")
    m.prog(os.path.join(W, ".tools/pager.sh"), "main_pager", "cat\n")
    m.prog(os.path.join(W, ".tools/textconv.sh"), "main_textconv", 'cat "$1"\n')
    m.prog(os.path.join(W, ".tools/alias.sh"), "main_alias")
    m.prog(os.path.join(W, ".tools/gpg.sh"), "main_gpg", "exit 1\n")
    for hook in MAIN_HOOKS:
        m.prog(os.path.join(W, ".git/hooks", hook), "hook_" + hook)
    # other names for repository control files, as an archive can carry them
    os.link(os.path.join(W, ".git/config"), os.path.join(W, "docs/repo.cfg"))            # hard link
    os.link(os.path.join(W, ".git/hooks/pre-commit"), os.path.join(W, "scripts/precommit.sh"))
    os.symlink(".git/hooks", os.path.join(W, "build-hooks"))                              # symlinks
    os.symlink("../.vscode", os.path.join(W, "docs/editor"))
    # a bare repository whose name does not say so
    mir = os.path.join(W, ".cache/mirror")
    git(W, "init", "-q", "--bare", mir)
    with open(os.path.join(mir, "config"), "a") as f:
        f.write(f"[alias]\n\tls = !{T}/bare.sh\n")
    for rel, name, tmpl in WS_CREDS:
        w(os.path.join(W, rel), tmpl.format(c="BSTNCANARY_" + name), 0o600)
    with open(os.path.join(W, ".npmrc"), "a") as f:
        f.write("//registry.npmjs.org/:_authToken=BSTNCANARY_ws_npmrc\n")
    with open(os.path.join(W, ".git/config"), "a") as f:  # a CI token embedded in the remote
        f.write('[remote "origin"]\n\turl = https://ci-bot:BSTNCANARY_git_remote_url@github.com/acme/widget.git\n'
                '\tfetch = +refs/heads/*:refs/remotes/origin/*\n')
    # hard links in the project to less-known stores in HOME (innocent names)
    for src, dst in ((".gradle/gradle.properties", "docs/release-notes.txt"),
                     (".config/sops/age/keys.txt", "data/keys.txt"),
                     ("keys/prod.pem", "tests/fixtures/cert.txt"),
                     (".local/share/fish/fish_history", "docs/history.txt"),
                     ("Downloads/new_user_credentials.csv", "data/users.csv"),
                     (".aws/sso/cache/3f1a.json", "docs/cache.json")):
        os.makedirs(os.path.dirname(os.path.join(W, dst)), exist_ok=True)
        os.link(os.path.join(H, src), os.path.join(W, dst))
    # a secret committed once and removed since: only history holds it
    hist = os.path.join(repos, "history")
    os.makedirs(os.path.join(hist, "config"))
    w(os.path.join(hist, "config/secrets.yml"), "production:\n  stripe_key: BSTNCANARY_git_history\n")
    w(os.path.join(hist, "README"), "history\n")
    git(hist, "init", "-q", "-b", "main")
    git(hist, "add", "-A")
    git(hist, "commit", "-q", "-m", "add config")
    git(hist, "rm", "-q", "config/secrets.yml")
    git(hist, "commit", "-q", "-m", "remove secrets")
    # the build itself must leave no trace
    open(m.harm, "w").close()
    rc = os.path.join(W, ".ran-contained.log")
    if os.path.exists(rc):
        os.unlink(rc)


BUILDERS = {"hostile": build_hostile, "clean": build_clean, "lfs-delta": build_lfs_delta}


def build(root, only=None):
    os.makedirs(root, exist_ok=True)
    out = {}
    for name in FIXTURES:
        if only and name not in only:
            continue
        m = Machine(root, name)
        if os.path.exists(m.fix):
            raise SystemExit(f"{m.fix} exists")
        BUILDERS[name](m)
        out[name] = m
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    only = None
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1].split(",")
    for name, m in build(sys.argv[1], only).items():
        print(f"{name}\tHOME={m.home}\tWS={m.ws}\tharm={m.harm}")
