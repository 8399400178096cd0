"""Programs that read an option or start-up file from the directory they run in, whose
options make them write, run or load what the file says: with such a file present the
program is no plain reader, whatever its arguments.

From the tools' manuals:
- valgrind(1) "Setting Default Options": ``./.valgrindrc`` (after ``~/.valgrindrc`` and
  ``$VALGRIND_OPTS``): any option, ``--log-file=`` (truncates what it names), ``--vgdb``…
- gdb(1) "Startup": ``./.gdbinit`` and ``./.gdbearlyinit`` run gdb commands (``shell``,
  ``python``); refused unless auto-load allows the directory, which the person's own
  ``~/.gdbinit`` may do (``set auto-load safe-path /``).
- lldb(1): ``./.lldbinit`` (run when ``target.load-cwd-lldbinit`` allows it).
- ack(1) "ACKRC LOCATION SEMANTICS": a project ``.ackrc`` in the working directory or any
  parent (``--pager=`` runs a program).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RcFile:
    name: str  # relative to the directory it is looked for in
    parents: bool = False  # looked for in the parents of the working directory too
    why: str = ""


CWD_RC_FILES: dict[str, tuple[RcFile, ...]] = {
    "valgrind": (RcFile(".valgrindrc", why="any option (--log-file= truncates a file)"),),
    "gdb": (
        RcFile(".gdbinit", why="gdb commands (shell, python) when auto-load allows them"),
        RcFile(".gdbearlyinit", why="gdb commands when auto-load allows them"),
    ),
    "lldb": (RcFile(".lldbinit", why="lldb commands when target.load-cwd-lldbinit allows them"),),
    "ack": (RcFile(".ackrc", parents=True, why="any option (--pager= runs a program)"),),
}


def cwd_rc_files(program: str | None) -> tuple[RcFile, ...]:
    """The option files ``program`` reads from where it runs (none for most programs)."""
    return CWD_RC_FILES.get(program or "", ())
