"""The knowledge base is data; every program in it classifies without errors, and programs
with both reading and non-reading forms have examples of each."""

from __future__ import annotations

import pytest

from bastion.call.effects import Effect
from bastion.shell.analysis import analyze
from bastion.shell.model import Access
from bastion.shell.programs.registry import FAMILIES, PROGRAMS
from bastion.shell.programs.spec import FlagRule
from bastion.shell.programs.wrappers import WRAPPERS

ALL = sorted(PROGRAMS)

# For each program with both kinds: (benign pure-reader example, non-benign example).
BOTH_KINDS: dict[str, tuple[str, str]] = {
    "git": ("git status", "git push"),
    "getent": ("getent passwd root", "getent hosts example.com"),
    "glow": ("glow README.md", "glow https://example.com/x.md"),
    "xmllint": ("xmllint --format x.xml", "xmllint --noent x.xml"),
    "ptx": ("ptx notes.txt", "ptx -G notes.txt index.txt"),
    "shuf": ("shuf -n 3 words.txt", "shuf -o words.txt words.txt"),
    "sed": ("sed -n 1p f", "sed -i s/a/b/ f"),
    "sort": ("sort f", "sort -o f f"),
    "find": ("find . -name x", "find . -delete"),
    "rg": ("rg x", "rg --pre sh x"),
    "systemctl": ("systemctl status x", "systemctl stop x"),
    "crontab": ("crontab -l", "crontab -r"),
    "history": ("history 20", "history -w notes.txt"),
    "iptables": ("iptables -L", "iptables -F"),
    "ip": ("ip addr", "ip link set x down"),
    "sysctl": ("sysctl -a", "sysctl -w a=1"),
    "kill": ("kill -l", "kill -9 -1"),
    "tar": ("tar tf a.tar", "tar xf a.tar"),
    "docker": (
        "docker --version",
        "docker ps",
    ),  # every other docker call talks to the daemon "ruff": ("ruff check", "ruff format"),
    "pip": ("pip --version", "pip list"),
    "npm": ("npm --version", "npm ls"),
    "cargo": ("cargo --version", "cargo tree"),
    "go": ("go version", "go build"),
    "python3": ("python3 --version", "python3 -c 1"),
    "node": ("node --version", "node x.js"),
    "awk": ("awk '{print}' f", "awk 'BEGIN{system(\"x\")}'"),
    "date": ("date", "date -s x"),
    "hostname": ("hostname", "hostname x"),
    "uniq": ("uniq a", "uniq a b"),
    "xxd": ("xxd a", "xxd a b"),
    "git-clean": ("git clean -n", "git clean -f"),
    "service": ("service x status", "service x stop"),
    "journalctl": ("journalctl", "journalctl --vacuum-size=1M"),
    "mount": ("mount", "mount /dev/x /mnt"),
    "gofmt": ("gofmt x.go", "gofmt -w x.go"),
    "ufw": ("ufw status", "ufw disable"),
    "helm": ("helm repo list", "helm install x y"),
    "echo": ("echo hi", "echo $GITHUB_TOKEN"),
    "printenv": ("printenv PATH", "printenv"),
    "env": ("env LC_ALL=C ls", "env"),
    "cat": ("cat f", "cat f > g"),
    "yq": ("yq .a f", "yq -i .a f"),
    # shell builtins that assign or evaluate (programs/builtins.py)
    "alias": ("alias", "alias ls='rm -rf ~'"),
    "compgen": ("compgen -c", "compgen -C 'rm x' w"),
    "declare": ("declare -f", "declare -x A=1"),
    "enable": ("enable -a", "enable -f x.so y"),
    "export": ("export LANG=C", "export PATH=/tmp"),
    "hash": ("hash -r", "hash -p /tmp/x ls"),
    "local": ("local -f", "local PATH=/tmp"),
    "mapfile": ("mapfile -t a", "mapfile -C 'rm x' a"),
    "read": ("read -r l", "read PATH"),
    "readarray": ("readarray -t a", "readarray -C 'rm x' a"),
    "readonly": ("readonly -f", "readonly PATH=/tmp"),
    "set": ("set -euo pipefail", "set -a"),
    "shopt": ("shopt -q extglob", "shopt -s expand_aliases"),
    "trap": ("trap -p", "trap 'rm -rf ~' EXIT"),
    "typeset": ("typeset -f", "typeset -x A=1"),
    "sha256sum": ("sha256sum f", "sha256sum -c sums"),
    "bat": ("bat f", "bat --pager=sh f"),
    "diff": ("diff -u a b", "diff -l a b"),
    "diff3": ("diff3 a b c", "diff3 --diff-program=x a b c"),
    "dmesg": ("dmesg -T", "dmesg -C"),
    "du": ("du -sh .", "du --files0-from=list"),
    "grep": ("grep -rn x .", "grep -d recurse x"),
    "fd": ("fd -e py", "fd -x rm"),
    "file": ("file x", "file -f list"),
    "iconv": ("iconv -f utf8 -t ascii f", "iconv -o out f"),
    "printf": ("printf '%s' x", "printf -v x y"),
    "sdiff": ("sdiff a b", "sdiff -o out a b"),
    "tree": ("tree -L 2", "tree -o out"),
    "wc": ("wc -l f", "wc --files0-from=k"),
    "jq": ("jq .a f", "jq --bogus .a f"),
    "ls": ("ls -la", "ls --hyperlink-evil"),
}
_SUMS = ("b2sum", "cksum", "md5sum", "sha1sum", "sha224sum", "sha384sum", "sha512sum", "shasum")


