"""Tools of one program that are another program: ``cmake -E rm -rf DIR`` is ``rm -rf DIR``;
and arguments that are more arguments: ``gcc @args.rsp`` is gcc given the file's words.

CMake's command mode (``cmake -E <command>``, from ``cmake -E --help`` and the cmake(1) manual)
carries portable copies of the file utilities, so a build's scripts can delete, copy and
rename without a shell. Each command is decided as the utility it copies; a command not in
the table leaves ``cmake`` to its own entry (a build tool: unknown code, or the environment
printer ``cmake -E environment``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bastion.shell.model import Access
from bastion.shell.words import literal_word

if TYPE_CHECKING:
    from bastion.shell.ctx import Ctx

#: ``cmake -E`` command -> the words of the utility it is (its own arguments follow).
CMAKE_COMMANDS: dict[str, tuple[str, ...]] = {
    "rm": ("rm",),  # rm [-rRf] [--] <file|dir>...
    "remove": ("rm", "-f"),  # remove [-f] <file>... (deprecated): never fails on a missing file
    "remove_directory": ("rm", "-rf"),
    "copy": ("cp",),
    "copy_if_different": ("cp",),
    "copy_directory": ("cp", "-r"),
    "copy_directory_if_different": ("cp", "-r"),
    "rename": ("mv",),
    "make_directory": ("mkdir", "-p"),
    "create_symlink": ("ln", "-s"),
    "create_hardlink": ("ln",),
    "touch": ("touch",),
    "touch_nocreate": ("touch", "-c"),
    "cat": ("cat",),
    "echo": ("echo",),
    "echo_append": ("echo", "-n"),
    "md5sum": ("md5sum",),
    "sha1sum": ("sha1sum",),
    "sha224sum": ("sha224sum",),
    "sha256sum": ("sha256sum",),
    "sha384sum": ("sha384sum",),
    "sha512sum": ("sha512sum",),
    "tar": ("tar",),
    "sleep": ("sleep",),
    "true": ("true",),
    "false": ("false",),
    "env": ("env",),  # env [--unset=var] [var=value] [--] <cmd>: env's own syntax
    "chdir": ("env", "--chdir"),  # chdir <dir> <cmd> [<arg>...]: runs cmd in dir
}


def as_utility(ctx: Ctx) -> bool:
    """Turn ``ctx``'s words into the utility's when they are a program's copy of one
    (``cmake -E rm -rf X`` → ``rm -rf X``, noted as a wrapper looked through); True then."""
    tool = cmake_tool([w.value for w in ctx.words]) if ctx.program == "cmake" else None
    if tool is None:
        return False
    utility, replaced = tool
    ctx.wrappers.append("cmake -E")
    ctx.words = [*(literal_word(w) for w in utility), *ctx.words[replaced:]]
    return True


def cmake_tool(argv: Sequence[str | None]) -> tuple[tuple[str, ...], int] | None:
    """For ``cmake -E COMMAND ARGS…`` whose command copies a utility: (the utility's words,
    how many words of ``argv`` they replace); else None."""
    if len(argv) < 3 or argv[1] != "-E" or argv[2] is None:
        return None
    words = CMAKE_COMMANDS.get(argv[2])
    return None if words is None else (words, 3)


#: Programs that read more of their arguments from ``@FILE`` (a response file: GCC's and
#: Clang's manuals, javac's, GNU ld's, ar's): the file's words are theirs, decided as if
#: written on the command line (``gcc @args.rsp`` holding ``-E -x c ~/.netrc`` prints it).
RESPONSE_FILE_PROGRAMS = frozenset(
    {"gcc", "g++", "cc", "c++", "cpp", "clang", "clang++", "clang-cpp", "tcc", "ld", "ld.bfd", "ld.gold",
     "ld.lld", "ar", "javac", "java", "objdump", "nm", "strip", "objcopy", "as"}
)  # fmt: skip


def response_files(ctx: Ctx) -> None:
    """Each ``@FILE`` argument of a program that reads one: program text of language "args"
    (``policy/script_files.py`` reads it and decides the program given its words)."""
    if ctx.program not in RESPONSE_FILE_PROGRAMS:
        return
    for word in ctx.words[1:]:
        value = word.value
        if value is not None and value.startswith("@") and len(value) > 1:
            name = literal_word(value[1:])
            ctx.path(name, Access.READ, f"{ctx.program} response file", runs=f"args:{ctx.program}")
