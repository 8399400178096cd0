"""Shell builtins that assign, evaluate or change the shell (handler ``builtin``).

Each one is a pure reader only in the forms listed here (listing, querying, ordinary
variables); any other flag or form assigns a special variable, defines code (trap, alias,
mapfile -C) or changes how later words expand, so it is not a pure reader. Knowledge as
data: the flags each builtin knows, and which of them only read.
"""

from __future__ import annotations

from bastion.shell.model import Access
from bastion.shell.programs.spec import READ, WRITE, FlagRule, Spec, fs

#: bash's reserved words (bash(1), RESERVED WORDS): one in a command's place, unquoted, is
#: grammar a parse lost, never a program.
RESERVED_WORDS = frozenset(
    {"!", "case", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select",
     "then", "until", "while", "{", "}"}
)  # fmt: skip

#: builtin -> (options taking a value, options without one). Anything else is unknown.
OPTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "read": (fs("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"), fs("-e", "-r", "-s")),
    "mapfile": (fs("-d", "-n", "-O", "-s", "-u", "-C", "-c"), fs("-t")),
    "compgen": (
        fs("-A", "-G", "-W", "-X", "-P", "-S", "-o", "-C", "-F", "-V"),
        fs("-a", "-b", "-c", "-d", "-e", "-f", "-g", "-j", "-k", "-s", "-u", "-v"),
    ),
    "hash": (fs("-p", "-d", "-t"), fs("-l", "-r")),
    "enable": (fs("-f", "-d"), fs("-a", "-n", "-p", "-s")),
    "shopt": ((fs()), fs("-p", "-q", "-s", "-u", "-o")),
    "trap": (fs(), fs("-l", "-p", "-P")),
    "alias": (fs(), fs("-p")),
}
OPTIONS["readarray"] = OPTIONS["mapfile"]
#: `set` letters that only change error handling and tracing (`set -euo pipefail`).
SET_LETTERS = frozenset("euxvfCEThbmnBHP")
#: `set -o NAME` options of the same kind.
SET_OPTIONS = fs(
    "errexit",
    "nounset",
    "xtrace",
    "verbose",
    "pipefail",
    "noglob",
    "noclobber",
    "errtrace",
    "functrace",
    "noexec",
    "hashall",
    "notify",
    "monitor",
    "braceexpand",
    "histexpand",
    "physical",
    "ignoreeof",
    "vi",
    "emacs",
    "history",
    "interactive-comments",
)
#: declare/typeset/local/readonly/export flags that only list.
DECLARE_LISTING = fs("-p", "-f", "-F")
#: Shell variables `read`/`mapfile` must not assign (they change the shell or programs).
SPECIAL_TARGETS = fs(
    "PATH",
    "HOME",
    "CDPATH",
    "ENV",
    "BASH_ENV",
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "HISTFILE",
    "GLOBIGNORE",
    "EXECIGNORE",
    "IFS",
    "BASH_CMDS",
    "BASH_ALIASES",
    "FUNCNEST",
    "TMPDIR",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
)

_BUILTIN = Spec(READ, reader=True, handler="builtin")

PROGRAMS: dict[str, Spec] = {
    n: _BUILTIN
    for n in (
        "read", "mapfile", "readarray", "compgen", "hash", "enable", "shopt", "trap", "alias",
        "set", "declare", "typeset", "local", "readonly", "export",
    )
}  # fmt: skip
# `let` evaluates arithmetic (the classifier checks the names it reads); `unset` runs nothing.
PROGRAMS["let"] = Spec(READ, reader=True)
PROGRAMS["unset"] = Spec(READ, reader=True)
# bash's `history`: -w FILE writes the session's history over FILE (-a appends to it), -r / -n
# FILE read one into it; the list it prints is this shell's own (empty in a non-interactive one).
_HISTORY_WRITES = FlagRule(WRITE, args=Access.WRITE, note="history -w / -a writes the file it names")
PROGRAMS["history"] = Spec(
    READ,
    reader=True,
    args=Access.READ,
    takes_value=fs("-d"),
    flags={"-w": _HISTORY_WRITES, "-a": _HISTORY_WRITES},
)
