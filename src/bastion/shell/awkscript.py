"""Read an awk program as awk's lexer does (POSIX awk, with gawk's extensions), far enough to
find what is not a read: output redirections of ``print``/``printf``, pipes to and from
commands, ``system()``, gawk's indirect calls (``@f()``) and directives (``@include``,
``@load``), ``getline < FILE``, and the environment (``ENVIRON``).

The program is split into tokens first: strings, regular-expression literals and comments
are whole tokens, so a ``}`` or ``>`` inside one can hide nothing, and a ``/`` is a regex
only where awk's grammar allows an operand. A program this lexer cannot follow (an
unterminated string or regex) is reported as unknown (None), never as harmless.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bastion.shell.disclosure import secret_name


class Kind(StrEnum):
    NAME = "name"
    NUMBER = "number"
    STRING = "string"
    REGEX = "regex"
    FUNC_NAME = "funcname"  # a name directly followed by "(" (a call)
    OP = "op"
    NEWLINE = "newline"


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str  # a string's or regex's body without its delimiters, escapes kept


@dataclass(frozen=True, slots=True)
class Finding:
    """What the program does beyond reading its input. ``what``: "code" (runs a command),
    "write" (``print > target``), "read" (``getline < target``), "environ" (prints the
    environment); ``target`` is the literal file name, or None when an expression."""

    what: str
    target: str | None
    why: str
    #: For a target that is an expression: the literal end of it, from its first slash
    #: (``f = ENVIRON["HOME"] "/.netrc"`` -> ``/.netrc``), and whether it is a field of the
    #: input record (``getline < $0``: the input lists the files).
    tail: str | None = None
    record: bool = False


#: Operators of more than one character, longest first (POSIX awk grammar, gawk's |& and **).
_OPERATORS = (
    "**=",
    "||",
    "&&",
    "|&",
    ">>",
    ">=",
    "<=",
    "==",
    "!=",
    "!~",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "^=",
    "**",
)
#: Keywords after which a "/" starts a regex (they are not operands).
_KEYWORDS = frozenset(
    {
        "BEGIN",
        "END",
        "BEGINFILE",
        "ENDFILE",
        "function",
        "func",
        "if",
        "else",
        "while",
        "for",
        "do",
        "break",
        "continue",
        "next",
        "nextfile",
        "exit",
        "return",
        "delete",
        "print",
        "printf",
        "in",
        "getline",
        "case",
        "switch",
        "default",
    }
)
_STATEMENT_END = frozenset({";", "}", "{"})


def tokens(program: str) -> list[Token] | None:
    """The tokens of ``program``; None when it cannot be read (an unterminated literal)."""
    out: list[Token] = []
    i, n = 0, len(program)
    while i < n:
        c = program[i]
        if c == "\\" and i + 1 < n and program[i + 1] == "\n":
            i += 2  # a continued line
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "\n":
            out.append(Token(Kind.NEWLINE, "\n"))
            i += 1
            continue
        if c == "#":
            while i < n and program[i] != "\n":
                i += 1
            continue
        if c == '"':
            end = _literal_end(program, i + 1, '"')
            if end is None:
                return None
            out.append(Token(Kind.STRING, program[i + 1 : end]))
            i = end + 1
            continue
        if c == "/" and _regex_allowed(out):
            end = _literal_end(program, i + 1, "/")
            if end is None:
                return None
            out.append(Token(Kind.REGEX, program[i + 1 : end]))
            i = end + 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (program[j].isalnum() or program[j] == "_" or program[j : j + 2] == "::"):
                j += 2 if program[j : j + 2] == "::" else 1
            name = program[i:j]
            kind = Kind.FUNC_NAME if j < n and program[j] == "(" else Kind.NAME
            out.append(Token(kind, name))
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < n and program[i + 1].isdigit()):
            j = i
            while j < n and (program[j].isalnum() or program[j] == "."):
                j += 1
            out.append(Token(Kind.NUMBER, program[i:j]))
            i = j
            continue
        op = next((o for o in _OPERATORS if program.startswith(o, i)), c)
        out.append(Token(Kind.OP, op))
        i += len(op)
    return out


def _literal_end(program: str, i: int, quote: str) -> int | None:
    """The index of the closing ``quote`` (a backslash escapes the next character; a string
    or regex may not run past the end of its line)."""
    in_class = False
    while i < len(program):
        c = program[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n":
            return None
        if quote == "/" and c == "[" and not in_class:
            in_class = True
        elif quote == "/" and c == "]" and in_class:
            in_class = False
        elif c == quote and not in_class:
            return i
        i += 1
    return None


def _regex_allowed(before: list[Token]) -> bool:
    """Whether a "/" here begins a regex: only where an operand may start."""
    if not before:
        return True
    last = before[-1]
    if last.kind in (Kind.NUMBER, Kind.STRING, Kind.REGEX):
        return False
    if last.kind is Kind.NAME:
        return last.text in _KEYWORDS
    return last.text not in (")", "]", "$", "++", "--")


def findings(program: str) -> list[Finding] | None:
    """What ``program`` does beyond reading; None when it cannot be read."""
    toks = tokens(program)
    if toks is None:
        return None
    found: list[Finding] = []
    printing = False  # inside a print / printf statement
    depth = 0  # parentheses and brackets inside it
    for k, tok in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        text = tok.text
        if tok.kind is Kind.OP and text == "@":
            if not (nxt is not None and nxt.text == "namespace"):
                found.append(
                    Finding("code", None, "gawk @: an indirect call or a directive (@include, @load)")
                )
            continue
        if tok.kind in (Kind.NAME, Kind.FUNC_NAME):
            if text == "system":
                found.append(Finding("code", None, "system() runs a shell command"))
            elif text == "ENVIRON" and not _secretless_subscript(toks, k):
                found.append(Finding("environ", None, "ENVIRON read beyond a literal, non-secret name"))
            elif text in ("print", "printf"):
                printing, depth = True, 0
            elif text == "getline" and (source := _getline_source(toks, k)) is not None:
                found.append(_getline_read(toks, source))
            continue
        if tok.kind is Kind.NEWLINE or (tok.kind is Kind.OP and text in _STATEMENT_END):
            printing = False
            continue
        if tok.kind is not Kind.OP:
            continue
        if text in ("|", "|&"):
            found.append(Finding("code", None, f"awk {text} pipes to or from a shell command"))
        elif text in ("(", "["):
            depth += 1
        elif text in (")", "]"):
            depth = max(0, depth - 1)
        elif printing and depth == 0 and text in (">", ">>"):
            why = f"print {text} writes a file"
            if k + 1 < len(toks) and toks[k + 1].text == "(":  # print > (ENVIRON["HOME"] "/x")
                target, tail = expression_target(toks, _group(toks, k + 1))
                found.append(Finding("write", target, why, tail=tail))
            else:
                found.append(Finding("write", _literal(toks, k + 1), why))
    return found


def strings(program: str) -> list[str]:
    """The program's string literals without escapes, adjacent ones also joined (awk's
    concatenation: ``"sys" "tem"``): where the program runs commands (``system()``, a pipe, an
    indirect call), any of them may be the command line a shell is given."""
    toks = tokens(program) or []
    found: list[str] = []
    run: list[str] = []
    for tok in [*toks, Token(Kind.NEWLINE, "")]:
        if tok.kind is Kind.STRING and "\\" not in tok.text:
            run.append(tok.text)
            found.append(tok.text)
            continue
        if len(run) > 1:
            found.append("".join(run))
        run = []
    return list(dict.fromkeys(s for s in found if s.strip()))


def _getline_read(toks: list[Token], source: int) -> Finding:
    """What ``getline < FILE`` reads, FILE at ``source``: a literal, a field of the record, or
    an expression whose value may be known from the variable's assignment (``f = "…"``)."""
    why = "getline < FILE reads a file"
    literal = _literal(toks, source, ")")
    if literal is not None or source >= len(toks):
        return Finding("read", literal, why)
    first = toks[source]
    if first.text == "$":
        return Finding("read", None, why, record=True)
    target, tail = expression_target(toks, _group(toks, source) if first.text == "(" else [first])
    return Finding("read", target, why, tail=tail)


