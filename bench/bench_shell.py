"""Benchmark: parse + classify (``bastion.shell.analysis.analyze``) over realistic agent commands.

Run by hand: ``.venv/bin/python bench/bench_shell.py``. Prints p50/p99 per command next to a
pure-Python dict lookup measured in the same run, and the time for one 10 KiB command.
(Policy-decision timings are added by the engine's own benchmark.)
"""

from __future__ import annotations

import statistics
import time

from bastion.shell.analysis import analyze

BASE = [
    "git status",
    "git status --short",
    "git diff",
    "git diff --stat HEAD~1",
    "git log --oneline -20",
    "git add -A && git commit -m 'fix: handle empty input'",
    "git push origin main",
    "git checkout -b feature/x",
    "git stash && git pull --rebase && git stash pop",
    "ls -la",
    "ls -la src",
    "pwd",
    "cat README.md",
    "cat README.md | wc -l",
    "head -50 src/app.py",
    "tail -n 100 logs/server.log",
    "grep -rn 'TODO' src",
    "grep -rn x . | head",
    "rg -n 'def main' --type py",
    "find . -name '*.py' -not -path './.venv/*' | head -20",
    "pytest -q",
    "pytest tests/test_api.py -x -q",
    "python -m pytest -k slow -q",
    "npm run build && npm test",
    "npm install",
    "npm run lint -- --fix",
    "pnpm test",
    "cargo build --release",
    "cargo test",
    "go test ./...",
    "make",
    "make test",
    "pip install -r requirements.txt",
    "uv pip install httpx",
    "python3 script.py --dry-run",
    "python3 -c 'import sys; print(sys.version)'",
    "node -e 'console.log(process.version)'",
    "mkdir -p build/out && cp -r assets build/out/",
    "rm -rf build dist",
    "sed -n '1,40p' src/main.rs",
    "sed -i 's/foo/bar/g' src/config.py",
    "awk '{print $1}' data.txt",
    "jq '.dependencies' package.json",
    "curl -sSL https://api.github.com/repos/x/y | jq .stars",
    "docker ps",
    "docker compose up -d",
    "kubectl get pods -n default",
    "echo \"$PATH\" | tr ':' '\\n'",
    "wc -l src/**/*.ts",
    "tree -L 2 src",
    "cd frontend && npm ci && npm run build",
    "for f in *.md; do echo $f; done",
    "if [ -f .env ]; then echo has env; fi",
    "ruff check src && mypy src",
    "git log -1 --format='%H %an %s'",
    "du -sh node_modules",
    "which python3 && python3 --version",
    "tar czf backup.tgz src",
    "chmod +x scripts/deploy.sh",
    "./scripts/deploy.sh --staging",
    "FOO=1 BAR=2 env | sort",
    "timeout 60 npm test",
    "xargs -n1 echo < list.txt",
    "git commit -m \"$(cat <<'EOF'\nfeat: add thing\n\nBody text.\nEOF\n)\"",
]


def corpus(n: int = 1200) -> list[str]:
    out: list[str] = []
    i = 0
    while len(out) < n:
        base = BASE[i % len(BASE)]
        out.append(base if i < len(BASE) else f"{base} # run {i}")
        i += 1
    return out


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]


def timed(fn: object, items: list[str], rounds: int = 5) -> list[float]:
    call = fn  # type: ignore[assignment]
    samples: list[float] = []
    for _ in range(rounds):
        for item in items:
            start = time.perf_counter_ns()
            call(item)  # type: ignore[operator]
            samples.append((time.perf_counter_ns() - start) / 1000.0)
    return samples


def main() -> None:
    items = corpus()
    for item in items[:200]:  # warm up (parser creation, caches)
        analyze(item)
    table = {c: len(c) for c in items}
    shell = timed(analyze, items)
    base = timed(table.get, items)
    s50, s99 = percentiles(shell)
    b50, b99 = percentiles(base)
    big = " && ".join(f"grep -rn 'pattern{i}' src/module{i} | head -5" for i in range(400))
    big = big[: 10 * 1024]
    big = big[: big.rfind(" && ")]
    start = time.perf_counter()
    analyze(big)
    big_ms = (time.perf_counter() - start) * 1000
    undecided = sum(1 for c in set(items) if not analyze(c).decidable)
    print(f"commands: {len(items)} ({len(set(items))} distinct), rounds: 5")
    print(f"analyze     p50 {s50:8.1f} us   p99 {s99:8.1f} us")
    print(f"dict lookup p50 {b50:8.3f} us   p99 {b99:8.3f} us")
    print(f"ratio p50 analyze / dict: {s50 / b50:,.0f}x")
    print(f"10 KiB command ({len(big.encode())} bytes): {big_ms:.2f} ms")
    print(f"undecidable in corpus: {undecided}")


if __name__ == "__main__":
    main()
