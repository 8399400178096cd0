"""Variables that hold the lines of a file: ``mapfile -t f < F``, ``read -r f < F``, the ``f``
of ``while read -r f; do …; done < F`` (#31, suite D). What such a variable holds is only known
at run time, but where it comes from is not: a use of it is a name the file lists.

``resolve`` spells each such use as ``"$(cat F)"`` in the resolved source, and a path only known
at run time that is exactly ``$(cat F)`` (or ``$(< F)``, or backquoted) carries
``PathUse.listed_in = F``: the policy reads F and judges the names it lists
(``policy/listed_paths.py``). ``cat $(cat files.txt)`` is the same case, written directly.
"""

from __future__ import annotations

import re
import shlex

from tree_sitter import Node

#: Stands for "a line of the file that follows" in a resolved value (never a path character).
LIST_MARK = "\x03"

#: ``$(cat F)``, ``$(< F)``, `` `cat F` ``, quoted or not; F a plain or single-quoted word.
_LISTED = re.compile(
    r"""^"?(?:\$\(\s*|`\s*)(?:cat\s+(?:--\s+)?|<\s*)('[^']*'|[^\s'"$`()\\;&|<>]+)\s*(?:\)|`)"?$"""
)


def listed_in(text: str) -> str | None:
    """The file whose lines the word ``text`` is, or None."""
    found = _LISTED.match(text)
    if found is None:
        return None
    name = found.group(1)
    return name[1:-1] if name.startswith("'") else name


def spelled(value: str) -> str | None:
    """Shell text for a resolved value that is a file's lines (None: it is not one)."""
    if not value.startswith(LIST_MARK):
        return None
    return f'"$(cat {shlex.quote(value[1:])})"'


def read_from(node: Node, src: bytes) -> str | None:
    """The literal file a command's (or a compound statement's) ``< F`` redirection reads."""
    found = None
    for child in node.children:
        if child.type != "file_redirect":
            continue
        ops = [c for c in child.children if not c.is_named]
        dest = child.child_by_field_name("destination")
        text = src[dest.start_byte : dest.end_byte].decode("utf-8", "replace") if dest is not None else ""
        if ops and ops[0].type == "<" and dest is not None and dest.type in ("word", "raw_string"):
            found = text[1:-1] if dest.type == "raw_string" else text
            if dest.type == "word" and not re.fullmatch(r"[\w./@+,:%=-]+", text):
                found = None  # a glob, an escape, a tilde: not the file name as written
    return found


def loop_variable(statement: Node, src: bytes) -> str | None:
    """``while read [-r] NAME`` (NAME the only name): the variable each pass reads a line into."""
    condition = statement.child_by_field_name("condition")
    if statement.type != "while_statement" or condition is None or condition.type != "command":
        return None
    words = [src[c.start_byte : c.end_byte].decode("utf-8", "replace") for c in condition.named_children]
    if not words or words[0] != "read":
        return None
    names = [w for w in words[1:] if not w.startswith("-")]
    return names[0] if len(names) == 1 and re.fullmatch(r"[A-Za-z_]\w*", names[0]) else None
