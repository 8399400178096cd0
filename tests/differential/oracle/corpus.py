"""The commands the oracle runs: the project's own shell test literals, and commands
generated from templates x the flags each installed tool's ``--help`` lists x fixture
paths x wrappers and redirections.

The corpus is built at test time, deterministically: a fixed seed, the files' literals in
source order, and the flags in the order the tools print them. It therefore follows the
tools installed on the machine (a tool that is missing contributes nothing), which is the
point: the flags are the real tools' flags, not a list the classifier's authors wrote.
"""

from __future__ import annotations

import ast
import random
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

SEED = 20261201
ROOT = Path(__file__).resolve().parents[3]
#: Test files whose string literals are commands (or harmless non-commands: every literal
#: is evaluated, only what the gate allows is run).
LITERAL_SOURCES = ("tests/shell/*.py", "tests/policy/test_shell_policy.py")

#: Paths in the fixture: the workspace, its symlink to the key, a source file, the key
#: itself, the parent (HOME), and globs (which reach ``k`` and the trojan ``cat``).
PATHS = (".", "k", "src/a.py", "~/.ssh/id_rsa", "../", "*", "?")
#: Values for flags that take an argument: numbers, a file to read, a file to write.
NUMBERS = ("1", "2")
FILES = ("k", "out.txt", "~/.bashrc", "src/a.py", "notes.txt")
WORDS = ("x", "auto", "k")

#: ``{cmd}`` is the inner command; xargs takes the path from stdin instead.
WRAPPERS = (
    "sh -c {q}",
    "bash -c {q}",
    "bash -lc {q}",
    "env X=1 {cmd}",
    "timeout 5 {cmd}",
    "eval {q}",
    "PATH=bin:$PATH {cmd}",
    "XARGS",
)
REDIRECTIONS = ("> f", ">> ~/.bashrc", "< k", "2> err.txt", "> .bastion/policy.toml")


@dataclass(frozen=True, slots=True)
class Tool:
    """A template: ``{flag}`` and ``{path}`` are filled in; ``help`` is the argv that prints
    the flags (``None``: the template has no flags of its own)."""

    name: str  # the executable that must be installed
    template: str
    help: tuple[str, ...] | None = ("--help",)


#: Readers whose template is "NAME FLAG PATH".
FILE_READERS = (
    "cat",
    "head",
    "tail",
    "wc",
    "sort",
    "uniq",
    "nl",
    "od",
    "base64",
    "md5sum",
    "sha256sum",
    "ls",
    "stat",
    "du",
    "tree",
    "file",
    "tac",
    "fold",
    "fmt",
    "expand",
    "unexpand",
    "realpath",
    "readlink",
    "strings",
    "xxd",
)
READER_TOOLS: tuple[Tool, ...] = (
    *(Tool(name, f"{name} {{flag}} {{path}}") for name in FILE_READERS),
    Tool("cut", "cut -d, -f1 {flag} {path}"),
    Tool("paste", "paste {flag} notes.txt {path}"),
    Tool("comm", "comm {flag} notes.txt {path}"),
    Tool("join", "join {flag} notes.txt {path}"),
    Tool("diff", "diff {flag} notes.txt {path}"),
    Tool("cmp", "cmp {flag} notes.txt {path}"),
    Tool("grep", "grep {flag} TODO {path}"),
    Tool("rg", "rg {flag} TODO {path}"),
    Tool("fdfind", "fdfind {flag} a {path}"),
    Tool("sed", "sed {flag} 1p {path}"),
    Tool("find", "find {path} {flag}"),
    Tool("jq", "jq {flag} .name {path}"),
    Tool("tr", "tr {flag} a-z A-Z < {path}"),
    Tool("date", "date {flag}"),
    Tool("echo", "echo {flag} {path}", ("--help",)),
    Tool("basename", "basename {flag} {path}"),
    Tool("dirname", "dirname {flag} {path}"),
)
GIT_SUBCOMMANDS = (
    "status",
    "log",
    "show",
    "diff",
    "branch",
    "tag",
    "ls-files",
    "blame",
    "grep",
    "describe",
    "shortlog",
    "remote",
    "config",
    "reflog",
    "rev-parse",
)
#: ``git log -h`` does not list the diff options log, show and diff share: these are taken
#: from git-log(1) / git-diff(1), for the three subcommands.
GIT_DIFF_OPTIONS = (
    "-p",
    "--stat",
    "--oneline",
    "--output=out.txt",
    "--ext-diff",
    "--textconv",
    "--no-index",
    "--name-only",
    "-5",
)
#: Programs for the interpreters whose "flag" is the program text.
SCRIPTS: dict[str, tuple[str, ...]] = {
    "sed -n {s} notes.txt": ("1p", "s/a/b/", "1r k", "1w out", "1e id", "$!N", "s/a/b/w out", "y/ab/ba/"),
    "awk {s} notes.txt": (
        "{print $1}",
        "$3 > 10",
        'BEGIN{system("id")}',
        '{print > "out"}',
        'BEGIN{getline l < "k"; print l}',
        '{print | "sh"}',
        "NR==1",
    ),
}
#: The PATH trick and workspace scripts named like readers.
TRICKS = (
    "./cat src/a.py",
    "bin/ls",
    "PATH=bin:$PATH ls",
    "PATH=./bin ls src",
    "cd bin && ./ls",
    "cat < k",
    "cat k",
    "cat ?",
    "ls -la ~",
    "cat ~/.bashrc",
    "git -C .. status",
)

