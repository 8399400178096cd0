"""Handlers for scripts inside arguments: sed, awk and yq programs, make's variable
overrides and npm's script runner."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell import awkscript, gawk_extensions, jqscript, sedscript
from bastion.shell import paths as P
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed
from bastion.shell.model import Access, PathUse, new_path_use, replace_path_use
from bastion.shell.parser import parse
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word, literal_word

E = Effect


def sed(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    scripts = [
        (f.value, f.index + (1 if f.inline else 2))
        for f in parsed.flags
        if f.name == "-e" and f.value is not None
    ]
    if not scripts and positionals and not parsed.has("-f"):  # with -f, every word is an input
        scripts = [(positionals[0], ctx.index_of(positionals[0]))]
    for file_word in parsed.values("-f"):
        ctx.path(file_word, Access.READ, "sed script file", runs="sed")
        ctx.raise_at(ctx.index_of(file_word), E.UNKNOWN, note="sed script from a file")
    for word, at in scripts:
        text = word.value
        commands = sedscript.parse(text) if text is not None else None
        if commands is None:
            why = "only known at run time" if text is None else "not understood"
            ctx.raise_at(at, E.UNKNOWN, note=f"sed script {why}: {word.text[:60]!r}")
            continue
        for cmd in commands:
            _sed_effect(ctx, cmd, at)


def _sed_effect(ctx: Ctx, cmd: sedscript.Command, at: int) -> None:
    if cmd.letter == "e":
        ctx.raise_at(at, E.CODE, note="sed e runs a shell command")
        if cmd.arg:  # `1e cat ~/.netrc`, `s/.*/cat ~\/.pgpass/e`: what it runs, as shell
            ctx.inner.extend(ctx.run_source(ctx, cmd.arg, "sed e"))
    elif cmd.letter in "wW":
        if cmd.arg in ("/dev/stdout", "/dev/stderr"):
            return
        if not cmd.arg:
            ctx.raise_at(at, E.UNKNOWN, note=f"sed {cmd.letter} without a file name")
            return
        ctx.raise_at(at, E.WRITE, note=f"sed {cmd.letter} writes {cmd.arg!r}")
        ctx.path(literal_word(cmd.arg), Access.WRITE, f"sed {cmd.letter} command")
    elif cmd.letter in "rR" and cmd.arg:  # `r` without a file name reads nothing
        ctx.path(literal_word(cmd.arg), Access.READ, f"sed {cmd.letter} command")
        ctx.note(f"sed {cmd.letter} reads {cmd.arg!r}")


def yq(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """yq's expression reads the files its ``load*`` calls name (``load_str("~/.netrc")``):
    a constant name is a read of that file; one built at run time, or an expression from a
    file the gate does not read (``-f``), may read anything."""
    if parsed.has("-f", "--from-file"):
        at = next(f.index + 1 for f in parsed.flags if f.name in ("-f", "--from-file"))
        ctx.raise_at(at, E.UNKNOWN, note="yq expression from a file: what its load calls read is not seen")
        return
    if not positionals:
        return
    word = positionals[0]
    at = ctx.index_of(word)
    found = jqscript.yq_loads(word.value) if word.value is not None else None
    if found is None:
        why = "only known at run time" if word.value is None else "not understood"
        ctx.raise_at(at, E.UNKNOWN, note=f"yq expression {why}: {word.text[:60]!r}")
        return
    for path in found.paths:
        ctx.path(literal_word(path), Access.READ, f"yq expression loads {path}")
    if found.unknown:
        ctx.raise_at(at, E.UNKNOWN, note=found.unknown)


def awk(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if parsed.has("-f"):
        at = next(f.index + 1 for f in parsed.flags if f.name == "-f")
        ctx.raise_at(at, E.CODE, note="awk program from a file")
        for file_word in parsed.values("-f"):  # its table's read of it, with what it holds
            ctx.paths[:] = [u for u in ctx.paths if u.raw != file_word.text]
            ctx.path(file_word, Access.READ, "awk program file", runs="awk")
        return
    programs = parsed.values("-e") or positionals[:1]
    for word in programs:
        program = word.value
        at = ctx.index_of(word)
        if program is None:
            ctx.raise_at(at, E.UNKNOWN, note="awk program only known at run time")
            continue
        found = awkscript.findings(program)
        libraries = [*parsed.values("-l"), *parsed.values("-i")]  # gawk -l readfile, -i inplace
        names = gawk_extensions.loaded(program, (w.value or "" for w in libraries))
        opened = gawk_extensions.findings(program, names)
        if found is None or opened is None:
            ctx.raise_at(at, E.UNKNOWN, note=f"awk program not understood: {word.text[:60]!r}")
            continue
        input_words = positionals if parsed.values("-e") else positionals[1:]
        inputs = [w.value for w in input_words]
        for finding in [*found, *opened]:
            _awk_effect(ctx, finding, at)
            if finding.what in ("read", "write") and finding.target is None:
                _awk_named(ctx, finding, inputs)
        if "inplace" in names:  # gawk -i inplace: every input file is rewritten
            for w in input_words:
                if w.value is None or (w.value != "-" and not _AWK_ASSIGNMENT.match(w.value)):
                    ctx.path(w, Access.WRITE, "gawk -i inplace rewrites each input file")
        if any(f.what == "code" for f in found):
            # `system("cat ~/.netrc")`, `print "cat ~/.netrc" | "sh"`, `@f("…")`: each string
            # may be what a shell runs, decided as the command it spells (can only tighten).
            for text in awkscript.strings(program):
                _awk_string_command(ctx, text)


#: Reserved words that cannot begin a command: bash's syntax error, never a command run.
_CLOSING_WORDS = frozenset({"}", "fi", "done", "esac", "then", "else", "elif", "do", "in", ";;", ")"})


def _awk_string_command(ctx: Ctx, text: str) -> None:
    """A string the awk program may give a shell, decided as that command; one that is no
    shell syntax (``"a (b"``) runs nothing there: a text, not a command."""
    first = text.split(maxsplit=1)[0] if text.split() else ""
    if first in _CLOSING_WORDS or parse(text.encode("utf-8", "surrogateescape")).root_node.has_error:
        return
    ctx.inner.extend(ctx.run_source(ctx, text, "awk string run as a command"))


def _awk_named(ctx: Ctx, finding: awkscript.Finding, inputs: list[str | None]) -> None:
    """``getline < EXPR``: a field of the record names files its input lists (each input file
    a list, ``VAR=value`` words aside); an expression with a literal end reads (or, for
    ``print >`` and gawk's ``writea()``, writes) a file of that name (``f "/.netrc"``)."""
    if finding.record:
        for name in inputs:
            if name and name != "-" and not _AWK_ASSIGNMENT.match(name):
                ctx.listed(name, "awk getline < a field of each input line")
    elif finding.tail is not None:
        why = f"awk: {finding.why}, an expression ending in {finding.tail}"
        raw = f"<awk expression>{finding.tail}"
        access = Access.WRITE if finding.what == "write" else Access.READ
        ctx.paths.append(new_path_use(None, access, raw, why, None, False, False, finding.tail))


_AWK_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _awk_effect(ctx: Ctx, finding: awkscript.Finding, at: int) -> None:
    target = finding.target
    if finding.what == "code":
        ctx.raise_at(at, E.CODE, note=f"awk: {finding.why}")
    elif finding.what == "environ":
        ctx.disclose(f"awk: {finding.why}", at)
    elif finding.what == "write" and target is not None and P.is_harmless_target(target):
        return  # print > "/dev/stderr"
    elif target is None:
        ctx.raise_at(at, E.UNKNOWN, note=f"awk: {finding.why} named by an expression")
    elif finding.what == "write":
        ctx.raise_at(at, E.WRITE, note=f"awk: {finding.why} ({target!r})")
        ctx.path(literal_word(target), Access.WRITE, "awk print redirection")
    else:
        ctx.path(literal_word(target), Access.READ, f"awk: {finding.why}")


_MAKE_VAR = re.compile(r"^[A-Za-z_.][A-Za-z0-9_.-]*[:+?!]?=")


def make(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``make VAR=VALUE``: an override of the Makefile's variable (SHELL, CC, MAKE…) changes
    what its recipes run, beyond what the Makefile says: unknown, so an allow entry for the
    targets never covers it."""
    for word in positionals:
        if word.value is None or _MAKE_VAR.match(word.value):
            ctx.raise_at(
                ctx.index_of(word), E.UNKNOWN, note=f"make {word.text}: overrides a Makefile variable"
            )
    if parsed.has("-C", "--directory", "-n", "--just-print", "--dry-run", "--recon"):
        return  # another folder's Makefile (judged by that folder), or nothing run
    goals = " ".join(w.value or "" for w in positionals if w.value and not _MAKE_VAR.match(w.value))
    named = parsed.values("-f", "--file", "--makefile")
    files = [w.value for w in named if w.value] if named else ["GNUmakefile", "makefile", "Makefile"]
    for name in files[:1] if named else files:  # the first that exists is make's (script_files)
        use = PathUse(name, Access.READ, name, f"the recipes {ctx.program} runs")
        ctx.paths.append(replace_path_use(use, runs=f"make:{goals}"))


def npm_run(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``npm run`` without a script lists the package's scripts: a read of package.json, with
    what npm does on every command besides (the differential oracle saw it): its log under
    ``~/.npm`` and a registry request for a newer npm, as ``npm ls`` declares."""
    if not positionals and not parsed.flags:
        ctx.effects.discard(E.CODE)
        ctx.effects.add(E.READ)
        ctx.raising[:] = [(i, e) for i, e in ctx.raising if e is not E.CODE]
        ctx.reader = True
        ctx.paths.append(PathUse("package.json", Access.READ, "package.json", "npm run lists its scripts"))
        ctx.note("npm run without a script lists the scripts of package.json")
        ctx.add(E.WRITE, note="npm writes its log under ~/.npm")
        ctx.paths.append(PathUse("~/.npm", Access.WRITE, "~/.npm", "npm cache"))
        ctx.add(E.NETWORK, note="npm may contact registry.npmjs.org")
        ctx.host("registry.npmjs.org")
        return
    if positionals and positionals[0].value:
        _npm_script(ctx, positionals[0].value)


#: npm's own names of the scripts it runs as subcommands (``npm t`` is ``npm test``).
_NPM_ALIASES = {"t": "test", "tst": "test", "rb": "rebuild"}


def npm_named(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``npm test``, ``yarn build``, ``bun run dev``: the script of package.json it names."""
    words = [w.value for w in ctx.words[1:] if w.value and not w.value.startswith("-")]
    if words[:1] == ["run"]:
        words = words[1:]
    if words:
        _npm_script(ctx, _NPM_ALIASES.get(words[0], words[0]))


def _npm_script(ctx: Ctx, name: str) -> None:
    """The script ``name`` of the package.json here: shell text npm runs (``script_files``)."""
    ctx.paths.append(
        replace_path_use(
            PathUse("package.json", Access.READ, "package.json", f"{ctx.program} runs its script {name}"),
            runs=f"npm:{name}",
        )
    )


#: The file a package manager's ``config set`` writes: by default, and for each option that
#: chooses another (None: a file only known at run time, its prefix's or its virtualenv's).
#: npm 11 `npm help config` (--location user|project|global, -g, --userconfig); pip 23
#: `pip help config` (--user, --global, --site).
_CONFIG_FILES: dict[str, tuple[str, dict[str, str | None]]] = {
    "npm": (
        "~/.npmrc",
        {"--location=project": ".npmrc", "--location=global": None, "-g": None, "--global": None},
    ),
    "pip": ("~/.config/pip/pip.conf", {"--global": "/etc/pip.conf", "--site": None}),
}
_CONFIG_READS = frozenset({"get", "list", "ls", "debug"})


def package_config(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``npm config set script-shell …``, ``pip config set global.index-url …``: a write of the
    package manager's configuration file, which names the programs and indexes it uses later."""
    if positionals and positionals[0].value in _CONFIG_READS:
        return
    program = "pip" if ctx.program.startswith("pip") else ctx.program
    default, chosen = _CONFIG_FILES.get(program, (None, {}))
    target: str | None = default
    for flag in parsed.flags:
        spelled = f"{flag.name}={flag.value.value}" if flag.value is not None else flag.name
        if spelled in chosen or flag.name in chosen:
            target = chosen.get(spelled, chosen.get(flag.name))
        if flag.name == "--userconfig" and flag.value is not None:
            target = flag.value.value
    ctx.add(E.WRITE, note=f"{ctx.program} config writes its configuration file")
    if target is None:
        ctx.dynamic = True
        ctx.note(f"{ctx.program} config writes a file only known at run time")
        return
    ctx.paths.append(PathUse(target, Access.WRITE, target, f"{ctx.program} config file"))


#: An ex command that writes the buffer to a file (``w! ~/.profile``, ``sav x``, ``wq >> f``)
#: or reads one in (``r ~/.netrc``), with its optional range; ``!cmd`` runs a shell command.
_EX_WRITE = re.compile(
    r"^\s*(?:[%.$]|\d+(?:,\d+)?)?\s*(?:w|write|sav|saveas|wq|x|xit|up|update)!?\s*(?:>>)?\s*([^\s!|][^|]*?)\s*$"
)
_EX_READ = re.compile(r"^\s*(?:[.$]|\d+)?\s*(?:r|read)!?\s+([^\s!|][^|]*?)\s*$")
_EX_SHELL = re.compile(r"^\s*(?:[%.$]|\d+(?:,\d+)?)?\s*(?:(?:r|read|w|write)\s+)?!(.+)$")  # not `w! f`


def editor(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """vi's ex commands given on its command line (``-c``, ``--cmd``, ``+cmd``): a write of the
    buffer names a file written, a read one read, a ``!`` a shell command run (suite F:
    ``vim -es -c 'w! ~/.profile' -c q README.md`` puts README.md in place of ~/.profile)."""
    commands = [w for w in parsed.values("-c", "--cmd")]
    commands += [literal_word((w.value or "")[1:]) for w in ctx.words[1:] if (w.value or "").startswith("+")]
    for word in commands:
        text = word.value
        if text is None:
            ctx.dynamic = True
            continue
        for command in text.split("|"):
            if found := _EX_SHELL.match(command):
                ctx.inner.extend(ctx.run_source(ctx, found.group(1), f"{ctx.program} ! command"))
            elif found := _EX_WRITE.match(command):
                ctx.path(literal_word(found.group(1)), Access.WRITE, f"{ctx.program} :{command.strip()[:30]}")
            elif found := _EX_READ.match(command):
                ctx.path(literal_word(found.group(1)), Access.READ, f"{ctx.program} :{command.strip()[:30]}")


HANDLERS = {
    "sed": sed,
    "awk": awk,
    "yq": yq,
    "make": make,
    "npm_run": npm_run,
    "editor": editor,
    "package_config": package_config,
    "npm_named": npm_named,
}
