"""``python -m MODULE``: the standard library modules whose command line only reads the files
it is given and prints them, or a transform of them (json.tool pretty-prints, tokenize and
shlex print every token, base64 / quopri / uu encode, dis and ast print what they parse and
quote a line they cannot), writing only the outputs their usage names. A credential given to
one is printed as surely as ``cat`` prints it: each operand is a read. Every usage below is
the module's own (``python3 -m MODULE -h``, or its ``main`` where it has no help) on Python
3.11; an option a table leaves out makes the command unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.shell.model import Access
from bastion.shell.programs.spec import fs

R, W = Access.READ, Access.WRITE


@dataclass(frozen=True, slots=True)
class ModuleOptions:
    """A read-only ``python -m`` module's usage: switches, options taking a value, what each
    positional is (the last access repeats; None: no positional), and the files it reads
    whatever it is given (``python -m netrc`` prints ``~/.netrc``)."""

    switches: frozenset[str] = frozenset()
    valued: frozenset[str] = frozenset()
    accesses: tuple[Access, ...] = ()
    repeat: bool = False
    reads: tuple[str, ...] = ()

    def positional(self, n: int) -> Access | None:
        if n < len(self.accesses):
            return self.accesses[n]
        return self.accesses[-1] if self.repeat and self.accesses else None


_HELP = fs("-h", "--help")

MODULES: dict[str, ModuleOptions] = {
    # usage: json.tool [-h] [--sort-keys] [--no-ensure-ascii] [--json-lines]
    #   [--indent INDENT | --tab | --no-indent | --compact] [infile] [outfile]
    "json.tool": ModuleOptions(
        _HELP | fs("--sort-keys", "--no-ensure-ascii", "--json-lines", "--tab", "--no-indent", "--compact"),
        fs("--indent"),
        (R, W),
    ),
    # usage: tabnanny [-v] [-q] file_or_dir ...
    "tabnanny": ModuleOptions(fs("-v", "-q"), fs(), (R,), repeat=True),
    # pydoc <name> ...: -k/-n/-p/-b/-w search, serve, browse or write HTML: not in the table.
    "pydoc": ModuleOptions(fs(), fs(), (R,), repeat=True),
    "site": ModuleOptions(fs("--user-base", "--user-site")),
    # usage: py_compile.py [-h] [-q] filenames [filenames ...]
    "py_compile": ModuleOptions(_HELP | fs("-q", "--quiet"), fs(), (R,), repeat=True),
    "sysconfig": ModuleOptions(),
    "platform": ModuleOptions(fs("--terse", "--nonaliased")),
    # usage: python -m tokenize [-h] [-e] [filename.py]  (every token, strings included)
    "tokenize": ModuleOptions(_HELP | fs("-e", "--exact"), fs(), (R,)),
    # usage: base64.py [-h|-d|-e|-u|-t] [file|-]  (getopt: only the first file is read)
    "base64": ModuleOptions(fs("-h", "-d", "-e", "-u", "-t"), fs(), (R,)),
    # usage: quopri [-t | -d] [file] ...
    "quopri": ModuleOptions(fs("-t", "-d"), fs(), (R,), repeat=True),
    # usage: uu.py [-d] [-t] [input [output]]
    "uu": ModuleOptions(_HELP | fs("-d", "--decode", "-t", "--text"), fs(), (R, W)),
    # usage: dis.py [-h] [infile]  (a file that is no Python: its SyntaxError quotes the line)
    "dis": ModuleOptions(_HELP, fs(), (R,)),
    # usage: python -m ast [-h] [-m MODE] [--no-type-comments] [-a] [-i INDENT] [infile]
    "ast": ModuleOptions(
        _HELP | fs("--no-type-comments", "-a", "--include-attributes"),
        fs("-m", "--mode", "-i", "--indent"),
        (R,),
    ),
    # shlex's main: no options; prints each token of its one file (further words ignored).
    "shlex": ModuleOptions(fs(), fs(), (R,)),
    # fileinput's _test: getopt "ib:" prints every line of every file; -i rewrites them in
    # place and -b names a backup: both left out (unknown).
    "fileinput": ModuleOptions(fs(), fs(), (R,), repeat=True),
    # netrc's main: print(netrc()), the person's ~/.netrc with its passwords, whatever given.
    "netrc": ModuleOptions(fs(), fs(), (), reads=("~/.netrc",)),
}

#: ``python -m`` modules that read the files they are given and write only the outputs their
#: usage names (json.tool's outfile; py_compile's __pycache__ beside each source).
READ_ONLY = frozenset(MODULES)
