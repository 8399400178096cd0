"""Handlers for code runners: interpreters, shells, eval/source, package installs and env
runners (uv run, bundle exec…). System tools whose verbs decide are in ``handlers_system``."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.disclosure import secret_name
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.handlers_install import install, pacman
from bastion.shell.handlers_python import isolating, python_module
from bastion.shell.hosts import url_host
from bastion.shell.model import Access, PathUse
from bastion.shell.programs import interpreters
from bastion.shell.programs.printers import NAMED_ENVIRONMENT, WHOLE_ENVIRONMENT
from bastion.shell.programs.spec import Spec
from bastion.shell.programs.wrappers import STARTUP_FILES
from bastion.shell.servers import interpreter_server
from bastion.shell.words import Word, literal_word

E = Effect
_STRING = re.compile(r"""(?P<q>['"])((?:(?!(?P=q))[^\\\n]|\\.){1,4096})(?P=q)|(~/[^\s'";)]+)""")
#: A string literal that names a file: an absolute, home or relative path, any word with a
#: slash (``open("notes/aws.txt")``: a workspace name may be a hard link to a credential, which
#: the policy finds by inode), a file name with an extension, or a credential's name.
#: A perl or ruby switch cluster that ends in its inline-code switch (``-ne``, ``-lane``, ``-pe``):
#: the next word is the code, as after a bare ``-e``; the letters before it take no value.
_CODE_CLUSTER = {"perl": re.compile(r"-[lnpaswtTUWX]+[eE]"), "ruby": re.compile(r"-[lnpasdvwW]+e")}
_PATHISH = re.compile(
    r"^(/|~/|\.{1,2}/)|(^|/)(\.ssh|\.aws|\.env|id_rsa|\.netrc|\.gnupg|"
    r"\.npmrc|\.pypirc|credentials)|^[\w.@+-]+(/[\w.@+-]+)+/?$|^[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,10}$"
)


#: Library calls that read a credential store by its default place, naming no file: Python's
#: ``netrc.netrc()`` (``~/.netrc``; suite H printed its hosts and passwords).
_IMPLICIT_STORES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "python": ((re.compile(r"\bnetrc\s*\.\s*netrc\s*\(\s*\)"), "~/.netrc"),),
}


def scan_inline_code(ctx: Ctx, code: str, label: str, family: str | None = None) -> None:
    """Path and URL literals in inline code, so read rules still apply to `python -c`; code
    of interpreter ``family`` that reads the whole environment discloses it."""
    deletes = interpreters.HOME_DELETE.search(code) if family is not None else None
    if deletes is not None:
        ctx.catastrophic = (
            ctx.catastrophic or f"{label} deletes the home folder or / ({deletes.group(0)[:60]})"
        )
        ctx.add(E.DESTRUCTIVE, E.DELETE, note=f"{label} deletes the home folder or / recursively")
    whole = WHOLE_ENVIRONMENT.get(family or "")
    found = whole.search(code) if whole is not None else None
    if found is not None:
        ctx.disclose(f"{label} reads the whole environment ({found.group(0).strip()}): every secret in it")
    elif family is not None:
        secret = next((n for n in NAMED_ENVIRONMENT.findall(code) if secret_name(n)), None)
        if secret is not None:
            ctx.disclose(f"{label} reads the secret-looking variable {secret}")
    for pattern, store in _IMPLICIT_STORES.get(family or "", ()):
        if pattern.search(code):  # a library call that reads a credential store it never names
            ctx.path(literal_word(store), Access.READ, f"{label} reads {store} through a library")
    for m in _STRING.finditer(code):
        text = m.group(2) if m.group(2) is not None else m.group(3)
        if not text:
            continue
        host = url_host(text)
        if host:
            ctx.host(host)
            ctx.add(E.NETWORK, note=f"{label} contacts {host}")
        elif _PATHISH.search(text) and " " not in text.strip():
            ctx.path(literal_word(text), Access.READ, "path literal in inline code")


#: A shell string that is exactly a file's text: ``"$(<F)"`` (F a plain word).
_READ_FILE = re.compile(r"\"?\$\(<\s*([\w./~+-]+)\s*\)\"?")


def _stdin_code(ctx: Ctx, label: str, shell: bool) -> None:
    data = ctx.stdin_data
    if data is None:
        ctx.add(E.CODE, E.UNKNOWN, note=f"{label} reads its program from stdin")
        return
    ctx.add(E.CODE, note=f"{label} runs a heredoc / here-string as code")
    if data.body is None or not data.body_literal:
        ctx.dynamic = True
        ctx.note("the code fed on stdin is only known at run time")
    elif shell:
        ctx.inner.extend(ctx.run_source(ctx, data.body, f"{ctx.program} <<"))
    else:
        scan_inline_code(ctx, data.body, ctx.program, interpreters.family(ctx.program))