_HELP_OPTION = re.compile(r"^(--?[A-Za-z0-9][\w-]*)(\[?=\S*?)?,?$")
_ARG_NAME = re.compile(r"^(\[?[A-Z<][\w<>:.,/-]*\]?|N\[\w+\]|\[[-/+]\]\w+)$")


def help_flags(text: str) -> list[tuple[str, str | None]]:
    """(flag, argument spelling or None) for every option a ``--help`` text lists, in order.
    ``-n, --lines=NUM``: both take the argument (the short one as a separate word)."""
    out: dict[str, str | None] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("-") or not line[:1].isspace():
            continue
        words = re.split(r"\s{2,}", stripped)[0].split() if "  " in stripped else stripped.split()
        group: list[str] = []  # flags of one "-n, --lines=NUM" spelling
        for i, word in enumerate(words):
            match = _HELP_OPTION.match(word)
            if not match:
                group = []
                continue
            flag, arg = match.group(1), match.group(2)
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if arg is None and _ARG_NAME.match(nxt) and not nxt.startswith("-"):
                arg = " " + nxt
            group.append(flag)
            if flag not in out and flag not in ("--help", "--version", "-h"):
                out[flag] = arg
            if arg is not None:
                for earlier in group[:-1]:
                    if out.get(earlier, "") is None:
                        out[earlier] = " " + arg.lstrip(" =[").rstrip("]")
                group = []
            elif not word.endswith(","):
                group = []
    return list(out.items())


#: ``--help`` in the C locale at a fixed width, outside any repository: the same text (and
#: so the same corpus) whatever the caller's language, terminal or cwd.
HELP_ENV = {
    "LC_ALL": "C",
    "LANG": "C",
    "COLUMNS": "100",
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/nonexistent",
}


def _help_text(argv: list[str]) -> str:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL, env=HELP_ENV, cwd="/"
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout + done.stderr


def _value(arg: str, rng: random.Random) -> str:
    name = arg.strip(" =[]<>").upper()
    if (
        name in ("N", "NUM", "NUMBER", "LEVELS", "SIZE", "BYTES", "LINES", "COLS", "WIDTH", "DEPTH")
        or "NUM" in name
    ):
        return rng.choice(NUMBERS)
    if "FILE" in name or "PATH" in name or "DIR" in name or name in ("F", "PATTERN"):
        return rng.choice(FILES)
    return rng.choice(WORDS + NUMBERS)


