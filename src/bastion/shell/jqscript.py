"""Read a jq program as jq's lexer does, far enough to find what its module system reads.

``import "config" as $c {search: "~/.docker"};`` reads ``~/.docker/config.json``;
``import "m" as m;`` and ``include "m";`` load ``m.jq`` from the search path (which
``-L DIR`` and the directive's ``search`` metadata set), and ``modulemeta`` loads a module
named at run time. The jq manual, "Modules": a directive is ``import RelativePathString as
NAME [<metadata>];`` (``$NAME``: a data file), ``include RelativePathString [<metadata>];``;
the metadata is a constant object whose ``search`` key is a string or an array of strings.

The program is split into tokens first: strings (with their ``\\(…)`` interpolations, which
may hold strings of their own) and comments are whole tokens, so a keyword or a quote inside
one hides nothing. A program this lexer cannot follow (an unterminated string) is reported
as unknown (None), never as harmless; so is a directive whose path or search is not a
constant.

yq (mikefarah's Go yq) writes its expressions in a jq-like language of the same tokens; its
``load``, ``load_str``, ``load_xml``, ``load_props`` and ``load_base64`` read the file their
argument names (its manual, "Load operators"), and ``eval`` runs an expression given as a
string: ``yq_loads`` finds what one reads.
"""

from __future__ import annotations

from dataclasses import dataclass

_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME = _NAME_START | frozenset("0123456789")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "string", "name" (``$x`` too), "op"
    text: str  # a string's value (escapes decoded) or the name or operator
    constant: bool = True  # a string without interpolation


@dataclass(frozen=True, slots=True)
class Directive:
    """One ``import``/``include``: ``path`` as written, ``data`` (``import … as $x``: a
    JSON file), ``search`` the metadata's search path (empty: none given)."""

    path: str
    data: bool
    search: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Modules:
    """What a program's module system reads; ``unknown``: why it cannot be told."""

    directives: tuple[Directive, ...] = ()
    unknown: str | None = None


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _string(src: str, i: int) -> tuple[Token, int] | None:
    """The string starting at ``src[i] == '"'``; None when it never ends."""
    out: list[str] = []
    constant = True
    i += 1
    while i < len(src):
        c = src[i]
        if c == '"':
            return Token("string", "".join(out), constant), i + 1
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = src[i + 1 : i + 2]
        if nxt == "(":  # an interpolation: a jq expression up to its closing parenthesis
            constant = False
            end = _balanced(src, i + 2)
            if end is None:
                return None
            i = end
        elif nxt == "u":
            try:
                out.append(chr(int(src[i + 2 : i + 6], 16)))
            except ValueError:
                return None
            i += 6
        elif nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            return None  # jq rejects an unknown escape
    return None


def _balanced(src: str, i: int) -> int | None:
    """The index after the ``)`` closing an interpolation opened before ``i``."""
    depth = 1
    while i < len(src):
        c = src[i]
        if c == '"':
            found = _string(src, i)
            if found is None:
                return None
            i = found[1]
            continue
        if c == "#":
            end = src.find("\n", i)
            i = len(src) if end < 0 else end
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def tokens(src: str) -> list[Token] | None:
    """The program's tokens (comments dropped); None when a string never ends."""
    out: list[Token] = []
    i = 0
    while i < len(src):
        c = src[i]
        if c.isspace():
            i += 1
        elif c == "#":
            end = src.find("\n", i)
            i = len(src) if end < 0 else end
        elif c == '"':
            found = _string(src, i)
            if found is None:
                return None
            out.append(found[0])
            i = found[1]
        elif c in _NAME_START or (c == "$" and src[i + 1 : i + 2] in _NAME_START and src[i + 1 : i + 2]):
            j = i + 1
            while j < len(src) and (src[j] in _NAME or src[j : j + 2] == "::"):
                j += 2 if src[j : j + 2] == "::" else 1
            out.append(Token("name", src[i:j]))
            i = j
        else:
            out.append(Token("op", c))
            i += 1
    return out


