"""git: global options (-C, -c, --config-env), config-based program injection, and the
subcommand tables of ``programs.vcs``."""

from __future__ import annotations

import shlex
from dataclasses import replace

from bastion.call.effects import Effect
from bastion.shell.classify import Handler, apply_spec
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.hosts import any_host
from bastion.shell.model import Access, PathUse
from bastion.shell.programs import vcs as V
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word, literal_word

E = Effect


def config_key_runs_code(key: str, value: str | None) -> bool:
    """Whether setting ``key`` (to ``value``) can make git run a program."""
    k = key.lower()
    if k.startswith(V.GIT_PAGER_KEYS):
        return value is None or value.strip() not in V.SAFE_PAGERS
    return not k.startswith(V.GIT_SAFE_CONFIG_PREFIXES)


def _check_config(ctx: Ctx, pairs: list[Word], how: str) -> None:
    for w in pairs:
        if w.value is None:
            ctx.add(E.CODE, note=f"git {how} only known at run time")
            continue
        key, eq, value = w.value.partition("=")
        if key.lower() == "init.templatedir":  # init and clone copy its hooks into the new repository
            ctx.add(E.CODE, E.SELF, note=f"git {how} {key}: the new repository gets the template's hooks")
        elif config_key_runs_code(key, value if eq else None):
            ctx.add(E.CODE, note=f"program injection: git {how} {key} can run a program")
            command = _shell_value(key, value) if eq else None
            if command:  # `-c core.pager='cat F; cat'`, `-c alias.x='!cat F'`: what runs is here
                ctx.inner.extend(ctx.run_source(ctx, command, f"git {how} {key}"))


#: Config keys whose value git runs through the shell (git-config(1)).
_SHELL_KEYS = frozenset(
    {"core.pager", "core.editor", "core.sshcommand", "sequence.editor", "diff.external", "core.askpass"}
)
_SHELL_KEY_ENDS = (".textconv", ".command", ".clean", ".smudge", ".process", ".cmd")


def _shell_value(key: str, value: str) -> str | None:
    """The shell command a ``-c KEY=VALUE`` runs, when the value is one."""
    key = key.lower()
    if key.startswith("alias."):
        return value[1:] if value.startswith("!") else None
    if key in _SHELL_KEYS or key.startswith("pager.") or key.endswith(_SHELL_KEY_ENDS):
        return value
    return None


def git(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word], handlers: dict[str, Handler]) -> None:
    args = ctx.words[1:]
    g = V.GIT_GLOBAL
    top, stop = parse_args(
        args, g.takes_value, g.aliases, stop_at_positional=True, known=g.known, optional=g.optional
    )
    for flag in top.flags:
        if g.known is not None and flag.name not in g.known:
            ctx.raise_at(
                1 + flag.index, E.UNKNOWN, note=f"git: option {flag.text!r} is not in its table (unknown)"
            )
    _check_config(ctx, top.values("-c"), "-c")
    for w in top.values("--config-env"):
        key = (w.value or "").partition("=")[0]
        if config_key_runs_code(key, None):
            ctx.add(E.CODE, note=f"program injection: git --config-env {key}")
    if top.has("--exec-path") and top.values("--exec-path"):
        ctx.add(E.CODE, note="git --exec-path runs programs from another directory")
    for w in top.values("-C"):
        ctx.note(f"runs in {w.text}")
    if stop >= len(args):
        ctx.add(E.READ)
        ctx.reader = True
        return
    sub_word = args[stop]
    sub = V.GIT_SUBCOMMANDS.get(sub_word.value or "")
    if sub is None:
        ctx.raise_at(
            1 + stop,
            E.UNKNOWN,
            E.CODE,
            note=f"unknown git subcommand {sub_word.text!r} (may be an alias running a program)",
        )
        return
    was = set(ctx.effects)
    if sub.known is None:  # no option table: at least do not take values for paths
        sub = replace(sub, takes_value=sub.takes_value | V.GIT_SUB_VALUES)
    inner_ctx_program = ctx.program
    apply_spec(ctx, sub, list(args[stop + 1 :]), handlers, at=1 + stop)
    ctx.program = inner_ctx_program
    rest = args[stop + 1 :]
    _runs_commands(ctx, sub_word.value, list(rest))
    if sub_word.value in ("diff", "grep") and any(w.value == "--no-index" for w in rest):
        for w in rest:  # files outside any repository, read as they are named
            if not (w.value or "-").startswith("-"):
                ctx.path(w, Access.READ, f"git {sub_word.value} --no-index reads")
    if was - {E.READ}:
        ctx.reader = False


