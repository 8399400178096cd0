"""A shell whose program a pure pipeline prints: ``echo Y2F0IH4vLm5ldHJj | base64 -d | sh``
runs ``cat ~/.netrc``, as ``source <(echo cat ~/.netrc)`` and ``bash <(printf …)`` do. Where
the pipeline's output is worked out exactly (``pure_eval``), the command is spelled as the
``sh -c PROGRAM`` it is (``shell/resolve.py`` puts the spelling in its place), so the program
is classified like any shell string. A shell with options of its own, or a stage that is not
pure, is left as it is: its program is only known at run time."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from tree_sitter import Node

from bastion.shell.feeds import ansi_c
from bastion.shell.list_vars import LIST_MARK
from bastion.shell.pure_eval import HOME_MARK, PWD_MARK

#: A pipeline into a shell, or into an interpreter given no script (only then does it run
#: its stdin: ``| python3 -m json.tool`` needs no second parse), or a process substitution
#: (``<(…)``) a shell may run.
_FEEDS = re.compile(
    rb"\|\s*(?:/usr)?(?:/bin/)?(?:ba|da|z|k)?sh\b|<\("
    rb"|\|\s*(?:/usr)?(?:/bin/)?(?:python[0-9.]*|ruby|perl|node|nodejs|php|tclsh|wish|lua)"
    rb"[ \t]*(?:-[ \t]*)?(?:$|[;&|)\n])",
    re.MULTILINE,
)
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})
#: Interpreters that run the program their stdin gives when given no script: a pure
#: pipeline into one (``echo 'puts $env(GITHUB_TOKEN)' | tclsh``) is spelled as the
#: here-string it is, so its code is read as inline code is.
INTERPRETERS = frozenset(
    {"python", "python3", "python2", "ruby", "perl", "node", "nodejs", "php", "tclsh", "wish", "lua"}
)
#: A home mark that begins a word: spelled ``~`` in the program text, as a shell expands it.
_HOME_AT_START = re.compile(f"(?:^|(?<=[\\s'\"=])){HOME_MARK}")

Output = Callable[[list[Node]], "str | None"]


def feeds_a_shell(src: bytes) -> bool:
    """May the source hold a shell fed by a pipeline or a process substitution?"""
    return _FEEDS.search(src) is not None


def shell_fed(node: Node, output: Output) -> str | None:
    """``sh -c PROGRAM`` for a pipeline into a shell or a shell running ``<(…)``, when the
    pipeline's output is known (``output`` of its stages); None otherwise."""
    if node.type == "pipeline":
        stages = [c for c in node.named_children if c.type != "comment"]
        if len(stages) < 2 or stages[-1].type != "command":
            return None
        words = [_text(c) for c in stages[-1].named_children]
        name = words[0].rpartition("/")[2] if words else ""
        if name in INTERPRETERS and all(w == "-" for w in words[1:]):
            return _here_string(name, output(stages[:-1]))
        if name not in SHELLS or not all(w in ("-s", "-") for w in words[1:]):
            return None
        return _spelled(name, output(stages[:-1]))
    parts = [c for c in node.named_children if c.type != "comment"]
    if len(parts) != 2 or parts[0].type != "command_name" or parts[1].type != "process_substitution":
        return None
    name = _text(parts[0]).rpartition("/")[2]
    if name not in SHELLS and name not in ("source", "."):
        return None
    body = [c for c in parts[1].named_children if c.type != "comment"]
    if len(body) != 1:
        return None
    stages = body[0].named_children if body[0].type == "pipeline" else [body[0]]
    return _spelled("sh" if name in ("source", ".") else name, output(stages))


def _spelled(shell: str, program: str | None) -> str | None:
    if program is None or PWD_MARK in program or LIST_MARK in program:
        return None
    program = _HOME_AT_START.sub("~", program)
    if HOME_MARK in program:
        return None  # home inside a word: not a spelling a shell would expand
    return f"{shell} -c {shlex.quote(program)}"


def _here_string(interpreter: str, program: str | None) -> str | None:
    """``INTERPRETER <<< $'PROGRAM'``: the same program on its stdin, ANSI-C quoted (exact)."""
    if program is None or PWD_MARK in program or LIST_MARK in program or HOME_MARK in program:
        return None
    body = program[:-1] if program.endswith("\n") else program
    return f"{interpreter} <<< $'{''.join(ansi_c(ch) for ch in body)}'"


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")
