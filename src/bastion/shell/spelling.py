"""Shell text that spells a value the classifier worked out (``shell/resolve.py``): the text
put in place of ``$f`` or ``$(…)`` so the command is classified as it will run. The home
folder (``HOME_MARK``) is spelled as the classifier itself spells it, globs are kept live,
everything else quoted."""

from __future__ import annotations

import shlex

from bastion.shell.pure_eval import HOME_MARK, PWD_MARK

_GLOB = frozenset("*?[")


def pwd_spelled(value: str) -> str:
    """``value`` with the working directory's mark spelled ``.``."""
    return "." + value[1:] if value.startswith(PWD_MARK) else value


def unquoted_text(value: str, start: bool = True) -> str:
    """Shell text that expands to ``value`` unquoted: split into words, globs kept; the home
    folder is ``"$HOME"`` where it begins a word, else ``~`` (the classifier's own spelling
    of home, as in ``dd if=$HOME/x``)."""
    if not value.strip():
        return "''"
    return " ".join(_field(f, start or i > 0) for i, f in enumerate(value.split()))


def _field(text: str, start: bool) -> str:
    out: list[str] = []
    plain: list[str] = []
    for i, ch in enumerate(text):
        if ch == HOME_MARK or ch in _GLOB:
            if plain:
                out.append(shlex.quote("".join(plain)))
                plain = []
            out.append(('"$HOME"' if i == 0 and start else "~") if ch == HOME_MARK else ch)
        else:
            plain.append(ch)
    if plain:
        out.append(shlex.quote("".join(plain)))
    return "".join(out)


def quoted_text(value: str, start: bool = True) -> str:
    """Text inside double quotes that expands to ``value`` (home as in ``unquoted_text``)."""
    escaped = "".join("\\" + c if c in '\\$`"' else c for c in value)
    if start and escaped.startswith(HOME_MARK):
        escaped = "$HOME" + escaped[1:]
    return escaped.replace(HOME_MARK, "~")