def interpreter(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    fam = interpreters.family(ctx.program) or ctx.program
    inline = interpreters.INLINE_CODE_FLAGS.get(fam, frozenset())
    values = interpreters.VALUE_FLAGS.get(fam, frozenset())
    ctx.paths.clear()
    interpreter_server(ctx, fam)  # php -S, ruby -run -e httpd
    args = ctx.words[1:]
    i = 0
    info_only = True
    isolated = False  # python -I / -P: the working directory is not on sys.path
    in_place = False  # perl -i / ruby -i: each file the code is given becomes what it prints
    while i < len(args):
        w = args[i]
        v = w.value
        if v is None or not v.startswith("-") or v == "-":
            break
        i += 1
        if fam == "python":
            isolated = isolated or isolating(v)
        # -i in a cluster of switches that take no value (``-pi``, ``-ni``; not ``-Mstrict``)
        in_place = in_place or (fam in ("perl", "ruby") and re.match(r"-[lnpaswtTUWXdv]*i", v) is not None)
        head = v[:2] if fam == "python" and not v.startswith("--") else v
        cluster = _CODE_CLUSTER.get(fam)
        if cluster is not None and cluster.fullmatch(v):
            head = "-" + v[-1]  # `perl -ne CODE FILE…`: -n reads each FILE, CODE runs on its lines
        if head in inline or v in inline:
            code = v[2:] if head != v and fam == "python" else None
            word = literal_word(code) if code else (args[i] if i < len(args) else None)
            i += 0 if code else 1
            ctx.add(E.CODE, note=f"{ctx.program} {head} runs inline code")
            if word is None or word.value is None:
                ctx.dynamic = word is not None
                return
            scan_inline_code(ctx, word.value, f"{ctx.program} {head}", fam)
            for arg in args[i:]:  # the code's own arguments (sys.argv, @ARGV): paths it may open
                if arg.value is not None and _PATHISH.search(arg.value):
                    if in_place:  # `perl -pi -e CODE FILE`: FILE is rewritten
                        ctx.path(arg, Access.WRITE, f"edited in place by {ctx.program} -i")
                    else:
                        ctx.path(arg, Access.READ, "argument of inline code")
            return
        if fam == "python" and v.startswith("-m"):
            module = v[2:] or (args[i].value if i < len(args) else None)
            i += 0 if v[2:] else 1
            python_module(ctx, module, list(args[i:]), isolated=isolated)
            return
        if v in values or (fam == "python" and v[:2] in values):
            i += 0 if len(v) > 2 and fam == "python" else 1
        if v not in interpreters.INFO_FLAGS:
            info_only = False
    if fam == "deno" and i < len(args) and args[i].value == "eval":
        ctx.add(E.CODE, note="deno eval runs inline code")
        if i + 1 < len(args) and args[i + 1].value is not None:
            scan_inline_code(ctx, args[i + 1].value or "", "deno eval", "deno")
        return
    if fam == "node" and i == len(args) - 1 and {a.value for a in args[:i]} in ({"--check"}, {"-c"}):
        _syntax_check(ctx, args[i])  # node --check FILE parses it, runs nothing
        return
    if i < len(args) and args[i].value == "-" and fam != "deno":
        _stdin_code(ctx, f"{ctx.program} -", shell=False)  # `python3 -`: the program is stdin
        return
    if i < len(args):
        if fam == "deno" and args[i].value in ("run", "test", "task", "serve") and i + 1 < len(args):
            i += 1
        ctx.add(E.CODE, note=f"{ctx.program} runs a script")
        ctx.path(args[i], Access.READ, f"script run by {ctx.program}")
        return
    if info_only and args:
        ctx.effects.discard(E.CODE)
        ctx.effects.add(E.READ)
        ctx.reader = True
        return
    _stdin_code(ctx, ctx.program, shell=False)


def _syntax_check(ctx: Ctx, script: Word) -> None:
    """``node --check FILE`` / ``bash -n FILE``: the file is parsed, nothing in it runs."""
    ctx.effects.discard(E.CODE)
    ctx.effects.add(E.READ)
    ctx.reader = True
    ctx.path(script, Access.READ, f"{ctx.program} checks the syntax of")
    ctx.note(f"{ctx.program} only checks the syntax of {script.text}")


def shell(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if ctx.program in interpreters.FOREIGN_SHELLS:
        ctx.add(E.CODE, E.UNKNOWN, note=f"{ctx.program} syntax is not parsed (opaque)")
        return
    ctx.paths.clear()
    args = ctx.words[1:]
    i = 0
    string_next = False
    modes: set[str] = set()
    while i < len(args):
        v = args[i].value
        if v is None or not v.startswith(("-", "+")) or v in ("-", "--"):
            i += 1 if v == "--" else 0
            break
        i += 1
        if v in interpreters.SHELL_VALUE_FLAGS:
            if v in ("--rcfile", "--init-file") and i < len(args):
                ctx.path(args[i], Access.READ, f"{ctx.program} {v}")
                ctx.carry(E.CODE, note=f"{ctx.program} {v} runs a startup file first")
            i += 1
        elif v in ("--login", "--interactive"):
            modes.add(v[2])
        elif not v.startswith("--"):
            string_next = string_next or "c" in v[1:]
            modes.update(m for m in "li" if m in v[1:] and v.startswith("-"))
    _startup_files(ctx, modes)
    if string_next:
        ctx.add(E.CODE)
        if i >= len(args):
            ctx.errors.append(f"{ctx.program} -c without a command string")
            return
        word = args[i]
        read = _READ_FILE.fullmatch(word.text)
        if word.value is None and read is not None:  # `bash -c "$(<F)"` runs F's text
            ctx.path(literal_word(read.group(1)), Access.READ, f"script run by {ctx.program}", runs="sh")
            return
        if word.value is None:
            ctx.dynamic = True
            ctx.note(f"{ctx.program} -c string only known at run time")
            return
        ctx.inner.extend(ctx.run_source(ctx, word.value, f"{ctx.program} -c"))
        # Words after the string are $0, $1…: kept on the carrier so the policy sees them.
        ctx.replaced = i + 1 >= len(args)
        if not ctx.replaced:
            ctx.note(f"{ctx.program} -c passes arguments to its string")
        return
    if i == len(args) - 1 and {a.value for a in args[:i]} == {"-n"} and not modes:
        _syntax_check(ctx, args[i])  # sh -n FILE reads commands without running them
        return
    if i < len(args):
        ctx.add(E.CODE, note=f"{ctx.program} runs a script")
        ctx.path(args[i], Access.READ, f"script run by {ctx.program}", runs="sh")
        return
    _stdin_code(ctx, ctx.program, shell=True)
    fed = [r.target for r in ctx.raw.redirects if r.op == "<" and r.target is not None]
    if fed and ctx.stdin_data is None:  # `sh < F` runs F's text, as `sh F` does
        ctx.path(fed[-1], Access.READ, f"script {ctx.program} reads on stdin", runs="sh")


def _startup_files(ctx: Ctx, modes: set[str]) -> None:
    """A login (-l) or interactive (-i) shell, and zsh always, first runs startup files:
    declared as reads on everything it runs, so the policy checks them (they are safe only
    while agents cannot write them)."""
    family = "zsh" if ctx.program == "zsh" else "bash" if ctx.program == "bash" else "sh"
    files = [f for mode in ("always", *sorted(modes)) for f in STARTUP_FILES.get((family, mode), ())]
    if not files:
        return
    kind = "login" if "l" in modes else "interactive" if "i" in modes else "every"
    note = f"a {kind} {ctx.program} first runs its startup files ({', '.join(files)})"
    ctx.note(note)
    ctx.carried_notes.append(note)
    for f in files:
        ctx.carried_paths.append(PathUse(f, Access.READ, f, f"startup file of {ctx.program}", startup=True))


def eval_(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    args = ctx.words[1:]
    if any(w.value is None for w in args):
        ctx.dynamic = True
        ctx.note("eval of a string only known at run time")
        return
    ctx.inner.extend(ctx.run_here(ctx, " ".join(w.value or "" for w in args), "eval"))
    ctx.replaced = True


def source(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    ctx.paths.clear()
    if ctx.words[1:]:
        ctx.path(ctx.words[1], Access.READ, "sourced script", runs="sh")
    ctx.note("runs a file in this shell")


_RUNNER_VALUES = frozenset(
    {
        "-n",
        "--name",
        "-p",
        "--prefix",
        "--with",
        "--python",
        "-e",
        "--env",
        "--project",
        "--directory",
        "--group",
        "--extra",
        "--package",
        "-C",
        "--config",
        "--cwd",
        "--env-file",
        "-E",
        "--from",
        "-i",
        "--index",
        "--frozen-lockfile",
    }
)


def env_runner(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """uv run / poetry run / bundle exec / devbox run / nix-shell --run …: classify the
    command they run too (the runner's own effects stay on this command)."""
    ctx.paths.clear()
    args = list(ctx.words[1:])
    label = ctx.program
    for flag in ("--run", "--command", "-c"):
        for i, w in enumerate(args[:-1]):
            if w.value == flag and ctx.program in ("nix-shell",):
                nxt = args[i + 1]
                if nxt.value is None:
                    ctx.dynamic = True
                else:
                    ctx.inner.extend(ctx.run_source(ctx, nxt.value, f"{label} {flag}"))
                return
    if any(w.value == "--" for w in args):
        cut = next(i for i, w in enumerate(args) if w.value == "--")
        inner = args[cut + 1 :]
    else:
        sub_at = next(
            (i for i, w in enumerate(args) if w.value in ("run", "exec", "x", "develop", "shell")), -1
        )
        if ctx.program == "direnv":
            sub_at += 1  # `direnv exec DIR cmd`
        p, stop = parse_args(args[sub_at + 1 :], _RUNNER_VALUES, stop_at_positional=True)
        if ctx.program == "nix" and stop < len(args[sub_at + 1 :]):
            stop += 1  # the flake reference
        inner = args[sub_at + 1 + stop :]
        if ctx.program == "nix":
            vals = p.values("-c", "--command")
            inner = vals + inner[1:] if vals else []
    if inner:
        ctx.inner.extend(ctx.run_words(ctx, inner, f"{label} run"))


def sqlite(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``sqlite3 [OPTIONS] DB [SQL…]``: the database file is read (and may be written), each
    SQL argument is code whose string literals may name files (``readfile('/x')``, ``ATTACH``,
    ``.read``, ``.import``): judged as inline code's path literals."""
    operands: list[Word] = []
    commands: list[Word] = []  # -cmd TEXT: run before the SQL given, as SQL is
    words = ctx.words[1:]
    i = 0
    while i < len(words):
        word, spelled = words[i], words[i].value or ""
        i += 1
        option = spelled.lstrip("-")
        if not spelled.startswith("-"):
            operands.append(word)
        elif option in _SQLITE_VALUED and i < len(words):
            if option == "init":  # a file of SQL and dot commands run first
                ctx.path(words[i], Access.READ, "sqlite3 -init", runs="sqlite")
            elif option == "cmd":
                commands.append(words[i])
            i += 1
    if not operands and not commands:
        return
    database, *sql = operands or [literal_word(":memory:")]
    sql = [*commands, *sql]
    if database.value not in (":memory:", ""):
        ctx.path(database, Access.READ, "sqlite3 database")
        ctx.path(database, Access.WRITE, "sqlite3 database")
    for word in sql:
        if word.value is None:
            ctx.add(E.UNKNOWN, note="sqlite3: SQL only known at run time")
            continue
        scan_inline_code(ctx, word.value, "sqlite3 SQL")
        for dot in _SQLITE_DOT.finditer(word.value):
            access = Access.WRITE if dot.group(1) in ("backup", "save", "output", "once") else Access.READ
            ctx.path(literal_word(dot.group(2).strip("'\"")), access, f"sqlite3 .{dot.group(1)}")
        for shell in _SQLITE_SHELL.finditer(word.value):  # `.shell CMD`, `.system CMD`
            ctx.add(E.CODE, note=f"sqlite3 .{shell.group(1)} runs a shell command")
            ctx.inner.extend(ctx.run_source(ctx, shell.group(2), f"sqlite3 .{shell.group(1)}"))


#: sqlite3's options that take a value (sqlite 3.40 ``sqlite3 -help``).
_SQLITE_VALUED = frozenset({"init", "cmd", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap",
                            "lookaside", "pagecache", "heap", "escape"})  # fmt: skip
#: Its dot commands that run a shell command.
_SQLITE_SHELL = re.compile(r"^\s*\.(shell|system)\s+(.+)$", re.M)
#: sqlite3's dot commands that name a file (its ``.help``).
_SQLITE_DOT = re.compile(
    r"^\s*\.(read|import|open|restore|backup|save|output|once)\s+(?:-\S+\s+)*(\S+)", re.M
)


HANDLERS = {
    "sqlite": sqlite,
    "interpreter": interpreter,
    "install": install,
    "pacman": pacman,
    "shell": shell,
    "eval": eval_,
    "source": source,
    "env_runner": env_runner,
}
