"""Coreutils-style readers and printers, text processing and search tools."""

from __future__ import annotations

from bastion.shell.model import Access
from bastion.shell.programs.spec import CODE, SYSTEM, WRITE, FlagRule, Spec, fs, printer, reader

_GREP = reader(
    lead=1,
    lead_flags=fs("-e", "-f", "--regexp", "--file"),
    takes_value=fs("-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "--regexp", "--file"),
)
_SORT_OUT = FlagRule(WRITE, value=Access.WRITE, note="sort -o writes its output file")

PROGRAMS: dict[str, Spec] = {
    **{n: reader() for n in (
        "cat", "tac", "less", "more", "wc", "ls", "dir", "vdir", "file", "stat", "du", "df",
        "diff", "cmp", "comm", "nl", "tree", "realpath", "readlink", "md5sum", "sha1sum",
        "sha256sum", "sha512sum", "b2sum", "cksum", "sum", "column", "fold", "fmt", "paste",
        "join", "expand", "unexpand", "rev", "od", "hexdump", "strings", "zcat", "bzcat",
        "xzcat", "zless", "lsof", "wc", "look", "pr", "iconv", "shasum", "base64", "base32",
        "tsort", "lsblk", "findmnt", "free", "vmstat", "uptime", "w", "who",
        "last", "getent", "ldd", "nm", "objdump", "readelf", "size", "man", "info", "tput",
        "numfmt", "factor", "bat", "batcat", "glow", "tokei", "cloc", "scc", "exa", "eza",
        "lsattr", "namei", "getfacl", "sha224sum", "sha384sum", "diff3", "sdiff", "colordiff",
        "delta", "difft", "jless", "fx", "htop", "top", "ps", "pstree", "pgrep", "pidof",
        "nproc", "arch", "lscpu", "lspci", "lsusb", "lsmod", "dmesg", "locale", "groups",
        "users", "tty", "logname", "sleep",
    )},
    **{n: printer() for n in (
        "echo", "printf", "true", "false", ":", "pwd", "which", "type", "whereis", "whoami",
        "id", "uname", "basename", "dirname", "seq", "yes", "tr", "expr", "locate",
        "mlocate", "cal", "ncal", "jobs", "wait",
        "help", "popd", "dirs", "umask", "ulimit", "getconf",
        "apropos", "whatis", "test", "[", "[[",
        "shift", "return", "exit", "break", "continue",
        "caller", "times", "disown", "bg", "fg", "suspend", "logout",
        "[[", "command", "printenv", "env",
    )},
    "find": reader(handler="find"),
    "head": reader(takes_value=fs("-n", "-c", "--lines", "--bytes")),
    "tail": reader(takes_value=fs("-n", "-c", "--lines", "--bytes", "-s", "--pid")),
    "cut": reader(takes_value=fs("-b", "-c", "-d", "-f", "--output-delimiter")),
    "uniq": reader(takes_value=fs("-f", "-s", "-w"), handler="uniq"),
    "grep": _GREP, "egrep": _GREP, "fgrep": _GREP, "zgrep": _GREP,
    "rg": reader(
        lead=1,
        recursive=True,
        lead_flags=fs("-e", "-f", "--regexp", "--file", "--files", "--type-list"),
        takes_value=fs(
            "-e", "-f", "-g", "-t", "-T", "-m", "-A", "-B", "-C", "-M", "-j", "-E", "-r",
            "--glob", "--type", "--pre", "--pre-glob", "--replace", "--max-count", "--regexp",
            "--file", "--iglob", "--type-add", "--encoding", "--max-depth", "--context",
        ),
        flags={
            "--pre": FlagRule(CODE, note="rg --pre runs a program on every file"),
            "--pre-glob": FlagRule(CODE, note="rg --pre-glob selects files for --pre"),
        },
    ),
    # ag runs `sh -c "git config … core.excludesfile"` itself: code, not a pure reader.
    "ag": Spec(CODE, args=Access.READ, lead=1, recursive=True,
               takes_value=fs("-G", "--ignore", "-A", "-B", "-C", "-m"),
               note="ag runs git config through sh to find its ignore files"),
    "ack": reader(
        lead=1,
        recursive=True,
        takes_value=fs("--pager", "-m", "-A", "-B", "-C"),
        flags={"--pager": FlagRule(CODE, note="ack --pager runs a program")},
    ),
    "jq": reader(
        lead=1,
        lead_flags=fs("-f", "--from-file", "-n", "--null-input"),
        takes_value=fs("-f", "--from-file", "--arg", "--argjson", "--slurpfile", "--rawfile",
                       "--indent", "-L"),
    ),
    "yq": reader(lead=1, lead_flags=fs("-f", "--from-file", "-n", "--null-input"),
                 flags={"-i": FlagRule(WRITE, args=Access.WRITE, note="yq -i edits in place")},
                 aliases={"--in-place": "-i"}),
    "xxd": reader(handler="uniq"),  # `xxd in out` writes out
    "sort": reader(
        takes_value=fs("-o", "-k", "-t", "-S", "-T", "--output", "--key",
                       "--field-separator", "--buffer-size", "--temporary-directory",
                       "--compress-program", "--parallel", "--files0-from"),
        aliases={"--output": "-o"},
        flags={"-o": _SORT_OUT,
               "--compress-program": FlagRule(CODE, note="sort --compress-program runs it")},
    ),
    "date": printer(takes_value=fs("-d", "--date", "-r", "--reference", "-f", "--file"),
                    flags={"-s": FlagRule(SYSTEM, note="date -s sets the system clock")},
                    aliases={"--set": "-s"}),
    "hostname": printer(handler="positional_system"),
    "sed": reader(
        lead=1,
        lead_flags=fs("-e", "-f", "--expression", "--file"),
        takes_value=fs("-e", "-f", "-l", "--expression", "--file", "--line-length"),
        aliases={"--in-place": "-i", "--expression": "-e", "--file": "-f"},
        flags={"-i": FlagRule(WRITE, args=Access.WRITE, note="sed -i edits files in place")},
        handler="sed",
    ),
    "awk": reader(lead=1, lead_flags=fs("-f", "-e"), takes_value=fs("-f", "-v", "-F"),
                  handler="awk"),
    "fd": reader(
        lead=1,
        recursive=True,
        takes_value=fs("-e", "-t", "-E", "-d", "-x", "-X", "--exec", "--exec-batch",
                       "--extension", "--type", "--exclude", "--max-depth"),
        aliases={"--exec": "-x", "--exec-batch": "-X"},
        flags={"-x": FlagRule(CODE, note="fd -x runs a command per file"),
               "-X": FlagRule(CODE, note="fd -X runs a command")},
    ),
}
for _name in ("gawk", "mawk", "nawk"):
    PROGRAMS[_name] = PROGRAMS["awk"]
for _name in ("gsed",):
    PROGRAMS[_name] = PROGRAMS["sed"]
PROGRAMS["fdfind"] = PROGRAMS["fd"]  # Debian's name for fd
for _name in ("less", "more"):
    PROGRAMS[_name] = reader(plus_unknown=True)  # `less +!cmd` runs cmd
for _name in ("echo", "test", "[", "[[", "expr"):
    PROGRAMS[_name] = printer(open_args=True)  # their words are text, not options
# cd / pushd: the target is read (and later relative paths move with it, see analyze)
PROGRAMS["cd"] = reader()
PROGRAMS["pushd"] = reader()
