"""The session's shell prompt and the lines it accepts.

The shell prints a prompt carrying a random nonce, the last exit status and its ``set -o``
options; the pump strips it from the output (a plain ``$ `` is shown instead) and counts
it: a new prompt means the line sent before it finished. The nonce keeps ordinary output
from looking like a prompt. It is not a secret from the agent (``echo "$PS1"`` shows it):
whether the shell is idle is also checked in /proc before a line is typed (``session.py``),
and the exit status a prompt reports (recorded in the ledger) is the shell's word for it.

The options are checked at every prompt, because they change how the *next* line is read:
``set -H`` (allowed for a one-off command, where it changes nothing) turns on ``!`` history
expansion, and ``cat !$`` would then read a file the gate never saw. A prompt showing an
option outside ``SAFE_OPTIONS`` closes the session before another line is typed; a forged
prompt cannot hide it, since the shell prints its real one after every line.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable

#: ``set -o`` options under which a line still runs as the gate read it (the session's
#: start: braceexpand, hashall, interactive-comments; and the ones that only make the
#: shell stricter, louder or exit). Not: histexpand, history, emacs, vi, posix, keyword...
SAFE_OPTIONS = frozenset({
    "braceexpand", "hashall", "interactive-comments", "errexit", "nounset", "xtrace", "verbose",
    "pipefail", "noglob", "notify", "physical", "ignoreeof", "noclobber", "errtrace", "functrace",
})  # fmt: skip
#: The longest prompt value held back while it may still be arriving.
_LONGEST = 400


class PromptTracker:
    """Reads prompt markers out of the terminal output (fed by the pump thread, read by
    the tool under the process's lock)."""

    def __init__(self, nonce: str | None = None) -> None:
        self.nonce = nonce or secrets.token_hex(8)
        self._head = f"<bastion:{self.nonce}:".encode("ascii")
        self._marker = re.compile(re.escape(self._head) + rb"(?:(\d{1,3}):([a-z:-]*)|more)>")
        self._carry = b""
        self.prompts = 0
        self.exit_code: int | None = None
        #: Why the session must not take another line ("" while it may).
        self.refused = ""
        #: Called (by the pump) when ``refused`` is first set.
        self.on_refused: Callable[[], None] = lambda: None

    @property
    def env(self) -> dict[str, str]:
        """The prompt variables: bash expands ``$?`` and ``$SHELLOPTS`` at each prompt."""
        return {"PS1": f"<bastion:{self.nonce}:$?:$SHELLOPTS>", "PS2": f"<bastion:{self.nonce}:more>"}

    def rc_text(self) -> str:
        """The shell's start-up file: the prompts, and every variable that runs or finds
        commands (or would turn line editing back on) made read-only. For a one-off command
        ``for PROMPT_COMMAND in 'x'; do :; done`` changes nothing; in a session it would run
        ``x`` before every prompt, undecided (and ``let PATH=1`` would make ``ls`` run
        ``./1/ls``). A read-only variable can never be set or unset again."""
        fixed = {**self.env, "PS0": "", "PS4": "+ ", "PROMPT_COMMAND": "", "BASH_ENV": "",
                 "ENV": "", "CDPATH": "", "EXECIGNORE": "", "MAILPATH": "", "MAIL": "",
                 "INPUTRC": "/dev/null"}  # fmt: skip
        values = " ".join(f"{name}='{value}'" for name, value in fixed.items())
        return f"readonly {values} PATH HOME\n"

    def feed(self, chunk: bytes) -> bytes:
        """``chunk`` with every prompt replaced by ``$ ``; a marker cut between two
        chunks is held back until the rest arrives."""
        data = self._carry + chunk
        out = bytearray()
        pos = 0
        for match in self._marker.finditer(data):
            out += data[pos : match.start()]
            pos = match.end()
            if match.group(1) is None:
                self.refuse("the shell waited for a continuation line, which would run without "
                             "being decided as part of the whole command")  # fmt: skip
                out += b"> "
                continue
            self.prompts += 1
            self.exit_code = int(match.group(1))
            unsafe = sorted(set(match.group(2).decode("ascii").split(":")) - SAFE_OPTIONS - {""})
            if unsafe:
                self.refuse(f"the shell's options changed ({', '.join(unsafe)}): the next line "
                             "would not be read as it was decided")  # fmt: skip
            out += b"$ "
        rest = data[pos:]
        cut = self._partial(rest)
        self._carry = rest[cut:]
        return bytes(out + rest[:cut])

    def refuse(self, why: str) -> None:
        """No more lines for this session, because ``why`` (the first reason stays)."""
        if not self.refused:
            self.refused = why
            self.on_refused()

    def _partial(self, rest: bytes) -> int:
        """Where a marker that may still be completing starts in ``rest`` (else its length)."""
        start = rest.rfind(b"<")
        if start < 0:
            return len(rest)
        tail = rest[start:]
        if len(tail) <= len(self._head):
            return start if self._head.startswith(tail) else len(rest)
        value = tail[len(self._head) :]
        still = re.fullmatch(rb"\d{1,3}(:[a-z:-]*)?|\d{0,3}|m|mo|mor|more", value)
        if tail.startswith(self._head) and still and len(value) <= _LONGEST:
            return start
        return len(rest)


def line_problem(text: str, max_bytes: int) -> str | None:
    """Why ``text`` cannot be typed as one line, or None.

    Only one whole line goes to the shell, so that what runs is exactly what was decided:
    - no control characters but one final newline: a tab, ^C, ^D, ^U, ^V, DEL or an escape
      sequence is an editing command to the terminal or the program, not text, and would
      change the line after the gate saw it (or type a second, undecided line);
    - no heredoc and no trailing backslash: the shell would wait for continuation lines,
      and each would run without being decided as part of the whole command;
    - no longer than the terminal's line buffer, which would cut it silently.
    """
    line = text[:-1] if text.endswith("\n") else text
    if not line.strip():
        return "nothing to type: the line is empty"
    for char in line:
        if unicodedata.category(char) == "Cc":
            return f"control character {char!r} refused: send one line of text"
    if re.search(r"(?<!<)<<(?!<)", line):
        return "a heredoc (<<) is refused: its body would be typed as lines that are never decided"
    if line.endswith("\\"):
        return "a trailing backslash is refused: the continuation line would never be decided"
    if len(line.encode("utf-8")) > max_bytes:
        return f"the line is longer than {max_bytes} bytes"
    return None