@pytest.mark.parametrize("program", ALL)
def test_every_program_classifies_without_errors(program: str) -> None:
    a = analyze(f"{program} --help" if program not in ("[", "[[") else "[ -f x ]")
    assert isinstance(a.commands, tuple)
    for c in a.commands:
        assert c.effects, program


@pytest.mark.parametrize("program", sorted(WRAPPERS))
def test_every_wrapper_is_looked_through(program: str) -> None:
    prefix = {
        "timeout": "timeout 5",
        "flock": "flock f",
        "chrt": "chrt 1",
        "taskset": "taskset 1",
        "faketime": "faketime x",
        "sg": "sg grp",
    }.get(program, program)
    a = analyze(f"{prefix} rm -rf /")
    assert any(c.catastrophic for c in a.commands), program


@pytest.mark.parametrize(("name", "examples"), sorted(BOTH_KINDS.items()))
def test_program_with_both_kinds_has_a_benign_and_a_non_benign_case(
    name: str, examples: tuple[str, str]
) -> None:
    benign, risky = examples
    good, bad = analyze(benign), analyze(risky)
    assert good.decidable and all(c.pure_reader for c in good.commands), benign
    assert not all(c.pure_reader for c in bad.commands), risky


def test_both_kinds_table_covers_every_reader_spec_with_risky_flags() -> None:
    """Derived from the tables: every reader spec that has flag rules adding effects or a
    subcommand table must have an example pair (so none is added without a test)."""

    def risky(rule: FlagRule) -> bool:
        return (
            bool(rule.effects or rule.host)
            or rule.args not in (None, Access.READ)
            or (rule.value not in (None, Access.READ))
        )

    risky_readers = {
        name
        for name, spec in PROGRAMS.items()
        if spec.reader and (any(risky(r) for r in spec.flags.values()) or spec.subcommands or spec.handler)
    }
    covered = {n for n in BOTH_KINDS} | {
        "gsed",
        "gawk",
        "mawk",
        "nawk",
        "egrep",
        "fgrep",
        "zgrep",
        "grep",
        "ifconfig",
        "route",
        "ag",
        "ack",
        "fd",
        "jq",
        "clang-format",
        "launchctl",
        "hostnamectl",
        "timedatectl",
        "localectl",
        "resolvectl",
        "networkctl",
        "podman",
        "nerdctl",
        "security",
        "fdfind",
        "batcat",
        *_SUMS,
    }
    missing = sorted(risky_readers - covered)
    assert not missing, missing


def test_families_do_not_overlap_silently() -> None:
    seen: dict[str, str] = {}
    dupes = []
    for family, table in FAMILIES.items():
        for name in table:
            if name in seen and table[name] is not PROGRAMS[name]:
                dupes.append((name, seen[name], family))
            seen[name] = family
    assert not dupes


def test_unknown_program_is_unknown() -> None:
    (c,) = analyze("frobnicate --all").commands
    assert not c.known and c.effects == {Effect.UNKNOWN}
