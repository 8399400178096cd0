"""Interpreters and shells: inline code or a script is Effect.CODE (handler ``interpreter``)."""

from __future__ import annotations

import re

from bastion.shell.programs.spec import CODE, Spec, fs

#: Options whose value is inline code, per interpreter family.
INLINE_CODE_FLAGS: dict[str, frozenset[str]] = {
    "python": fs("-c"),
    "node": fs("-e", "--eval", "-p", "--print"),
    "perl": fs("-e", "-E"),
    "ruby": fs("-e"),
    "php": fs("-r"),
    "lua": fs("-e"),
    "deno": fs(),
    "R": fs("-e"),
    "julia": fs("-e", "--eval", "-E", "--print"),
    "osascript": fs("-e"),
    "pwsh": fs("-c", "-Command", "-command"),
    "tclsh": fs(),
    "awk": fs(),
}
#: Options that take a value but are not code (so the script is found after them).
VALUE_FLAGS: dict[str, frozenset[str]] = {
    "python": fs("-W", "-X", "-Q"),
    "node": fs("-r", "--require", "--import", "--loader", "--input-type"),
    "perl": fs("-I", "-M", "-m"),
    "ruby": fs("-I", "-r"),
    "php": fs("-d", "-c"),
}
#: Python switches that take a value (``-W arg``, ``-X opt``): letters after them are the value,
#: and a module or code switch ends the options (``python -h`` lists them).
PYTHON_VALUE_LETTERS = frozenset("WXQmc")
#: Flags that only print information (a pure reader when nothing else is given).
INFO_FLAGS = fs("--version", "-V", "--help", "-h", "-v", "-VV")
#: `python -m X`: modules that install (the modules that only read: ``python_modules``).
PYTHON_MODULES_INSTALL = fs("pip", "pip3", "ensurepip", "uv")

_PY = re.compile(r"^(python|pypy)(\d+(\.\d+)?)?([mtd])?$")


def family(program: str) -> str | None:
    """The interpreter family of a program name, or None."""
    if _PY.match(program):
        return "python"
    return _FAMILIES.get(program)


_FAMILIES: dict[str, str] = {
    "node": "node",
    "nodejs": "node",
    "ts-node": "node",
    "tsx": "node",
    "perl": "perl",
    "ruby": "ruby",
    "irb": "ruby",
    "php": "php",
    "lua": "lua",
    "luajit": "lua",
    "Rscript": "R",
    "R": "R",
    "julia": "julia",
    "osascript": "osascript",
    "pwsh": "pwsh",
    "powershell": "pwsh",
    "tclsh": "tclsh",
    "ipython": "python",
    "deno": "deno",
}

#: Shells that accept `-c STRING` (parsed recursively) or a script / stdin.
SHELLS = fs("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh", "rbash")
#: Shells whose syntax is not bash: their strings are opaque.
FOREIGN_SHELLS = fs("fish", "csh", "tcsh", "nu", "xonsh", "elvish")
SHELL_VALUE_FLAGS = fs("-o", "+o", "-O", "+O", "--rcfile", "--init-file")

PROGRAMS: dict[str, Spec] = {
    **{n: Spec(CODE, handler="interpreter") for n in _FAMILIES},
    **{n: Spec(CODE, handler="interpreter") for n in ("python", "python3", "python2", "pypy", "pypy3")},
    **{n: Spec(CODE, handler="shell") for n in SHELLS | FOREIGN_SHELLS},
    "deno": Spec(CODE, handler="interpreter"),
    # SQL is code too: its string literals name files (readfile('~/.netrc'), ATTACH, .read).
    "sqlite3": Spec(CODE, handler="sqlite", open_args=True),
    "eval": Spec(CODE, handler="eval"),
    "source": Spec(CODE, handler="source"),
    ".": Spec(CODE, handler="source"),
}


def is_python(program: str) -> bool:
    return bool(_PY.match(program))


_HOME_REF = (
    r"(?:os\.path\.expanduser\(\s*['\"]~/?['\"]\s*\)|(?:pathlib\.)?Path\.home\(\s*\)"
    r"|\$ENV\{\s*['\"]?HOME['\"]?\s*\}|os\.environ\[\s*['\"]HOME['\"]\s*\]"
    r"|os\.(?:environ\.get|getenv)\(\s*['\"]HOME['\"]\s*\)|process\.env\.HOME\b"
    r"|(?:require\(\s*['\"](?:node:)?os['\"]\s*\)|os)\.homedir\(\s*\)"
    r"|ENV\[\s*['\"]HOME['\"]\s*\]|Dir\.home\b|['\"](?:~|/|\$HOME)/?['\"])"
)
_DELETER = r"(?:rmtree|remove_tree|rm_rf|rm_r|rmSync|rmdirSync|fs\.rm|rm)"
#: Inline code that deletes the home folder or / recursively: ``shutil.rmtree(os.path.expanduser
#: ('~'))``, ``remove_tree($ENV{HOME})``, ``system("rm -rf " . $ENV{HOME})``, ``fs.rmSync(os.homedir(),
#: …)``, ``system("rm -rf ~")``, ``system("rm", "-rf", $ENV{"HOME"})``. Catastrophic, as ``rm -rf ~`` is.
HOME_DELETE = re.compile(
    rf"\b{_DELETER}\s*\(\s*{_HOME_REF}\s*[,)]"
    rf"|\brm\s+-\w*[rR]\w*\s*['\"]\s*[.+,]\s*{_HOME_REF}"
    r"|\brm\s+-\w*[rR]\w*\s+(?:~|\$HOME|\$\{HOME\}|/)/?\s*['\"]"
    # an argument list: system("rm", "-rf", $ENV{"HOME"}), subprocess.run(["rm", "-rf", …]),
    # execFileSync("rm", ["-rf", os.homedir()])
    rf"|['\"]rm['\"]\s*,\s*\[?\s*['\"]-\w*[rR]\w*['\"]\s*,\s*{_HOME_REF}"
)
