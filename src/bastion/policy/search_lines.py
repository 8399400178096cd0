"""Which lines a search prints: the pattern of ``grep``, ``rg``, ``ag`` and the agents' search
tools as a test of one line, so that a credential file a recursive search reaches can be
judged by what the search would print of it (``grep -r PASSWORD android/`` prints the signing
password of ``android/gradle.properties``; ``grep -r TODO src/`` prints nothing of ``.env``).

The test can only make a decision stricter (``reached``: a credential the search reaches
asks; one it would print lines of is denied), so where the pattern cannot be read exactly it
errs towards "prints": a pattern from a file (``-f``), one only known at run time, one that
is no valid regex here, an option whose value is not known. GNU grep's basic regexes are
turned into Python's (``\\|``, ``\\+``, ``\\(…\\)`` are the operators there), POSIX bracket
classes spelled out, ``\\<``/``\\>`` word edges; case is ignored when any option could ignore
it (``-i``, rg's smart case, ag's default)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: A test of one line (without its newline): would the search print it?
LineTest = Callable[[bytes], bool]


def prints_any(data: bytes, test: LineTest) -> bool:
    """Does the search print any line of ``data``?"""
    return any(test(line) for line in data.split(b"\n"))


def always(_line: bytes) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class _Grammar:
    """A search program's command line: its options that take a value, those that print no
    line (names or counts only), its pattern options and its defaults."""

    short_values: str
    long_values: frozenset[str]
    quiet: frozenset[str]  # -l -c -q…: no line of a file is printed
    basic: bool  # a basic regex unless -E / -P (grep)
    ignore_case: bool = False  # ag's smart case by default


def _f(words: str) -> frozenset[str]:
    return frozenset(words.split())


_GREP = _Grammar(
    short_values="efmABCdD",
    long_values=_f(
        "--regexp --file --max-count --after-context --before-context --context --devices "
        "--directories --label --binary-files --include --exclude --exclude-from --exclude-dir "
        "--group-separator"
    ),
    quiet=_f("-l -L -c -q --files-with-matches --files-without-match --count --quiet --silent"),
    basic=True,
)
_RG = _Grammar(
    short_values="efgtTmABCjMErd",
    long_values=_f(
        "--regexp --file --glob --iglob --type --type-not --type-add --max-count --context "
        "--after-context --before-context --threads --max-columns --encoding --replace "
        "--max-depth --max-filesize --sort --sortr --color --colors --path-separator --pre "
        "--pre-glob --engine --context-separator --field-match-separator --ignore-file "
        "--dfa-size-limit --regex-size-limit"
    ),
    quiet=_f("-l -c -q --files-with-matches --files-without-match --count --count-matches --quiet --files"),
    basic=False,
)
_AG = _Grammar(
    short_values="ABCGgmp",
    long_values=_f(
        "--after --before --context --file-search-regex --ignore --ignore-dir --max-count "
        "--path-to-ignore --depth --pager --workers"
    ),
    quiet=_f("-l -L -c --count --files-with-matches --files-without-matches"),
    basic=False,
    ignore_case=True,
)
GRAMMARS: dict[str, _Grammar] = {
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "rg": _RG,
    "ag": _AG,
}


@dataclass
class _Options:
    patterns: list[str | None]
    fixed: bool = False
    basic: bool = True
    ignore_case: bool = False
    invert: bool = False
    word: bool = False
    line: bool = False
    quiet: bool = False


def grep_lines(program: str, argv: Sequence[str | None]) -> LineTest | None:
    """The lines ``program argv[1:]`` prints, as a test; None when it prints no line of any
    file (``grep -rl``, ``rg -c``) or is no search this module knows."""
    grammar = GRAMMARS.get(program)
    if grammar is None:
        return None
    got = _parse(grammar, program, argv[1:])
    if got.quiet:
        return None
    return _test(got)


def tool_lines(pattern: object) -> LineTest:
    """An agent's search tool (Claude's Grep: ripgrep's syntax), with case ignored (its ``-i``
    is not looked at: either way, fewer lines than this are printed)."""
    if not isinstance(pattern, str):
        return always
    return _test(_Options([pattern], basic=False, ignore_case=True))


def _parse(grammar: _Grammar, program: str, args: Sequence[str | None]) -> _Options:
    got = _Options([], basic=grammar.basic, ignore_case=grammar.ignore_case)
    got.fixed = program == "fgrep"
    got.basic = grammar.basic and program != "egrep"
    positional: list[str | None] = []
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word is None:
            got.patterns.append(None)  # a run-time word may be an option or a pattern
            continue
        if word == "--":
            positional.extend(args[i:])
            break
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            if name in grammar.long_values and not eq:
                value, i = (args[i] if i < len(args) else None) or "", i + 1
            _long(got, grammar, name, value)
        elif word.startswith("-") and len(word) > 1:
            i = _cluster(got, grammar, word[1:], args, i)
        else:
            positional.append(word)
    if not got.patterns and positional:
        got.patterns.append(positional[0])
    return got


def _long(got: _Options, grammar: _Grammar, name: str, value: str) -> None:
    if name in grammar.quiet:
        got.quiet = True
    elif name == "--regexp":
        got.patterns.append(value)
    elif name == "--file":
        got.patterns.append(None)  # patterns from a file
    else:
        _switch(got, name)


def _cluster(got: _Options, grammar: _Grammar, letters: str, args: Sequence[str | None], i: int) -> int:
    for at, letter in enumerate(letters):
        if letter in grammar.short_values:
            value = letters[at + 1 :]
            if not value:
                value, i = (args[i] if i < len(args) else None) or "", i + 1
            if letter == "e":
                got.patterns.append(value)
            elif letter == "f":
                got.patterns.append(None)
            return i
        if f"-{letter}" in grammar.quiet:
            got.quiet = True
        _switch(got, f"-{letter}")
    return i


_SWITCHES = {
    "-F": "fixed",
    "--fixed-strings": "fixed",
    "-E": "extended",
    "--extended-regexp": "extended",
    "-P": "extended",
    "--perl-regexp": "extended",
    "-G": "basic",
    "--basic-regexp": "basic",
    "-i": "ignore_case",
    "-y": "ignore_case",
    "--ignore-case": "ignore_case",
    "-S": "ignore_case",  # rg's smart case: case ignored when the pattern is lowercase
    "--smart-case": "ignore_case",
    "-v": "invert",
    "--invert-match": "invert",
    "-w": "word",
    "--word-regexp": "word",
    "-x": "line",
    "--line-regexp": "line",
}


def _switch(got: _Options, name: str) -> None:
    what = _SWITCHES.get(name)
    if what == "fixed":
        got.fixed = True
    elif what == "extended":
        got.basic = False
    elif what == "basic":
        got.basic = True
    elif what == "ignore_case":
        got.ignore_case = True
    elif what == "invert":
        got.invert = True
    elif what == "word":
        got.word = True
    elif what == "line":
        got.line = True


def _test(got: _Options) -> LineTest:
    if not got.patterns or any(p is None for p in got.patterns):
        return always
    sources: list[str] = []
    for pattern in got.patterns:
        assert pattern is not None
        for one in pattern.split("\n"):  # a newline separates patterns, as -e does
            sources.append(re.escape(one) if got.fixed else _basic(one) if got.basic else _posix(one))
    body = "|".join(f"(?:{s})" for s in sources)
    if got.word:
        body = rf"(?<!\w)(?:{body})(?!\w)"
    if got.line:
        body = rf"^(?:{body})$"
    try:
        regex = re.compile(body.encode("utf-8", "surrogateescape"), re.IGNORECASE if got.ignore_case else 0)
    except (re.error, UnicodeEncodeError):
        return always
    if got.invert:
        return lambda line: regex.search(line) is None
    return Matches(regex)


@dataclass(frozen=True, slots=True)
class Matches:
    """The lines a pattern (known exactly, not inverted) matches, and what it matches in them."""

    regex: re.Pattern[bytes]

    def __call__(self, line: bytes) -> bool:
        return self.regex.search(line) is not None

    def without_matches(self, line: bytes) -> bytes:
        """``line`` with every text the pattern matches taken out: what a secret found there
        still holds when the search's own match is not part of it."""
        return self.regex.sub(b"", line)


_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": r"\s",
    "blank": r" \t",
    "xdigit": "0-9A-Fa-f",
    "punct": r"!-/:-@\[-`{-~",
    "word": r"\w",
    "print": r" -~",
    "graph": r"!-~",
    "cntrl": r"\x00-\x1f\x7f",
}
_CLASS = re.compile(r"\[:([a-z]+):\]")


def _posix(pattern: str) -> str:
    """An extended regex (or rg's, or PCRE) in Python's spelling."""
    spelled = _CLASS.sub(lambda m: _CLASSES.get(m.group(1), m.group(0)), pattern)
    return spelled.replace(r"\<", r"\b").replace(r"\>", r"\b")


def _basic(pattern: str) -> str:
    """GNU grep's basic regex: ``\\| \\+ \\? \\( \\) \\{ \\}`` are operators, the bare
    characters literal."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            n = pattern[i + 1]
            out.append(n if n in "|+?(){}" else "\\" + n)
            i += 2
            continue
        out.append("\\" + c if c in "|+?(){}" else c)
        i += 1
    return _posix("".join(out))