def expression_target(toks: list[Token], expression: list[Token]) -> tuple[str | None, str | None]:
    """The file name ``expression`` (of the program ``toks``) gives, as (literal, tail): the
    whole name when it is literal strings (``"/etc/" "passwd"``) or HOME's path and strings
    (``ENVIRON["HOME"] "/.netrc"``: ``~/.netrc``); else its literal end from its first slash.
    A variable stands for what it is last assigned (``f = …``)."""
    if len(expression) == 1 and expression[0].kind is Kind.NAME:
        expression = _assigned(toks, expression[0].text)
    strings = []
    for tok in reversed(expression):
        if tok.kind is not Kind.STRING or "\\" in tok.text:
            break
        strings.append(tok.text)
    text = "".join(reversed(strings))
    if strings and len(strings) == len(expression):
        return text, None  # f = "/etc/" "passwd"
    head = [t.text for t in expression[: len(expression) - len(strings)]]
    if strings and head == ["ENVIRON", "[", "HOME", "]"] and text.startswith("/"):
        return "~" + text, None
    return None, text[text.index("/") :] if "/" in text else None


def _group(toks: list[Token], k: int) -> list[Token]:
    """The tokens inside the parentheses opening at ``k``."""
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].text == "(" and toks[j].kind is Kind.OP:
            depth += 1
        elif toks[j].text == ")" and toks[j].kind is Kind.OP:
            depth -= 1
            if depth == 0:
                return toks[k + 1 : j]
    return []


