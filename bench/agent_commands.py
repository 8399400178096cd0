"""A deterministic corpus of realistic agent shell commands (>= 1,000), for benchmarks."""

from __future__ import annotations

import itertools

FILES = [
    "README.md",
    "src/app.py",
    "src/bastion/cli.py",
    "tests/test_app.py",
    "package.json",
    "Cargo.toml",
    "docs/index.md",
    "setup.cfg",
    "pyproject.toml",
    "src/lib/util.ts",
]
DIRS = [".", "src", "tests", "docs", "src/lib", "build"]
WORDS = ["TODO", "def main", "import os", "FIXME", "class Gate", "error", "useState"]
TEMPLATES = [
    "git status",
    "git status --short",
    "git diff",
    "git diff --stat",
    "git log --oneline -{n}",
    "git log -1 --format=%H",
    "git show HEAD~{n} --stat",
    "git branch -a",
    "git rev-parse --abbrev-ref HEAD",
    "git blame {f}",
    "ls -la {d}",
    "ls {d}",
    "cat {f}",
    "head -{n} {f}",
    "tail -n {n} {f}",
    "wc -l {f}",
    "cat {f} | wc -l",
    "grep -rn '{w}' {d}",
    "grep -rn '{w}' {d} | head -{n}",
    "rg '{w}' {d}",
    "find {d} -name '*.py'",
    "find {d} -type f | head -{n}",
    "pytest -q",
    "pytest {f} -k name",
    "python -m pytest -x -q",
    "npm test",
    "npm run build && npm test",
    "npm run lint",
    "cargo test",
    "cargo build --release",
    "make test",
    "go test ./...",
    "ruff check {d}",
    "mypy {d}",
    "echo done",
    "echo $PATH",
    "pwd && ls",
    "mkdir -p {d}/tmp",
    "touch {d}/new.txt",
    "cp {f} {f}.bak",
    "mv {f}.bak {f}",
    "rm {f}.bak",
    "rm -rf build",
    "sed -n '1,{n}p' {f}",
    "sed -i 's/a/b/' {f}",
    "sort {f} | uniq -c | sort -rn | head",
    "diff {f} {f}.orig",
    "tree -L 2 {d}",
    "du -sh {d}",
    "git add {f} && git commit -m 'wip'",
    "git checkout -b feature-{n}",
    "git push origin main",
    "pip install requests",
    "npm install lodash",
    "curl -s https://pypi.org/simple/requests/",
    "python3 -c 'print({n})'",
    "node -e 'console.log({n})'",
    "cd {d} && ls -la",
    "echo test > {d}/out.txt",
    "cat {f} 2>/dev/null || echo missing",
    "for f in {d}/*.py; do wc -l $f; done",
    "if [ -f {f} ]; then cat {f}; fi",
    "git stash && git pull --rebase && git stash pop",
    "docker ps",
    "ps aux | grep python",
    "env | grep HOME",
    "which python3",
    "jq '.version' package.json",
]


def unique_corpus(size: int) -> list[str]:
    """``size`` distinct command strings, as in a real session (no parse-cache hits)."""
    seen: dict[str, None] = {}
    combos = itertools.product(range(1, 10_000), FILES, DIRS, WORDS)
    for template in itertools.cycle(TEMPLATES):
        n, f, d, w = next(combos)
        seen.setdefault(template.format(f=f, d=d, w=w, n=n), None)
        if len(seen) >= size:
            break
    return list(seen)


def corpus(size: int = 1200) -> list[str]:
    out: list[str] = []
    combos = itertools.cycle(itertools.product(FILES, DIRS, WORDS, range(1, 30)))
    for template in itertools.cycle(TEMPLATES):
        f, d, w, n = next(combos)
        out.append(template.format(f=f, d=d, w=w, n=n))
        if len(out) >= size:
            return out
    return out
