"""Variable names that bash evaluates: an array subscript in a NAME operand is arithmetic.

Every builtin that takes a variable *name* accepts ``name[subscript]``, and bash evaluates an
indexed array's subscript as arithmetic, which expands ``$(…)`` and backticks in it and
evaluates the value of any variable it names (recursively). So ``test -v 'a[$(cmd)]'``,
``printf -v 'a[$(cmd)]' x``, ``read 'a[$(cmd)]'``, ``local 'a[$(cmd)]=1'``, ``unset
'a[$(cmd)]'`` and ``wait -n -p 'a[$(cmd)]'`` run ``cmd`` although the quotes make the word a
literal the parser does not look into (checked against bash 5.2).

A NAME operand is plain data only when it is a literal identifier, or an identifier with a
decimal subscript; any other subscript, or a name only known at run time, is evaluated.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from bastion.shell.words import Word

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?")
#: Builtins whose every non-option operand is a variable name (declare's part before ``=``).
_ALL_NAMES = frozenset(
    {"read", "mapfile", "readarray", "unset", "declare", "typeset", "local", "readonly", "export"}
)
#: Options whose value is a variable name.
_NAME_OPTIONS = {
    "test": ("-v",),
    "[": ("-v",),
    "[[": ("-v",),
    "printf": ("-v",),
    "wait": ("-p",),
}


def evaluated_name(program: str, args: tuple[Word, ...]) -> Word | None:
    """The first NAME operand of ``program`` that bash may evaluate as code, if any."""
    for word in _names(program, args):
        # the sketch holds DYN for each part only known at run time (`local x="$1"` names x)
        name = word.sketch.partition("=")[0] if program in _ALL_NAMES else word.sketch
        if not plain_name(name):
            return word
    return None


def plain_name(text: str | None) -> bool:
    """A variable name bash takes as it is: an identifier, with a decimal subscript at most."""
    return text is not None and _PLAIN.fullmatch(text) is not None


def tested_names(test: Node) -> list[str | None]:
    """The operands of ``-v`` in a ``[ … ]`` / ``[[ … ]]`` node, as literals (None when any
    part is only known at run time)."""
    found: list[str | None] = []
    stack = [test]
    while stack:
        cur = stack.pop()
        stack.extend(cur.named_children)
        op = cur.child_by_field_name("operator")
        if cur.type != "unary_expression" or op is None or op.text != b"-v":
            continue
        operand = next((c for c in cur.named_children if c != op), None)
        found.append(literal(operand))
    return found


def literal(node: Node | None) -> str | None:
    """A word node's literal value (quotes removed); None when any part is only known at run time."""
    if node is None or node.text is None:
        return None
    text = node.text.decode(errors="replace")
    if node.type == "raw_string":
        return text[1:-1]
    if node.type in ("word", "variable_name") or (
        node.type == "concatenation" and all(c.type in ("word", "number") for c in node.children)
    ):
        return text  # `a[1]` is a concatenation of words
    if node.type == "string" and all(c.type == "string_content" for c in node.named_children):
        return text[1:-1]
    return None


def _names(program: str, args: tuple[Word, ...]) -> list[Word]:
    names: list[Word] = []
    options = _NAME_OPTIONS.get(program, ())
    for i, word in enumerate(args):
        value = word.value
        if value is not None and value in options and i + 1 < len(args):
            names.append(args[i + 1])
        elif value is not None and value.startswith(options) and len(value) > 2 and program != "[[":
            names.append(Word(word.text, value[2:], value[2:]))  # printf -vNAME
    if program in _ALL_NAMES:
        names.extend(_operands(program, args))
    elif program == "getopts" and len(args) >= 2:
        names.append(args[1])
    return names


def _operands(program: str, args: tuple[Word, ...]) -> list[Word]:
    """The operands after the options (and read's ``-a NAME``): variable names."""
    found: list[Word] = []
    options_done = False
    takes = _VALUE_LETTERS.get(program, "")
    i = 0
    while i < len(args):
        value = args[i].value
        if not options_done and value is not None and value.startswith(("-", "+")) and len(value) > 1:
            options_done = value == "--"
            if value[-1] in takes and i + 1 < len(args):
                i += 1  # the option's value (read -p PROMPT, mapfile -d DELIM) ...
                if value[-1] == "a":
                    found.append(args[i])  # ... but read -a NAME names an array
        else:
            options_done = True
            found.append(args[i])
        i += 1
    return found


#: Options of read / mapfile that take a value.
_VALUE_LETTERS = {"read": "adiNnptu", "mapfile": "dnOsuCc", "readarray": "dnOsuCc"}
