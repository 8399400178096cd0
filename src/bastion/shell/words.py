"""Decode one shell word (a tree-sitter node) to the value bash would see, or mark it dynamic.

Quotes are removed, backslash escapes and ANSI-C strings decoded, line continuations joined.
Anything only known at run time (expansions, substitutions, globs, brace expansion) makes
the word dynamic; ``sketch`` keeps the literal parts with DYN in place of each dynamic part
so callers can still see shapes such as ``"$DIR"/*`` (DYN + "/*").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from bastion.shell.arith import SUBST_KINDS, arith_names
from bastion.shell.parser import where
from bastion.shell.records import builder

DYN = "\x00"
INDIRECT = "${!…}"
# ${name:offset…}: a substring (arithmetic offsets), not ${name:-default} and friends.
_SUBSTRING = re.compile(r"^\$\{[A-Za-z_0-9@*#?$!-]+(\[[^\]]*\])?:(?![-=+?])")


@dataclass(frozen=True, slots=True)
class Binding:
    """A for-loop variable bound to one word of a literal list: its value, and whether
    that word is a glob (the variable then holds each match)."""

    value: str
    glob: bool = False


_HOME_VARS = frozenset({"HOME"})
#: ``${HOME:?msg}``, ``${HOME:-x}``… with no expansion inside: the value of HOME when set.
_HOME_OR_DEFAULT = re.compile(r"^\$\{HOME:?[-=?][^}$`]*\}$")


@dataclass(frozen=True, slots=True)
class Word:
    text: str  # source text as written
    value: str | None  # decoded literal; None when only known at run time
    sketch: str  # decoded, with DYN standing for each dynamic part
    glob: bool = False  # unquoted glob characters (the literal pattern is in sketch)
    procsub: bool = False  # the word is a process substitution (a /dev/fd pipe)
    vars: tuple[str, ...] = ()  # variables it expands
    prompt_expand: bool = False  # ${x@P}: prompt expansion can run command substitutions
    # Names whose values this word evaluates as arithmetic ($((x)), ${a[i]}, ${s:x}); a
    # value there can run code (x='a[$(cmd)]'). SUBST / INDIRECT stand for what is never
    # safe: a command substitution's output, an indirect ${!x}.
    arith: tuple[str, ...] = ()
    # A literal glob as bash matches it: quoted *?[]\ backslash-escaped (``a'*'*`` -> ``a\**``).
    pattern: str | None = None
    # A whole ``$(LISTER)``: each word it gives is a file below this folder (shell/listers.py).
    listed: str | None = None

    @property
    def literal(self) -> bool:
        return self.value is not None


#: Builds a ``Word`` (see ``records.builder``): words are the walker's most built record.
new_word = builder(Word)


@dataclass(slots=True, init=False)
class _Builder:
    chars: list[str]
    unquoted: list[bool]  # per char: could be special to bash
    dynamic: bool
    procsub: bool
    prompt: bool
    vars: list[str]
    subs: list[Node]
    errors: list[str]
    arith: list[str]
    bindings: Mapping[str, Binding]
    bound_glob: int  # length of a substituted glob-valued loop variable

    def __init__(self, bindings: Mapping[str, Binding]) -> None:
        # Written out: one per word that is not plain, and seven default factories cost more.
        self.chars = []
        self.unquoted = []
        self.dynamic = False
        self.procsub = False
        self.prompt = False
        self.vars = []
        self.subs = []
        self.errors = []
        self.arith = []
        self.bindings = bindings
        self.bound_glob = -1

    def add(self, text: str, unquoted: bool) -> None:
        self.chars.extend(text)
        self.unquoted.extend([unquoted] * len(text))

    def dyn(self) -> None:
        self.dynamic = True
        self.add(DYN, False)


_C_ESCAPES = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
    "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip
_C_NUMERIC = re.compile(r"x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.")


def decode_ansi_c(body: str) -> str:
    """Decode the inside of ``$'…'`` as bash does."""
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _C_ESCAPES:
            out.append(_C_ESCAPES[nxt])
            i += 2
            continue
        m = _C_NUMERIC.match(body, i + 1)
        if m is None:
            out.append("\\" + nxt)
            i += 2
            continue
        tok = m.group(0)
        if tok[0] == "c":
            out.append(chr(ord(tok[1]) & 0x1F))
        elif tok[0] in "xuU":
            out.append(chr(min(int(tok[1:], 16), 0x10FFFF)))
        else:
            out.append(chr(int(tok, 8) & 0xFF))
        i += 1 + len(tok)
    return "".join(out)


_UNQUOTED_TOKENS = re.compile(r"\\\n|\\(.)|[^\\]+|\\", re.DOTALL)
_DQ_TOKENS = re.compile(r"\\\n|\\([$`\"\\])|[^\\]+|\\", re.DOTALL)


def _unquoted_text(b: _Builder, text: str) -> None:
    for m in _UNQUOTED_TOKENS.finditer(text):
        tok = m.group(0)
        if tok == "\\\n":
            continue  # backslash-newline is a line continuation: dropped
        if m.group(1) is not None:
            b.add(m.group(1), False)  # an escaped character is quoted
        else:
            b.add(tok, True)


def _double_quoted_text(b: _Builder, text: str) -> None:
    for m in _DQ_TOKENS.finditer(text):
        tok = m.group(0)
        if tok == "\\\n":
            continue
        b.add(m.group(1) if m.group(1) is not None else tok, False)


def _var_name(node: Node) -> str | None:
    for child in node.named_children:
        if child.type in ("variable_name", "special_variable_name"):
            return (child.text or b"").decode()
    return None


def _expansion(b: _Builder, node: Node, at_start: bool, quoted: bool) -> None:
    name = _var_name(node)
    if name:
        b.vars.append(name)
    simple = node.type == "simple_expansion" or (
        node.named_child_count == 1 and node.child_count == 3  # ${NAME}
    )
    if name in _HOME_VARS and simple and at_start:
        b.add("~", False)  # the engine expands ~ itself
        return
    if name in _HOME_VARS and at_start and _HOME_OR_DEFAULT.match((node.text or b"").decode()):
        b.add("~", False)  # ${HOME:?}, ${HOME:-x}: HOME is set in every session, so $HOME
        return
    bound = b.bindings.get(name) if simple and name else None
    if bound is not None and _bind(b, bound, quoted):
        return
    text = (node.text or b"").decode()
    if "@P" in text or "@E" in text:
        b.prompt = True
    if node.type == "expansion":
        _expansion_arith(b, node, text)
    for sub in _descendants(node, SUBST_KINDS):
        b.subs.append(sub)
    b.dyn()


def _bind(b: _Builder, bound: Binding, quoted: bool) -> bool:
    """Substitute a loop variable's literal value. Unquoted, bash would split and glob it
    again: only a plain value is safe then. A glob value stands for each match, so it is
    only substituted as a whole quoted word (checked in ``decode``)."""
    if bound.glob:
        if not quoted:
            return False
        b.bound_glob = len(bound.value)
        b.add(bound.value, True)  # the pattern: ``glob`` marks the word for expansion
        return True
    if not quoted and any(ch in bound.value for ch in " \t\n*?[{~"):
        return False
    b.add(bound.value, False)
    return True


def _expansion_arith(b: _Builder, node: Node, text: str) -> None:
    """Subscripts and substring offsets are arithmetic; ${!x} evaluates x's value."""
    if text.startswith("${!") and not text.endswith(("*}", "@}", "[@]}", "[*]}")):
        b.arith.append(INDIRECT)
    for child in node.named_children:
        if child.type == "subscript":
            index = child.child_by_field_name("index")
            if index is not None and (index.text or b"") not in (b"@", b"*"):
                b.arith.extend(arith_names(index))
    if _SUBSTRING.match(text):
        for child in node.named_children[1:]:
            b.arith.extend(arith_names(child))


