"""What a simple command discloses or changes about the shell and Bastion itself: secret
variables it prints (``echo $GITHUB_TOKEN``, ``printenv``), variables it assigns behind a
printer (``printf -v``), and Bastion's own state (``bastion policy trust``…)."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.flags import parse_args
from bastion.shell.programs.printers import (
    COMPOSE_VALUES,
    CONTAINER_ENGINES,
    ENV_IDENTIFIERS,
    SECRET_PRINTERS,
)
from bastion.shell.programs.registry import lookup
from bastion.shell.programs.vcs import GIT_GLOBAL_VALUES
from bastion.shell.self_verbs import self_change
from bastion.shell.words import Word

E = Effect
_SECRET = re.compile(
    r"TOKEN|SECRET|PASS(WORD|WD)?$|PASSWORD|API_?KEY|PRIVATE_?KEY|CREDENTIAL|"
    r"^AWS_|ACCESS_?KEY|AUTH|SESSION|COOKIE|DATABASE_URL|_DSN$|^GH_|"
    r"^GITHUB_|^NPM_TOKEN|^OPENAI|^ANTHROPIC",
    re.IGNORECASE,
)
_PRINTERS = frozenset({"echo", "printf", "printenv", "print"})
#: The variable every command Bastion runs gets: the credentials dir (bastion.exec.boundary).
CREDENTIALS_VAR = "BASTION_CREDENTIALS_DIR"


def secret_name(name: str) -> bool:
    return bool(_SECRET.search(name))


def self_arguments(ctx: Ctx, args: list[Word]) -> None:
    why = self_change([w.value for w in args])
    if why:
        ctx.self_change = why
        ctx.add(E.UNKNOWN, note=f"changes Bastion's own state: {why}")


def assigning_builtin(ctx: Ctx) -> None:
    """`printf -v NAME` assigns (NAME may be PATH, or a subscript that runs code); a first
    argument only known at run time may be that -v."""
    if ctx.program == "printf" and len(ctx.words) > 1:
        first = ctx.words[1].value
        if first is None or first.startswith("-v"):
            ctx.add(E.UNKNOWN, note="printf -v assigns a shell variable")


def names_credentials_dir(ctx: Ctx) -> None:
    """A word of the agent's own call that expands ``$BASTION_CREDENTIALS_DIR`` (an argument,
    ``@$BASTION_CREDENTIALS_DIR/token``, a redirection, a variable handed to the program)
    reaches into the credentials dir: a credential read, denied like its literal path. A
    script that reads the variable itself is decided as any script (it names nothing)."""
    raw = ctx.raw
    targets = (r.target for r in raw.redirects if r.target is not None)
    for word in (*raw.words, *(w for _, w in raw.assigns), *targets):
        if CREDENTIALS_VAR in word.vars:
            why = f"{word.text} reaches into the credentials dir (${CREDENTIALS_VAR})"
            ctx.disclose(why, ctx.index_of(word))
            return


def printed_credentials(ctx: Ctx) -> None:
    """echo $GITHUB_TOKEN, printenv AWS_SECRET_ACCESS_KEY, printenv / set with no args,
    ``cat <<< "$GITHUB_TOKEN"``."""
    args = ctx.words[1:]
    fed = _fed_secret(ctx)
    if fed is not None:
        ctx.disclose(f"prints the secret-looking variable {fed} its here-string or heredoc expands")
        return
    if ctx.program in _PRINTERS:
        names = [v for w in args for v in w.vars]
        if ctx.program == "printenv":
            names += [w.value for w in args if w.value and not w.value.startswith("-")]
            if not [w for w in args if not (w.value or "x").startswith("-")]:
                ctx.disclose("printenv without names prints every variable")
        secret = [n for n in names if secret_name(n)]
        indirect = next((m.group(0) for w in args if (m := _INDIRECT.search(w.text))), None)
        if secret:
            ctx.disclose(f"prints secret-looking variable {secret[0]}")
        elif indirect is not None:  # `echo "$v=${!v}"` over every name: any secret among them
            ctx.disclose(f"prints {indirect}, the variable whose name another holds: any secret")
    elif ctx.program in ("set", *_DECLARERS) and not args and not (ctx.raw.assigns):
        ctx.disclose(f"{ctx.program} without arguments prints variables")
    elif ctx.program in _DECLARERS and any(
        (v := w.value or "").startswith("-") and "p" in v and not {"f", "F"} & set(v) for w in args
    ):
        ctx.disclose(f"{ctx.program} -p prints variables")
    elif ctx.program in _DECLARERS and _only_attribute_options(ctx, args):
        ctx.disclose(f"{ctx.program} with options and no name prints the variables that have them")
    else:
        _printed_by_table(ctx, args)


#: A variable a word, heredoc or here-string expands (``$NAME``, ``${NAME…}``).
EXPANDED = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


#: Builtins that keep what their stdin gives in variables and print none of it.
_STORES_STDIN = frozenset({"read", "mapfile", "readarray"})


def _fed_secret(ctx: Ctx) -> str | None:
    """The secret-looking variable a reader's own heredoc or here-string expands: a reader
    (``cat``, ``tr``, ``base64``…) prints what it reads, so it prints the secret."""
    data = ctx.stdin_data
    if data is None or data.body_literal or not ctx.reader or ctx.program in _STORES_STDIN:
        return None
    return next((m.group(1) for m in EXPANDED.finditer(data.text) if secret_name(m.group(1))), None)


#: An indirect expansion of a variable's value (``${!v}``; not ``${!prefix*}`` or
#: ``${!arr[@]}``, which print names and keys).
_INDIRECT = re.compile(r"\$\{![A-Za-z_][A-Za-z0-9_]*\}")
#: Builtins that print variables (with their values) when given no name.
_DECLARERS = ("export", "declare", "typeset", "readonly", "local")


def _only_attribute_options(ctx: Ctx, args: list[Word]) -> bool:
    """``declare -x``, ``typeset -r``, ``readonly -a``: options and no name (and no
    assignment) print every variable with those attributes; -f/-F list functions."""
    values = [w.value for w in args]
    return (
        not ctx.raw.assigns
        and all(v is not None and v.startswith("-") and len(v) > 1 for v in values)
        and not any("f" in (v or "") or "F" in (v or "") for v in values)
    )


def printed_as(ctx: Ctx, program: str, args: list[Word]) -> None:
    """A secret printer run under another name (``python3 -m pip config list``): the forms
    of ``program`` over the words that are not options."""
    words = [w.value if w.value is not None else "?" for w in args if not (w.value or "").startswith("-")]
    options = _options([w.value for w in args])
    for form in SECRET_PRINTERS.get(program, ()):
        if form.matches(words, options):
            ctx.disclose(f"{program} {' '.join(form.words)} {form.why}")
            return


def _options(values: list[str | None]) -> set[str]:
    """The options given, by name; a cluster of short letters (``make -pn``) is each of its
    letters too (a table names the one that prints: ``-p``)."""
    options: set[str] = set()
    for v in values:
        if v is None or not v.startswith("-"):
            continue
        options.add(v.split("=", 1)[0])
        if not v.startswith("--") and v[1:].isalpha():
            options.update(f"-{letter}" for letter in v[1:])
    return options


def _printed_by_table(ctx: Ctx, args: list[Word]) -> None:
    """The forms of ``printers.SECRET_PRINTERS``, ``ps``'s environment and jq's ``env``."""
    forms = SECRET_PRINTERS.get(ctx.program)
    if forms:
        options = _options([w.value for w in args])
        words = _positionals(ctx, args)
        for form in forms:
            if form.matches(words, options):
                at = _argv_index(ctx, form.words[-1]) if form.words else -1
                ctx.disclose(f"{ctx.program} {' '.join(form.words)} {form.why}".replace("  ", " "), at)
                return
    verbs = _positionals(ctx, args)[:2]
    if ctx.program in CONTAINER_ENGINES and (verbs[:1] == ["inspect"] or verbs == ["container", "inspect"]):
        why = _inspect_prints_environment(args)
        if why:
            ctx.disclose(f"{ctx.program} inspect {why}")
            return
    if ctx.program in KUBE_CLIENTS:
        level = _verbosity(args)
        if level is not None and level >= KUBE_HEADERS_LEVEL:
            ctx.disclose(f"{ctx.program} -v={level} logs each request's headers and body (tokens, secrets)")
            return
    if ctx.program == "ps":
        for w in args:
            v = w.value or ""
            if v and not v.startswith("-") and v.isalpha() and "e" in v:
                ctx.disclose(f"ps {v}: BSD option e prints every process's environment", ctx.index_of(w))
                return
    identifiers = ENV_IDENTIFIERS.get(ctx.program)
    if identifiers:
        code = _jq_filter(ctx, args)
        if code is None:
            return
        found = sorted(identifiers & set(JQ_TOKEN.findall(code)))
        if found:
            ctx.disclose(f"{ctx.program} {found[0]} prints the environment")


#: Clients whose -v=N logs HTTP traffic: from 7 each request's headers (the bearer token, in
#: clients before its masking), from 8 the bodies (a pod's env values, a Secret's data).
KUBE_CLIENTS = frozenset({"kubectl", "oc"})
KUBE_HEADERS_LEVEL = 7
#: A --format that names the environment or the whole object (``{{json .}}``, ``.Config``).
_WHOLE_OR_ENV = re.compile(r"Env|Config|\{\{-?\s*(json\s+)?\.\s*-?\}\}")


def _inspect_prints_environment(args: list[Word]) -> str | None:
    """``docker inspect NAME`` prints a container's ``Config.Env``; a ``--format`` naming only
    other fields (``{{.State.Status}}``) does not."""
    formats: list[str | None] = []
    for i, w in enumerate(args):
        v = w.value
        if v in ("-f", "--format"):
            formats.append(args[i + 1].value if i + 1 < len(args) else None)
        elif v is not None and v.startswith(("--format=", "-f=")):
            formats.append(v.split("=", 1)[1])
        elif v is None:
            formats.append(None)  # a word only known at run time may be the format
    if not formats:
        return "without --format: prints the container's environment"
    for f in formats:
        if f is None or _WHOLE_OR_ENV.search(f):
            return f"{f or 'a run-time format'}: prints the container's environment"
    return None


def _verbosity(args: list[Word]) -> int | None:
    """The level of ``-v=N``, ``--v=N``, ``-v N``, ``--v N`` (the last given; None when none or
    only known at run time, which counts as the highest)."""
    level: int | None = None
    for i, w in enumerate(args):
        v = w.value
        if v is None:
            continue
        name, eq, value = v.partition("=")
        if name not in ("-v", "--v"):
            continue
        if not eq:
            value = (args[i + 1].value or "99") if i + 1 < len(args) else ""
        level = int(value) if value.isdigit() else 99
    return level


#: jq identifiers, with a leading ``$`` (``$ENV``); a field access (``.env``) is no call.
JQ_TOKEN = re.compile(r"(?<![\w.$])\$?[A-Za-z_][A-Za-z0-9_]*")


def _jq_filter(ctx: Ctx, args: list[Word]) -> str | None:
    """The filter text of a jq-like call: its first positional (None: from a file)."""
    spec = lookup(ctx.program)
    if spec is None:
        return None
    parsed, _ = parse_args(
        args, spec.takes_value, spec.aliases, False, spec.known, spec.numeric, spec.optional, spec.pairs
    )
    if parsed.has("-f", "--from-file") or not parsed.positionals:
        return None
    return parsed.positionals[0].value or ""


def _positionals(ctx: Ctx, args: list[Word]) -> list[str]:
    """The words that are neither options nor the values of the program's own options
    (``kubectl --context prod config view``: config, view); an option the program's table
    does not know is taken as a switch, and words only known at run time as ``?``."""
    spec = lookup(ctx.program)
    values: frozenset[str] = frozenset() if spec is None else spec.takes_value
    aliases = {} if spec is None else spec.aliases
    if ctx.program == "git":
        values = values | GIT_GLOBAL_VALUES
    elif ctx.program in CONTAINER_ENGINES or ctx.program == "docker-compose":
        values = values | COMPOSE_VALUES
    parsed, _ = parse_args(args, values, aliases)
    return [w.value if w.value is not None else "?" for w in parsed.positionals]


def _argv_index(ctx: Ctx, word: str) -> int:
    return next((i for i, w in enumerate(ctx.words) if i and w.value == word), -1)
