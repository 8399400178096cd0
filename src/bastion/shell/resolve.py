"""The source as it would run with the values it gives its own variables: ``f=.netrc;
cat ~/$f`` is ``cat ~/.netrc``, ``cmd=cat; $cmd ~/.netrc``, ``set -- ~/.netrc; cat "$1"``,
``read p <<< ~/.netrc``, ``printf -v p '%s/.pgpass' ~``, ``x=(~/.netrc); cat "${x[0]}"``,
``cat $(echo LmdpdC1j… | base64 -d)`` (``shell/pure_eval``), ``cat ~root/.ssh/id_rsa``.

The classifier keeps such words as run-time values (an ask at best); the resolved source is
classified *as well* (``analysis.analyze``), so a value the source itself spells out is
decided like its literal: a credential printed this way is a credential read, ``h=~; rm -rf
"$h"`` deletes HOME. It is a may-value: the value of the latest assignment before the use in
the text, whatever branch, loop or subshell it sits in. That only ever adds commands to
decide, so it can make a decision stricter, never looser (the run-time words stay unknown in
the original).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from tree_sitter import Node

from bastion.shell.fed_shells import feeds_a_shell, shell_fed
from bastion.shell.list_vars import LIST_MARK, loop_variable, read_from, spelled
from bastion.shell.pure_eval import HOME_MARK, PWD_MARK, find_output, run_pure
from bastion.shell.spelling import pwd_spelled, quoted_text, unquoted_text
from bastion.shell.words import DYN, decode, decode_ansi_c

_USES = frozenset({"simple_expansion", "expansion", "command_substitution"})
#: Where a value is not text of a word: arithmetic, heredoc bodies, single-quoted text.
_OPAQUE = frozenset({"arithmetic_expansion", "heredoc_body", "heredoc_redirect", "raw_string"})
#: ``~root``: root's home folder (/root on the systems Bastion runs on).
_ROOT_HOME = re.compile(r"~root(?=/|$)")
#: ``~+``: the working directory, as ``.``.
_PWD_TILDE = re.compile(r"~\+(?=/|$)")
#: The shell's own process ids: in /proc/$$/… a process of this session.
_PIDS = frozenset({"$$", "${$}", "$BASHPID", "${BASHPID}", "$PPID", "${PPID}"})
_READ_OPTIONS = frozenset({"-r", "-e", "-s"})


@dataclass(slots=True)
class _State:
    src: bytes
    scalars: dict[str, str | None] = field(default_factory=dict)
    arrays: dict[str, list[str]] = field(default_factory=dict)
    listed: dict[str, str] = field(default_factory=dict)  # a variable holding a file's lines
    edits: list[tuple[int, int, str]] = field(default_factory=list)


def quick_check(src: bytes) -> bool:
    """Whether the source may hold a value to resolve (else it need not be parsed)."""
    return (
        b"$" in src or b"`" in src or b"~root" in src or b"~+" in src or b"env " in src or feeds_a_shell(src)
    )


def resolved(root: Node, src: bytes) -> str | None:
    """The source with each use of a value it spells out replaced by that value, or None
    when nothing is replaced."""
    if not quick_check(src):
        return None
    state = _State(src)
    _visit(state, root)
    if not state.edits:
        return None
    out: list[bytes] = []
    pos = 0
    for start, end, text in sorted(state.edits, key=lambda e: (e[0], -e[1])):
        if start < pos:
            continue  # inside a replaced region
        out.extend((src[pos:start], text.encode("utf-8")))
        pos = end
    out.append(src[pos:])
    return b"".join(out).decode("utf-8", "replace")


def _visit(state: _State, node: Node) -> None:
    kind = node.type
    if kind in _OPAQUE:
        return
    if kind == "variable_assignment" and (node.parent is None or node.parent.type != "command"):
        _assignment(state, node)
        return
    if kind == "word" and _ROOT_HOME.match(_text(node)) and _word_start(node):
        state.edits.append((node.start_byte, node.start_byte + 5, "/root"))  # ~root: root's home
        return
    if kind == "word" and _PWD_TILDE.match(_text(node)) and _word_start(node):
        state.edits.append((node.start_byte, node.start_byte + 2, "."))  # ~+: the working directory
        return
    if kind == "redirected_statement" and (loop := node.child_by_field_name("body")) is not None:
        var, listing = loop_variable(loop, state.src), read_from(node, state.src)
        if var is not None and listing is not None:  # while read -r f; do …; done < F
            state.listed[var] = listing
    if kind in ("pipeline", "command"):
        program = shell_fed(node, lambda stages: _pipeline_output(state, stages))
        if program is not None:
            state.edits.append((node.start_byte, node.end_byte, program))
            return
    if kind in _USES:
        if _use(state, node):
            return
    elif kind == "for_statement":
        name = node.child_by_field_name("variable")
        if name is not None:
            state.scalars[_text(name)] = None
    for child in node.children:
        _visit(state, child)
    if kind == "command":
        _command_effects(state, node)


def _use(state: _State, node: Node) -> bool:
    """Replace a use whose value is known (True); a substitution not known is walked."""
    if _every_item(state, node):
        return True
    value = _value(state, node, at_start=False)
    before = node.prev_sibling
    if value is None and _text(node) in _PIDS and before is not None and _text(before).endswith("/proc/"):
        value = "self"  # /proc/$$/environ: a process of this session, as /proc/self
    if value is None:
        return False
    lines = spelled(value)
    if lines is not None:  # a line of a file: "$(cat F)"
        state.edits.append((node.start_byte, node.end_byte, lines[1:-1] if _in_string(node) else lines))
        return True
    start = _word_start(node)
    if value.startswith(HOME_MARK) and not start and (begin := _climbs_to_root(state, node)) is not None:
        inside = node.parent is not None and node.parent.type == "string"
        rest = quoted_text(value[1:], False) if inside else unquoted_text(value[1:], False)
        state.edits.append((begin, node.end_byte, ('"$HOME' if inside else '"$HOME"') + rest))
        return True  # /tmp/../$HOME: the home folder itself
    if value == PWD_MARK and start and node.type == "command_substitution":
        state.edits.append((node.start_byte, node.end_byte, "."))  # $(pwd): the working directory
        return True
    if (value == HOME_MARK and start and _text(node) in ("$HOME", "${HOME}")) or value == PWD_MARK:
        return True  # $HOME / $PWD as written: nothing to resolve
    if PWD_MARK in value[1:] or (value.startswith(PWD_MARK) and not start):
        return True  # the working directory inside a word: no spelling of it here
    quoted = node.parent is not None and node.parent.type == "string"
    text = quoted_text(pwd_spelled(value), start) if quoted else unquoted_text(pwd_spelled(value), start)
    state.edits.append((node.start_byte, node.end_byte, text))
    return True


def _every_item(state: _State, node: Node) -> bool:
    """``"${x[@]}"`` (a whole quoted word) of an array the source spells out: each item its own
    word, as bash gives them (``x=(cat ~/.pypirc); "${x[@]}"`` runs ``cat ~/.pypirc``)."""
    inner = node.named_children[0] if node.type == "expansion" and node.named_child_count == 1 else None
    if inner is None or inner.type != "subscript" or node.child_count != 3:
        return False
    base, index = inner.child_by_field_name("name"), inner.child_by_field_name("index")
    items = state.arrays.get(_text(base)) if base is not None else None
    whole = node.parent
    if items is None or index is None or _text(index) != "@" or whole is None or whole.type != "string":
        return False
    if whole.named_child_count != 1 or _text(whole) != f'"{_text(node)}"':
        return False
    text = " ".join(f'"{quoted_text(pwd_spelled(v), True)}"' for v in items) or "''"
    state.edits.append((whole.start_byte, whole.end_byte, text))
    return True


def _in_string(node: Node) -> bool:
    return node.parent is not None and node.parent.type == "string"


def _word_start(node: Node) -> bool:
    """Whether ``node`` begins the word it is part of."""
    cur = node
    while cur.parent is not None and cur.parent.type in ("string", "concatenation"):
        prev = cur.prev_sibling
        if prev is not None and not (cur.parent.type == "string" and prev.type == '"'):
            return False
        cur = cur.parent
    return True


def _climbs_to_root(state: _State, node: Node) -> int | None:
    """Where the word holding ``node`` begins, when all it spells before ``node`` is a literal
    path that climbs back to ``/`` (``/tmp/../$HOME``: ``//home`` is ``/home``), else None."""
    word = node
    while word.parent is not None and word.parent.type in ("string", "concatenation"):
        word = word.parent
    prefix = state.src[word.start_byte : node.start_byte].decode("utf-8", "replace")
    literal = prefix.replace('"', "").replace("'", "")
    if not literal.startswith("/") or any(c in literal for c in "$`\\*?[{~"):
        return None
    return word.start_byte if posixpath.normpath(literal) in ("/", "//") else None


def _assignment(state: _State, node: Node) -> None:
    name_node = node.child_by_field_name("name")
    value_node = node.child_by_field_name("value")
    if name_node is None or name_node.type != "variable_name":
        return
    name = _text(name_node)
    state.listed.pop(name, None)
    appends = any(not c.is_named and _text(c) == "+=" for c in node.children)
    if value_node is not None:
        _visit(state, value_node)
    if value_node is not None and value_node.type == "array":
        items = [_value(state, c, at_start=True) for c in value_node.named_children]
        known = [v for v in items if v is not None]
        if appends or len(known) != len(items):
            state.arrays.pop(name, None)
            state.scalars[name] = None
            return
        state.arrays[name] = known
        state.scalars[name] = known[0] if known else ""
        return
    value = "" if value_node is None else _value(state, value_node, at_start=True)
    if appends:
        old = state.scalars.get(name)
        value = None if old is None or value is None else old + value
    state.arrays.pop(name, None)
    state.scalars[name] = value


def _command_effects(state: _State, node: Node) -> None:
    """What a builtin assigns: ``read``, ``set --``, ``printf -v``, ``mapfile``…"""
    words = [c for c in node.children if c.is_named and not c.type.endswith("redirect")]
    values = [_value(state, w, at_start=True) for w in words]
    if not values or values[0] is None:
        return
    program = values[0]
    here = next((c for c in node.children if c.type == "herestring_redirect"), None)
    data = _value(state, here.named_children[-1], True) if here is not None and here.named_children else None
    listing = read_from(node.parent, state.src) if node.parent is not None else None
    if program in ("read", "mapfile", "readarray") and listing is not None and data is None:
        _lines_of(state, program, values[1:], listing)
    elif program == "read":
        _read(state, values[1:], data)
    elif program == "set" and values[1:2] == ["--"]:
        for i, v in enumerate(values[2:], start=1):
            state.scalars[str(i)] = v
    elif program == "printf" and values[1:2] == ["-v"] and len(values) > 3 and values[2] is not None:
        args = [a for a in values[3:] if a is not None]
        state.scalars[values[2]] = run_pure(["printf", *args], None) if len(args) == len(values) - 3 else None
    elif program == "env":
        _env_chdir(state, node, words, values)
    elif program in ("mapfile", "readarray", "getopts", "select"):
        for v in values[1:]:
            if v is not None and not v.startswith("-"):
                state.scalars[v] = None


def _env_chdir(state: _State, node: Node, words: list[Node], values: list[str | None]) -> None:
    """``env --chdir=DIR CMD`` / ``env -C DIR CMD`` runs CMD in DIR: as ``cd DIR && env CMD``."""
    for i, v in enumerate(values[1:], start=1):
        if v is None or not v.startswith("-") or v == "--":
            return
        folder, taken = (v[8:], [i]) if v.startswith("--chdir=") else (None, [])
        if v in ("-C", "--chdir") and i + 1 < len(values):
            folder, taken = values[i + 1], [i, i + 1]
        if folder:
            state.edits.append(
                (node.start_byte, node.start_byte, f"cd {unquoted_text(pwd_spelled(folder))} && ")
            )
            state.edits.extend((words[k].start_byte, words[k].end_byte, "") for k in taken)
            return


def _lines_of(state: _State, program: str, args: list[str | None], listing: str) -> None:
    """``mapfile -t NAME < F``, ``read -r NAME < F``: NAME holds lines of F (any other option,
    or several names, and it is unknown)."""
    names = [v for v in args if v is not None and not v.startswith("-")]
    plain = all(v in ("-r", "-t") for v in args if v is None or v.startswith("-"))
    if program != "read" and not names:
        names = ["MAPFILE"]
    for name in names:
        state.scalars[name] = None
        state.arrays.pop(name, None)
        state.listed.pop(name, None)
    if plain and len(names) == 1:
        state.listed[names[0]] = listing


def _read(state: _State, args: list[str | None], data: str | None) -> None:
    """``read [-r] NAME… <<< DATA``: each NAME a field of DATA (the last one the rest)."""
    names = [v for v in args if v is not None and not v.startswith("-")]
    known = data is not None and all(v in _READ_OPTIONS for v in args if v is None or v.startswith("-"))
    fields = (data or "").split(None, max(len(names) - 1, 0)) if known else []
    for i, name in enumerate(names):
        state.scalars[name] = fields[i] if i < len(fields) else None


def _value(state: _State, node: Node, at_start: bool) -> str | None:
    """The text bash makes of ``node`` with the values known here, or None."""
    kind = node.type
    if kind == "command_name" and node.named_children:
        return _value(state, node.named_children[0], at_start)
    if kind in ("word", "number"):
        text = _text(node)
        if at_start and text.startswith("~") and (text == "~" or text.startswith("~/")):
            rest = decode(node, state.src)[0].value
            return None if rest is None else HOME_MARK + rest[1:]
        if at_start and _ROOT_HOME.match(text):
            rest = decode(node, state.src)[0].sketch
            return None if DYN in rest else "/root" + rest[5:]
        word = decode(node, state.src)[0]
        return None if word.value is None or word.glob else word.value
    if kind == "raw_string":
        return _text(node)[1:-1]
    if kind == "ansi_c_string":
        return decode_ansi_c(_text(node)[2:-1])
    if kind == "string":
        return _string(state, node)
    if kind == "concatenation":
        parts = [_value(state, c, at_start and i == 0) for i, c in enumerate(node.named_children)]
        return None if None in parts else "".join(p for p in parts if p is not None)
    if kind in ("simple_expansion", "expansion"):
        return _expanded(state, node)
    if kind == "command_substitution":
        out = _substituted(state, node)
        return None if out is None else out.rstrip("\n")
    return None


def _string(state: _State, node: Node) -> str | None:
    parts: list[str] = []
    for child in node.named_children:
        if child.type == "string_content":
            word = decode(child, state.src)[0]
            if word.value is None:
                return None
            parts.append(word.value)
        else:
            value = _value(state, child, at_start=False)
            if value is None:
                return None
            parts.append(value)
    return "".join(parts)


def _expanded(state: _State, node: Node) -> str | None:
    """``$x``, ``${x}``, ``$1``, ``${x[N]}``; HOME is the home folder."""
    named = node.named_children
    if len(named) != 1 or (node.type == "expansion" and node.child_count != 3):
        return None
    inner = named[0]
    if inner.type == "variable_name":
        name = _text(inner)
        if name in ("HOME", "PWD") and name not in state.scalars:
            return HOME_MARK if name == "HOME" else PWD_MARK
        if name in state.listed and state.scalars.get(name) is None:
            return LIST_MARK + state.listed[name]
        return state.scalars.get(name)
    if inner.type == "subscript":
        base, index = inner.child_by_field_name("name"), inner.child_by_field_name("index")
        listing = state.listed.get(_text(base)) if base is not None and index is not None else None
        if listing is not None and index is not None and _text(index) in ("@", "*", "0"):
            return LIST_MARK + listing  # "${f[@]}": every line
        if base is None or index is None or not _text(index).isdigit():
            return None
        items = state.arrays.get(_text(base))
        at = int(_text(index))
        return items[at] if items is not None and at < len(items) else None
    return None


def _substituted(state: _State, node: Node) -> str | None:
    """The output of ``$(…)`` when it is one pure command or a pipeline of them."""
    body = [c for c in node.named_children if c.type != "comment"]
    if len(body) != 1:
        return None
    stages = body[0].named_children if body[0].type == "pipeline" else [body[0]]
    return _pipeline_output(state, stages)


def _pipeline_output(state: _State, stages: list[Node]) -> str | None:
    """What a pipeline of pure commands prints (None when a stage is not one)."""
    data: str | None = None
    for stage in stages:
        if stage.type != "command":
            return None
        argv: list[str] = []
        for child in stage.named_children:
            if child.type == "herestring_redirect":
                here = _value(state, child.named_children[-1], True) if child.named_children else None
                if here is None:
                    return None
                data = here + "\n"
                continue
            if child.type == "command_name":
                child = child.named_children[0] if child.named_children else child
            value = _value(state, child, at_start=True)
            if value is None or child.type.endswith("redirect"):
                return None
            argv.append(value)
        data = run_pure(argv, data) if argv[:1] != ["find"] else find_output(argv)
        if data is None:
            return None
    return data


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")