def _descendants(node: Node, kinds: frozenset[str]) -> list[Node]:
    found: list[Node] = []
    stack = list(node.named_children)
    while stack:
        cur = stack.pop()
        if cur.type in kinds:
            found.append(cur)
        else:
            stack.extend(cur.named_children)
    return found


def _string(b: _Builder, node: Node, src: bytes) -> None:
    pos = node.start_byte + 1
    end = node.end_byte - 1
    for child in node.children:
        if not child.is_named:
            continue
        if child.start_byte > pos:
            _double_quoted_text(b, src[pos : child.start_byte].decode("utf-8", "replace"))
        if child.type == "string_content":
            _double_quoted_text(b, (child.text or b"").decode("utf-8", "replace"))
        else:
            _part(b, child, src, quoted=True)
        pos = max(pos, child.end_byte)
    if end > pos:
        _double_quoted_text(b, src[pos:end].decode("utf-8", "replace"))


def _part(b: _Builder, node: Node, src: bytes, quoted: bool) -> None:
    kind = node.type
    text = (node.text or b"").decode("utf-8", "replace")
    if kind in ("word", "number"):
        if quoted:
            _double_quoted_text(b, text)
        else:
            _unquoted_text(b, text)
    elif kind == "raw_string":
        b.add(text[1:-1], False)
    elif kind == "ansi_c_string":
        b.add(decode_ansi_c(text[2:-1]), False)
    elif kind == "string":
        _string(b, node, src)
    elif kind == "translated_string":
        for child in node.named_children:
            _part(b, child, src, quoted)
    elif kind in ("simple_expansion", "expansion"):
        _expansion(b, node, at_start=not b.chars, quoted=quoted)
    elif kind == "command_substitution":
        b.subs.append(node)
        b.dyn()
    elif kind == "process_substitution":
        b.subs.append(node)
        b.procsub = True
        b.dyn()
    elif kind == "arithmetic_expansion":
        b.subs.extend(_descendants(node, SUBST_KINDS))
        b.arith.extend(arith_names(node))
        b.dyn()
    elif kind in ("brace_expression", "extglob_pattern"):
        b.dyn()
    elif kind == "concatenation":
        for child in node.children:
            _part(b, child, src, quoted)
    elif kind == "string_content":
        _double_quoted_text(b, text)
    elif not node.is_named and text == "$":
        b.add("$", not quoted)
    else:
        b.errors.append(f"unsupported word part {kind!r} at {where(node)}")
        b.dyn()


