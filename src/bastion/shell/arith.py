"""What bash evaluates as arithmetic: ``$((x))``, ``${a[i]}``, ``${s:x}``, ``((…))``. A name
there is evaluated too, and its value may hold ``a[$(cmd)]``: code (``Word.arith``)."""

from __future__ import annotations

import re

from tree_sitter import Node

#: Stands for a command substitution's output in an arithmetic expression: never safe.
SUBST = "$(…)"
SUBST_KINDS = frozenset({"command_substitution", "process_substitution"})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ARITH_LEAVES = frozenset({"word", "string", "raw_string", "string_content", "concatenation"})


def arith_names(node: Node) -> list[str]:
    """Names an arithmetic expression evaluates (their values are arithmetic too)."""
    names: list[str] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        kind = cur.type
        if kind in SUBST_KINDS:
            names.append(SUBST)
        elif kind in ("variable_name", "special_variable_name"):
            names.append((cur.text or b"").decode())
        elif kind == "number":
            continue
        elif kind in _ARITH_LEAVES and not any(
            c.type in SUBST_KINDS or c.type.endswith("expansion") for c in cur.named_children
        ):
            names.extend(_IDENT.findall((cur.text or b"").decode("utf-8", "replace")))
        else:
            stack.extend(cur.named_children)
    return names
