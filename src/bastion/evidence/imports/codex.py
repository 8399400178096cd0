"""Codex ``.rules`` files (Starlark): ``prefix_rule(pattern = [...], decision = ...)``.

A pattern is a list of words matched as a command prefix; an element that is itself a
list is a choice of words. ``decision`` is ``allow``, ``prompt`` or ``forbidden``, and
when several rules match the strictest wins — so the import writes allow, then ask
(prompt), then deny (forbidden), each choice expanded into its own rule. The file is
read as data (Python's parser for the Starlark subset, literals only): nothing in it runs.
"""

from __future__ import annotations

import ast
import itertools

from bastion.evidence.imports import shellpat
from bastion.evidence.imports.model import Imported, ImportedRule

DECISIONS = {"allow": "allow", "prompt": "ask", "forbidden": "deny"}
_ORDER = {"allow": 0, "ask": 1, "deny": 2}


def import_rules(text: str, source: str) -> Imported:
    out = Imported(source, "codex")
    try:
        tree = ast.parse(text, filename=source)
    except SyntaxError as exc:
        out.notes.append(f"cannot parse: {exc.msg} (line {exc.lineno})")
        return out
    found: list[ImportedRule] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id != "prefix_rule":
                out.notes.append(f"line {node.lineno}: {node.func.id}(): only prefix_rule is known")
                continue
            found += _prefix_rule(node, out)
    out.rules = sorted(found, key=lambda r: _ORDER[r.action])
    return out


def _prefix_rule(node: ast.Call, out: Imported) -> list[ImportedRule]:
    try:
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    except ValueError:
        out.notes.append(f"line {node.lineno}: arguments are not literals")
        return []
    pattern, decision = kwargs.get("pattern"), kwargs.get("decision", "allow")
    if not isinstance(pattern, list) or not pattern or decision not in DECISIONS:
        out.notes.append(f"line {node.lineno}: needs pattern = [words…] and decision allow/prompt/forbidden")
        return []
    action = DECISIONS[str(decision)]
    choices = [w if isinstance(w, list) else [w] for w in pattern]
    rules = []
    for words in itertools.product(*choices):
        converted = shellpat.prefix(" ".join(_quote(str(w)) for w in words), action)
        if converted is None:
            out.notes.append(f"line {node.lineno}: {list(words)} has no Bastion form")
            continue
        why = str(kwargs.get("justification") or f"Codex prefix_rule {decision}")
        rules.append(ImportedRule("shell", action, converted[0], why, (" ".join(map(str, words)),)))
    return rules


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)
