"""Programs that print their file operands transformed (encoded, indexed, shuffled,
reformatted, macro-expanded), beyond the classic readers of ``readers``: a credential given to
one is printed as surely as ``cat`` prints it, so each operand is a read.

Options in the DSL of ``spec.opts``, each checked against the program's own ``--help`` and
manual (tests/shell/test_help_flags.py): GNU coreutils 9.1 (basenc, ptx, shuf), libxml2
2.9.14's xmllint, GNU m4 1.4.19. What a table leaves out makes the command unknown; the
files a workspace XML or m4 file pulls in are judged by the policy (policy/included_files).
"""

from __future__ import annotations

from bastion.shell.model import Access
from bastion.shell.programs.spec import CODE, Spec, reader

PROGRAMS: dict[str, Spec] = {
    "basenc": reader(),
    "ptx": reader(),
    "shuf": reader(),
    # ``xmllint http://host/x.xml`` fetches the document (libxml2's HTTP and FTP clients).
    "xmllint": reader(handler="fetching_viewer"),
    # A file operand is m4 program text, and m4 runs shell commands (syscmd, esyscmd): code,
    # as a script given to an interpreter is, whose file is still read (a credential denied).
    "m4": Spec(CODE, args=Access.READ, note="m4 runs its files as macro programs (syscmd runs a shell)"),
}

#: xmllint's options that only shape how the documents it is given are parsed or printed.
#: Left out, so unknown: those that load more than the operands (--noent, --xinclude and the
#: canonical forms --c14n* print what an external entity or an XInclude names; --loaddtd,
#: --valid, --dtdvalid, --schema, --relaxng, --schematron, --catalogs, --path fetch more),
#: --shell (its commands, read from stdin, write files), and the rarely used test modes.
_XMLLINT = (
    "--debug --recover --huge --noenc --noout --load-trace --nonet --nocompact --htmlout "
    "--nowrap --quiet --timing --repeat --compress --html --xmlout --nodefdtd --push "
    "--pushsmall --memory --maxmem= --nowarning --noblanks --nocdata --format --encode= "
    "--dropdtd --pretty= --nsclean --nocatalogs --stream --walker --sax1 --sax --oldxml10 "
    "--xpath= --pattern= -o|--output=W"
)

OPTIONS: dict[str, str] = {
    "basenc": "--base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf "
    "-d|--decode -i|--ignore-garbage -w|--wrap= --z85",
    # ptx -G takes [INPUT [OUTPUT]]: its second operand is written (not modelled: unknown).
    "ptx": "-A|--auto-reference -G|--traditional!U -F|--flag-truncation= -M|--macro-name= "
    "-O -T --format= -R|--right-side-refs -S|--sentence-regexp= -W|--word-regexp= "
    "-b|--break-file=R -f|--ignore-case -g|--gap-size= -i|--ignore-file=R "
    "-o|--only-file=R -r|--references -t|--typeset-mode -w|--width=",
    # shuf -e takes its operands as lines, not files: read anyway (only ever stricter).
    "shuf": "-e|--echo -i|--input-range= -n|--head-count= -o|--output=W --random-source=R "
    "-r|--repeat -z|--zero-terminated",
    "xmllint": _XMLLINT,
    # --debugfile[=FILE] writes where its optional value says: left out (unknown).
    "m4": "-E|--fatal-warnings -i|--interactive -P|--prefix-builtins -Q|--quiet|--silent "
    "--warn-macro-sequence? -D|--define= -I|--include=R -s|--synclines -U|--undefine= "
    "-g|--gnu -G|--traditional -H|--hashsize= -L|--nesting-limit= -F|--freeze-state=W "
    "-R|--reload-state=R -d|--debug? -l|--arglength= -t|--trace=",
}
#: xmllint has no --help (it prints its usage for any unknown option): only --version.
NO_COMMON: dict[str, str] = {"xmllint": "--version"}