def _flag_words(flag: str, arg: str | None, rng: random.Random) -> str:
    if arg is None:
        return flag
    value = _value(arg, rng)
    if arg.startswith("[="):
        return flag if rng.random() < 0.5 else f"{flag}={value}"
    return f"{flag}={value}" if arg.startswith("=") else f"{flag} {value}"


def _wrap(command: str, path: str, base: str, rng: random.Random) -> str:
    wrapper = rng.choice(WRAPPERS)
    if wrapper == "XARGS":
        if f" {path}" not in base:
            return f"echo {path} | xargs {base}"
        return f"echo {path} | xargs {base.replace(f' {path}', '', 1)}"
    return wrapper.format(cmd=command, q=shlex.quote(command))


def _tool_flags(tool: Tool) -> list[tuple[str, str | None]]:
    if tool.help is None or shutil.which(tool.name) is None:
        return []
    return [("", None), *help_flags(_help_text([tool.name, *tool.help]))]


def _git_commands(rng: random.Random) -> list[str]:
    if shutil.which("git") is None:
        return []
    out = []
    for sub in GIT_SUBCOMMANDS:
        flags = help_flags(_help_text(["git", sub, "-h"]))
        if sub in ("log", "show", "diff"):
            flags += [(f, None) for f in GIT_DIFF_OPTIONS]
        target = {"blame": "src/a.py", "grep": "TODO", "config": "user.name"}.get(sub, "")
        for flag, arg in [("", None), *flags]:
            words = ["git", sub, _flag_words(flag, arg, rng), target]
            out.append(" ".join(w for w in words if w))
    return out


def _script_commands() -> list[str]:
    return [template.format(s=shlex.quote(s)) for template, scripts in SCRIPTS.items() for s in scripts]


def generated(seed: int = SEED) -> list[str]:
    """Every generated command, deterministic for a seed and a set of installed tools."""
    rng = random.Random(seed)
    bases: list[tuple[str, str]] = []  # (command, the path it names)
    for tool in READER_TOOLS:
        for flag, arg in _tool_flags(tool):
            for path in rng.sample(PATHS, 4):
                words = tool.template.format(flag=_flag_words(flag, arg, rng) if flag else "", path=path)
                bases.append((" ".join(words.split()), path))
    bases += [(c, "") for c in _git_commands(rng) + _script_commands() + list(TRICKS)]
    out: list[str] = []
    for base, path in bases:
        out.append(base)
        roll = rng.random()
        if roll < 0.35:
            out.append(_wrap(base, path, base, rng))
        elif roll < 0.55:
            out.append(f"{base} {rng.choice(REDIRECTIONS)}")
        elif roll < 0.65:
            out.append(f"{_wrap(base, path, base, rng)} {rng.choice(REDIRECTIONS)}")
    return list(dict.fromkeys(out))


def _literals(tree: ast.Module) -> list[str]:
    """String constants of a module in source order, minus docstrings, parametrize's
    argument names and the pieces of f-strings."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "parametrize" and node.args:
            skip.add(id(node.args[0]))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    found = [
        (node.lineno, node.col_offset, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]
    return [text for _, _, text in sorted(found) if text.strip() and len(text) <= 2000]


def literal_commands() -> list[str]:
    """Every string literal of the shell tests, deduplicated, in file and source order."""
    out: list[str] = []
    for pattern in LITERAL_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            out += _literals(ast.parse(path.read_text(), filename=str(path)))
    return list(dict.fromkeys(out))


def sample(commands: list[str], seed: int = SEED) -> list[str]:
    """A fixed shuffle, so that a prefix of it is a fixed sample."""
    ordered = list(commands)
    random.Random(seed).shuffle(ordered)
    return ordered
