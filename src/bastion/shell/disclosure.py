"""What a simple command discloses or changes about the shell and Bastion itself: secret
variables it prints (``echo $GITHUB_TOKEN``, ``printenv``), variables it assigns behind a
printer (``printf -v``), and Bastion's own state (``bastion policy trust``…)."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
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


def printed_credentials(ctx: Ctx) -> None:
    """echo $GITHUB_TOKEN, printenv AWS_SECRET_ACCESS_KEY, printenv / set with no args."""
    args = ctx.words[1:]
    if ctx.program in _PRINTERS:
        names = [v for w in args for v in w.vars]
        if ctx.program == "printenv":
            names += [w.value for w in args if w.value and not w.value.startswith("-")]
            if not [w for w in args if not (w.value or "x").startswith("-")]:
                ctx.add(E.CREDENTIALS, note="printenv without names prints every variable")
        secret = [n for n in names if secret_name(n)]
        if secret:
            ctx.add(E.CREDENTIALS, note=f"prints secret-looking variable {secret[0]}")
    elif ctx.program in ("set", "export", "declare", "typeset") and not args and not (ctx.raw.assigns):
        ctx.add(E.CREDENTIALS, note=f"{ctx.program} without arguments prints variables")
    elif ctx.program in ("export", "declare", "typeset") and any(
        (w.value or "").startswith("-") and "p" in (w.value or "") for w in args
    ):
        ctx.add(E.CREDENTIALS, note=f"{ctx.program} -p prints variables")