def _assigned(toks: list[Token], name: str) -> list[Token]:
    """The expression last assigned to ``name`` (``name = …`` up to the statement's end);
    [] when it is assigned otherwise too (``+=``, ``getline name``, a loop) or never."""
    found: list[Token] = []
    for k in range(len(toks) - 2):
        if toks[k].kind is not Kind.NAME or toks[k].text != name:
            continue
        after = toks[k + 1]
        if after.kind is Kind.OP and after.text == "=":
            end = k + 2
            while end < len(toks) and not (
                toks[end].kind is Kind.NEWLINE
                or (toks[end].kind is Kind.OP and toks[end].text in _STATEMENT_END)
            ):
                end += 1
            found = toks[k + 2 : end]
        elif (
            after.kind is Kind.OP and after.text.endswith("=") and after.text not in ("==", "<=", ">=", "!=")
        ):
            return []
    return found


def _getline_source(toks: list[Token], k: int) -> int | None:
    """The index of FILE in ``getline [VAR] < FILE`` (VAR a name or ``$expr``), or None."""
    j = k + 1
    if j < len(toks) and toks[j].kind is Kind.NAME and toks[j].text not in _KEYWORDS:
        j += 1
    elif j < len(toks) and toks[j].text == "$":
        j += 2
    if j < len(toks) and toks[j].kind is Kind.OP and toks[j].text == "<":
        return j + 1
    return None


def _literal(toks: list[Token], k: int, close: str = "") -> str | None:
    """The string at ``k`` when it is the whole target (the statement, or with ``close``
    the parenthesis, ends after it)."""
    if k >= len(toks) or toks[k].kind is not Kind.STRING or "\\" in toks[k].text:
        return None
    after = toks[k + 1] if k + 1 < len(toks) else None
    if (
        after is None
        or after.kind is Kind.NEWLINE
        or (after.kind is Kind.OP and (after.text in _STATEMENT_END or (close and after.text == close)))
    ):
        return toks[k].text
    return None


def _secretless_subscript(toks: list[Token], k: int) -> bool:
    """``ENVIRON["HOME"]``: one literal name that is no secret's."""
    if k + 3 >= len(toks):
        return False
    opening, name, closing = toks[k + 1], toks[k + 2], toks[k + 3]
    return (
        opening.text == "["
        and name.kind is Kind.STRING
        and closing.text == "]"
        and "\\" not in name.text
        and not secret_name(name.text)
    )