def _runs_commands(ctx: Ctx, sub: str | None, rest: list[Word]) -> None:
    """The shell commands git itself runs for a subcommand (``git-submodule(1)``: foreach runs
    its command with ``sh -c`` in each submodule; ``git-rebase(1)`` ``--exec``/``-x``;
    ``git-bisect(1)`` run): decided as the shell strings they are."""
    values = [w.value for w in rest]
    if sub == "submodule" and "foreach" in values:
        words = rest[values.index("foreach") + 1 :]
        while words and words[0].value in ("--recursive", "-q", "--quiet"):
            words = words[1:]
        strings = [words] if words else []
    elif sub == "bisect" and values[:1] == ["run"]:
        strings = [rest[1:]] if rest[1:] else []
    elif sub == "rebase":
        strings = [[rest[i + 1]] for i, v in enumerate(values[:-1]) if v in ("-x", "--exec")]
        strings += [[literal_word(v.partition("=")[2])] for v in values if v and v.startswith("--exec=")]
    else:
        return
    for words in strings:
        if any(w.value is None for w in words):
            ctx.dynamic = True
            ctx.note(f"git {sub} runs a command only known at run time")
            continue
        ctx.add(E.CODE, note=f"git {sub} runs a shell command")
        spelled = [w.value or "" for w in words]
        # bisect run execs its argv; foreach and --exec hand their words to the shell
        source = shlex.join(spelled) if sub == "bisect" else " ".join(spelled)
        ctx.inner.extend(ctx.run_source(ctx, source, f"git {sub}"))


def git_listing(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    listing = parsed.has(
        "-l",
        "--list",
        "-a",
        "--all",
        "-r",
        "--remotes",
        "-v",
        "-vv",
        "--contains",
        "--merged",
        "--no-merged",
        "--show-current",
        "--points-at",
        "-n",
    )
    if positionals and not listing:  # raised by the subcommand word: `git branch *` covers it
        at = next((i for i, w in enumerate(ctx.words) if w.value in ("branch", "tag")), -1)
        ctx.raise_at(at, E.WRITE, note="creates a branch / tag")


def git_config(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    reading = parsed.has(
        "--get",
        "--get-all",
        "--get-regexp",
        "--list",
        "-l",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
    )
    if reading or (
        len(positionals) == 1
        and not parsed.has("--unset", "--unset-all", "--remove-section", "--rename-section", "-e", "--edit")
    ):
        return
    edit = next((1 + f.index for f in parsed.flags if f.name == "-e"), -1)
    at = ctx.index_of(positionals[0]) if positionals else edit
    ctx.raise_at(at, E.WRITE, note="git config writes configuration")
    if positionals:
        key = positionals[0].value
        value = positionals[1].value if len(positionals) > 1 else None
        if key is None or config_key_runs_code(key, value):
            ctx.raise_at(at, E.CODE, note=f"program injection: git config {positionals[0].text}")
    if parsed.has("--global"):
        ctx.paths.append(PathUse("~/.gitconfig", Access.WRITE, "--global", "git config --global"))
    if parsed.has("--system"):
        ctx.paths.append(PathUse("/etc/gitconfig", Access.WRITE, "--system", "git config --system"))
    for w in parsed.values("-f", "--file"):  # the file written (without one: the repository's)
        ctx.path(w, Access.WRITE, "git config --file")
    if parsed.has("-e", "--edit"):
        ctx.raise_at(edit, E.CODE, note="git config --edit runs an editor")


def git_clean(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if parsed.has("-n", "--dry-run") and not parsed.has("-f", "--force"):
        ctx.effects.discard(E.DELETE)
        ctx.add(E.READ)
        ctx.reader = True
        return
    ctx.add(E.DELETE, note="git clean deletes untracked files")
    for w in positionals or [Word(".", ".", ".")]:
        ctx.path(w, Access.DELETE, "git clean")
    if parsed.has("-x", "-X"):
        ctx.note("including ignored files")


def git_push(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if parsed.has("-f") or any((w.value or "").startswith("+") for w in positionals[1:]):
        ctx.note("force push rewrites remote history")
    deleting = [w for w in positionals[1:] if (w.value or "").startswith(":")]
    if parsed.has("-d") or deleting:
        at = (
            ctx.index_of(deleting[0])
            if deleting
            else next((2 + f.index for f in parsed.flags if f.name == "-d"), -1)
        )
        ctx.raise_at(at, E.DELETE, note="deletes a remote branch")
    if positionals and not any_host(positionals[0].value or ""):
        ctx.note(f"remote {positionals[0].text!r}")


def git_clone(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    _check_config(ctx, parsed.values("-c", "--config"), "clone -c")
    if len(positionals) >= 2:
        ctx.path(positionals[1], Access.WRITE, "clone destination")
    else:
        ctx.note("clones into a new directory in the cwd")


HANDLERS: dict[str, Handler] = {
    "git_listing": git_listing,
    "git_config": git_config,
    "git_clean": git_clean,
    "git_push": git_push,
    "git_clone": git_clone,
}