def _has_glob(chars: list[str], unquoted: list[bool]) -> bool:
    last_close = max((i for i, c in enumerate(chars) if c == "]" and unquoted[i]), default=-1)
    return any(unquoted[i] and (ch in "*?" or (ch == "[" and i < last_close)) for i, ch in enumerate(chars))


def _has_brace(chars: list[str], unquoted: list[bool]) -> bool:
    """An unquoted `{…,…}` or `{a..b}` (linear: tracks the latest `{` and separators)."""
    open_at = -1
    sep = False
    prev = ""
    for i, ch in enumerate(chars):
        if not unquoted[i]:
            prev = ""
            continue
        if ch == "{":
            open_at, sep = i, False
        elif open_at >= 0 and (ch == "," or (ch == "." and prev == ".")):
            sep = True
        elif ch == "}" and open_at >= 0 and sep:
            return True
        prev = ch
    return False


_GLOB_CHARS = frozenset("*?[]\\")
#: A word bash takes as written: no quote, escape, expansion, glob, brace or tilde.
PLAIN = re.compile(r"[^\\*?\[{~$`'\"\n]*")


def decode(
    node: Node, src: bytes, bindings: Mapping[str, Binding] | None = None
) -> tuple[Word, Sequence[Node], Sequence[str]]:
    """Return the word, the substitution nodes inside it (to classify), and errors.
    ``bindings``: loop variables whose value is known (``for f in a b; do …``)."""
    kind = node.type
    if kind in ("word", "number", "raw_string"):
        text = src[node.start_byte : node.end_byte].decode("utf-8", "replace")  # = node.text
        if kind == "raw_string":  # fast path: no escapes, no expansion
            return new_word(text, text[1:-1], text[1:-1]), (), ()
        if text.isalnum() or PLAIN.fullmatch(text):  # fast path: nothing bash would change
            return new_word(text, text, text), (), ()
    b = _Builder(bindings or {})
    _part(b, node, src, quoted=False)
    if b.bound_glob >= 0 and (len(b.chars) != b.bound_glob or len(b.vars) != 1):
        b.dynamic = True  # "$f.bak" / "$f$g": not one match of the pattern
    sketch = "".join(b.chars)
    glob = _has_glob(b.chars, b.unquoted)
    brace = _has_brace(b.chars, b.unquoted)
    tilde_user = (
        sketch.startswith("~") and b.unquoted[:1] == [True] and not (len(sketch) == 1 or sketch[1] == "/")
    )
    if tilde_user:  # ~user, ~+, ~- : depend on the system, not on the text
        b.dynamic = True
    value = None if (b.dynamic or brace) else sketch
    pattern = None
    if glob and value is not None:
        pattern = "".join(
            "\\" + c if c in _GLOB_CHARS and not u else c for c, u in zip(b.chars, b.unquoted, strict=True)
        )
    word = new_word(
        text=src[node.start_byte : node.end_byte].decode("utf-8", "replace"),
        value=value,
        sketch=sketch,
        glob=glob,
        procsub=b.procsub,
        vars=tuple(b.vars),
        prompt_expand=b.prompt,
        arith=tuple(b.arith),
        pattern=pattern,
    )
    return word, b.subs, b.errors


def literal_word(text: str) -> Word:
    """A word that is already a decoded literal (from a split string, e.g. ``env -S``)."""
    return new_word(text, text, text)