def modules(src: str) -> Modules | None:
    """The directives of a jq program and why its reads cannot be told (None: the program
    cannot be read as jq reads it)."""
    toks = tokens(src)
    if toks is None:
        return None
    found: list[Directive] = []
    for k, tok in enumerate(toks):
        if tok.kind != "name" or (k and toks[k - 1].text in (".", "?")):
            continue  # a field (.import) is no directive
        if k + 1 < len(toks) and toks[k + 1].text == ":":
            continue  # an object key ({import: 1})
        if tok.text == "modulemeta":
            return Modules(tuple(found), "modulemeta loads a module named at run time")
        if tok.text not in ("import", "include"):
            continue
        directive = _directive(toks, k)
        if isinstance(directive, str):
            return Modules(tuple(found), directive)
        found.append(directive)
    return Modules(tuple(found))


def _directive(toks: list[Token], k: int) -> Directive | str:
    """The directive at ``toks[k]``, or why it is not a constant one."""
    keyword = toks[k].text
    at = k + 1
    if at >= len(toks) or toks[at].kind != "string":
        return f"jq {keyword} of a path that is not a string"
    path = toks[at]
    if not path.constant:
        return f"jq {keyword} of a path built at run time"
    at += 1
    data = False
    if keyword == "import":
        if at + 1 >= len(toks) or toks[at].text != "as" or toks[at + 1].kind != "name":
            return "jq import without 'as NAME'"
        data = toks[at + 1].text.startswith("$")
        at += 2
    search: list[str] = []
    if at < len(toks) and toks[at].text == "{":
        meta = _search(toks, at)
        if isinstance(meta, str):
            return meta
        search, at = meta
    if at >= len(toks) or toks[at].text != ";":
        return f"jq {keyword} not ended by ';'"
    return Directive(path.text, data, tuple(search))


def _search(toks: list[Token], at: int) -> tuple[list[str], int] | str:
    """The ``search`` strings of the metadata object at ``toks[at] == '{'`` and the index
    after its ``}``; why not, when they are not constant strings."""
    depth = 0
    end = at
    while end < len(toks):
        if toks[end].text in "{[(" and toks[end].kind == "op":
            depth += 1
        elif toks[end].text in "}])" and toks[end].kind == "op":
            depth -= 1
            if depth == 0:
                break
        end += 1
    else:
        return "jq module metadata not closed"
    body = toks[at + 1 : end]
    search: list[str] = []
    for i, tok in enumerate(body):
        if tok.text != "search" or i + 1 >= len(body) or body[i + 1].text != ":":
            continue
        value = body[i + 2 : i + 3]
        if value and value[0].kind == "string" and value[0].constant:
            search.append(value[0].text)
            continue
        if not value or value[0].text != "[":
            return "jq module search path is not a constant"
        j = i + 3
        while j < len(body) and body[j].text != "]":
            if body[j].kind == "string" and body[j].constant:
                search.append(body[j].text)
            elif body[j].text != ",":
                return "jq module search path is not a constant"
            j += 1
    return search, end + 1


#: yq's functions that read the file their one argument names (yq's manual, "Load operators").
YQ_LOADERS = frozenset({"load", "load_str", "load_xml", "load_props", "load_base64"})


@dataclass(frozen=True, slots=True)
class Loads:
    """The files a yq expression loads by a constant name; ``unknown``: why it may load more."""

    paths: tuple[str, ...] = ()
    unknown: str | None = None


def yq_loads(src: str) -> Loads | None:
    """What the yq expression ``src`` loads (None: it cannot be read as yq's lexer does)."""
    toks = tokens(src)
    if toks is None:
        return None
    paths: list[str] = []
    for k, tok in enumerate(toks):
        if tok.kind != "name" or (k and toks[k - 1].text in (".", "?")):
            continue  # a field (.load) calls nothing
        if k + 1 < len(toks) and toks[k + 1].text == ":":
            continue  # an object key ({load: 1})
        if tok.text == "eval":  # eval(strenv(E)), eval("load_str(...)"): built at run time
            return Loads(tuple(paths), "yq eval runs an expression given as a string")
        if tok.text not in YQ_LOADERS:
            continue
        call = toks[k + 1 : k + 4]
        shape = [t.kind for t in call] == ["op", "string", "op"]
        if shape and call[0].text == "(" and call[2].text == ")" and call[1].constant:
            paths.append(call[1].text)
            continue
        return Loads(tuple(paths), f"yq {tok.text} reads a file named at run time")
    return Loads(tuple(paths))
