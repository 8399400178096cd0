"""What an ``xargs`` stage is fed: the files a lister prints (``shell/listers.py``), below a
folder it names, or the literal words an ``echo`` or a here-string gives it.

``echo WORDS | xargs CMD`` is fed exactly those words (when none holds a quote or a backslash,
which xargs would interpret): ``echo ~ | xargs rm -rf`` is ``rm -rf ~``; so is ``xargs CMD``
whose stdin is a literal here-string or heredoc (``xargs cat <<< ~/.pgpass``).

``fed_stdin``: a command run with data on its stdin (the exec tool's ``stdin``) is the command
with that data as a here-string of the whole line, so what reads it (``bash``, ``python3 -``,
``xargs cat``) is decided on it.
"""

from __future__ import annotations

from bastion.shell.listers import listed_folder
from bastion.shell.parser import parse
from bastion.shell.walk_model import RawCommand, Redirect


def fed_folder(stages: list[RawCommand | None], xargs_at: int) -> str | None:
    """The folder below which every argument ``stages[xargs_at]`` (an ``xargs``) receives
    is a file, or None. ``None`` in ``stages`` is a stage that is not one plain command."""
    return listed_folder([_literal(stage) for stage in stages[:xargs_at]])


#: Shells that read their program from stdin when given no script (``cat F | sh``).
_STDIN_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"})


def fed_script(stages: list[RawCommand | None], at: int) -> str | None:
    """The file a shell stage runs when the stage before it is ``cat FILE`` and the shell
    takes its program from stdin (``cat scripts/dump.sh | sh``): it runs that file as
    ``sh FILE`` would."""
    shell, before = stages[at], _literal(stages[at - 1]) if at else None
    if shell is None or shell.redirects or not shell.words or before is None:
        return None
    if shell.words[0].value not in _STDIN_SHELLS or any(w.value not in ("-s", "-") for w in shell.words[1:]):
        return None
    return before[1] if len(before) == 2 and before[0] == "cat" and not before[1].startswith("-") else None


def fed_words(stages: list[RawCommand | None], xargs_at: int) -> tuple[str, ...] | None:
    """The words an ``echo`` of literal words right before ``stages[xargs_at]`` feeds it."""
    values = _literal(stages[xargs_at - 1]) if xargs_at else None
    if values is None or values[0] != "echo" or any(v.startswith("-") for v in values[1:]):
        return None
    if any(c in v for v in values[1:] for c in "'\"\\"):
        return None
    return tuple(" ".join(values[1:]).split())


#: ls options that keep its output one bare name per line of one folder's entries.
_LS_NAMES = frozenset({"-1", "-A", "-a", "-U", "--color=never", "--almost-all", "--all"})


def fed_entries(stages: list[RawCommand | None], xargs_at: int) -> tuple[str, bool] | None:
    """The folder whose entries' names ``ls DIR`` right before ``stages[xargs_at]`` feeds it,
    and whether hidden ones are among them (``ls -A ~ | xargs -I{} rm -rf ~/{}``)."""
    values = _literal(stages[xargs_at - 1]) if xargs_at else None
    if values is None or values[0] != "ls":
        return None
    options = [v for v in values[1:] if v.startswith("-")]
    folders = [v for v in values[1:] if not v.startswith("-")]
    if len(folders) > 1 or any(o not in _LS_NAMES for o in options):
        return None
    return (folders or ["."])[0], any(o in ("-A", "-a", "--almost-all", "--all") for o in options)


def stdin_words(data: Redirect | None) -> tuple[str, ...] | None:
    """The words a literal here-string or heredoc gives xargs (None: not known, or words
    xargs would interpret: quotes, backslashes; a heredoc's ``~`` is no home)."""
    if data is None or data.body is None or not data.body_literal:
        return None
    words = tuple(data.body.split())
    if any(c in w for w in words for c in "'\"\\") or (
        data.op != "<<<" and any(w.startswith("~") for w in words)
    ):
        return None
    return words


def fed_stdin(command: str, data: str) -> str:
    """``command`` run with ``data`` on its stdin, as one shell source. A simple command gets
    it as an ANSI-C quoted here-string (exact for any data; one already reading a redirection
    keeps it); anything else as a quoted heredoc of a group holding the whole command, which
    every command of it reads (data the parser cannot take there stays undecidable: asked)."""
    body = data[:-1] if data.endswith("\n") else data
    root = parse(command.encode("utf-8")).root_node
    if root.named_child_count == 1 and root.named_children[0].type == "command" and not root.has_error:
        if any(c.type.endswith("redirect") for c in root.named_children[0].children):
            return command
        return f"{command} <<< $'{''.join(ansi_c(ch) for ch in body)}'"
    tag = "BASTION_STDIN"
    lines = set(data.splitlines())
    while tag in lines:
        tag += "_"
    return f"{{ {command}\n}} <<'{tag}'\n{body}\n{tag}\n"


def ansi_c(ch: str) -> str:
    """One character as it is spelled inside ``$'…'``."""
    if ch in "\\'":
        return "\\" + ch
    if ch.isprintable() or ch == " ":
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x80 else f"\\U{code:08x}"


def _literal(stage: RawCommand | None) -> list[str] | None:
    if stage is None or stage.kind != "command" or stage.assigns or stage.redirects:
        return None
    values = [w.value for w in stage.words]
    if not values or any(v is None or (w.glob and v) for v, w in zip(values, stage.words, strict=True)):
        return None
    return [v for v in values if v is not None]
