"""What agents run all day: pure readers are recognised as such, and only those."""

from __future__ import annotations

import pytest
from helpers import E, all_pure, analyze, only

PURE = [
    "git status",
    "git status --short",
    "git log --oneline -20",
    "git log -1",
    "git whatchanged -1",
    "git whatchanged --oneline -3 -- src",
    "pip show pytest",
    "pip freeze",
    "cargo metadata --no-deps --format-version 1",
    "git diff",
    "git diff --stat HEAD~1",
    "git show HEAD",
    "git branch",
    "git branch -a",
    "git branch --show-current",
    "git rev-parse HEAD",
    "git blame src/x.py",
    "git ls-files",
    "git remote -v",
    "git tag",
    "git tag -l",
    "git stash list",
    "git config --get user.name",
    "git config user.email",
    "git describe --tags",
    "git shortlog -sn",
    "git grep foo",
    "git reflog",
    "git worktree list",
    "ls",
    "ls -la src",
    "ls -la",
    "ls -R",
    "pwd",
    "echo hi",
    "echo hello world",
    "printf '%s\\n' x",
    "true",
    "false",
    "cat README.md",
    "cat README.md | wc -l",
    "grep -rn x .",
    "grep -rn x . | head",
    "grep -e foo -e bar file.txt",
    "rg TODO",
    "rg -n 'def main' src",
    "head -5 f",
    "head -n 20 file",
    "tail -n 50 log.txt",
    "tail -f app.log",
    "wc -l src/*.py",
    "which python3",
    "file x.bin",
    "stat x",
    "du -sh .",
    "df -h",
    "diff a b",
    "cut -d, -f1 data.csv",
    "tr a-z A-Z",
    "sort f",
    "sort -u f | uniq -c",
    "uniq f",
    "nl f",
    "jq .name package.json",
    "tree src",
    "find . -name '*.py'",
    "find src -type f -name x",
    "sed -n '1,20p' file",
    "sed 's/a/b/' file",
    "awk '{print $1}' file",
    "basename /a/b",
    "dirname /a/b",
    "date",
    "whoami",
    "id",
    "uname -a",
    "env LC_ALL=C ls",
    "cat <<'EOF'\nhi\nEOF",
    "[ -f x ] && echo yes",
    "[[ -d src ]]",
    "test -f x",
    "python3 --version",
    "node --version",
    "git --version",
    "command -v git",
    "type ls",
    "ls | sort | head",
    "echo $PATH",
    'echo "$HOME"',
    "cat file | grep x | wc -l",
    "ps aux",
    "less README",
    "realpath .",
    "readlink -f x",
    "sha256sum f",
    "md5sum f",
    "column -t f",
    "systemctl status nginx",
    "journalctl -u x -n 50",
    "crontab -l",
    "ip addr show",
    "sysctl vm.swappiness",
    "ruff check src",
    "tar tzf a.tgz",
    "git clean -n",
    "kill -l",
    "sed -n '/x/p' f",
    "rg --files",
    "for f in a b; do echo $f; done",
    "if [ -f x ]; then cat x; fi",
    "ls -la && git status",
    "git log --format='%H %s' -5",
    "cd src && ls",
    "cd src; grep -rn TODO .",
    "time ls",
    "nice -n 10 ls",
    "timeout 5 cat f",
    "TZ=UTC ls",
    "echo hi >/dev/null",
    "ls 2>/dev/null",
    "ls 2>&1 | head",
    "ls >&2",
    "(ls; pwd)",
    "{ ls; pwd; }",
    "! grep x f",
    "go version",
    "npm --version",
    "cargo --version",
    "make --version",
    "pytest --version",
]
NOT_PURE = [
    "sed -i s/a/b/ f",
    "sed -ni p f",
    "sed --in-place s/x/y/ f",
    "sort -o out f",
    "sort --output=out f",
    "rg --pre cat x",
    "find . -delete",
    "find . -exec rm {} +",
    "find . -fprint out",
    "echo x > f",
    "ls > listing.txt",
    "cat a >> b",
    "git commit -m x",
    "git add .",
    "git checkout main",
    "git push",
    "git branch -D x",
    "git tag v1",
    "git stash",
    "git whatchanged --output=x -1",
    "java -version -jar app.jar",
    # the JVM writes /tmp/hsperfdata_USER and /proc/self/coredump_filter even for -version
    # (seen by the differential oracle): no reader
    "java -version",
    "pip show --log=pip.log pytest",
    "cargo metadata --format-version 1",
    "git config core.pager less",
    "tee f",
    "npm test",
    "pytest -q",
    "make",
    "python3 x.py",
    "node -e 1",
    "./script.sh",
    "curl https://x.com",
    "touch f",
    "rm f",
    "awk '{system(\"id\")}'",
    "awk '{print > \"out\"}' f",
    "uniq a b",
    "xxd a b",
    "sed 'e id' f",
    "sed 's/x/y/w out' f",
    "unknowncmd",
    "/tmp/ls",
    "$X",
    "cat $(ls)",
    "git -c core.pager=sh log",
    "date -s 2020-01-01",
    "hostname newname",
    # they write a cache under the home directory and may ask their registry
    "pip list",
    "npm ls",
    "npm view react",
    "cargo tree",
    "cargo metadata",
    "go list ./...",
]


@pytest.mark.parametrize("command", PURE)
def test_is_a_pure_reader(command: str) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    assert a.commands
    for c in a.commands:
        assert c.pure_reader, (c.argv, c.effects, c.notes)
        assert c.effects <= {E.READ}
        assert c.catastrophic is None


@pytest.mark.parametrize("command", NOT_PURE)
def test_is_not_a_pure_reader(command: str) -> None:
    assert not all_pure(command)


def test_ls_reports_its_path_argument_as_a_read() -> None:
    c = only("ls -la src")
    assert (c.program, c.argv) == ("ls", ("ls", "-la", "src"))
    assert [(p.path, p.access.value) for p in c.paths] == [("src", "read")]


def test_grep_pattern_is_not_taken_for_a_path() -> None:
    c = only("grep -rn needle src")
    assert [p.path for p in c.paths] == ["src"]


def test_grep_with_e_flag_reads_every_positional() -> None:
    c = only("grep -e needle a b")
    assert [p.path for p in c.paths] == ["a", "b"]


def test_pipeline_reports_each_command() -> None:
    a = analyze("cat README.md | wc -l")
    assert [c.program for c in a.commands] == ["cat", "wc"]
