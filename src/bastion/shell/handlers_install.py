"""Handlers for package installs: ``pip install``, ``npm i``, ``apt-get install``… name the
manager and packages the install policy decides on; ``pacman``'s verbs are its flags."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.hosts import bare_host, url_host
from bastion.shell.model import Access
from bastion.shell.programs.packages import INDEX_FLAGS, INSTALL_VALUES
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


def install_from(ctx: Ctx, manager: str, args: list[Word]) -> None:
    parsed, _ = parse_args(args, INSTALL_VALUES, {"--requirement": "-r", "--editable": "-e"})
    ctx.add(E.INSTALL, E.NETWORK)
    ctx.install_manager = manager
    for w in parsed.values("-r", "-c"):
        ctx.path(w, Access.READ, f"{manager} requirements file")
        ctx.note(f"packages listed in {w.text}")
    for w in parsed.values(*INDEX_FLAGS):  # the index / registry is a network destination
        host = url_host(w.value or "") or bare_host((w.value or "").split("/")[0])
        if host:
            ctx.host(host)
        else:
            ctx.add(E.UNKNOWN, note=f"{manager} index only known at run time: {w.text}")
    local = [*parsed.values("-e")]
    for w in parsed.positionals:
        v = w.value
        if v is None:
            ctx.install_packages.append(w.text)
            ctx.note(f"package name only known at run time: {w.text}")
            continue
        ctx.install_packages.append(v)
        if v.startswith((".", "/", "~")) or v.endswith((".whl", ".tar.gz", ".zip", ".tgz")):
            local.append(w)
        if url_host(v) or v.startswith(("git+", "git@")):
            ctx.note(f"installs from a URL: {v}")
    for w in local:
        ctx.path(w, Access.READ, f"local package installed by {manager}")
        ctx.add(E.CODE, note="installing a local package runs its build code")
    if not parsed.positionals and not local and not parsed.values("-r"):
        ctx.add(E.CODE, note=f"{manager} installs from the project manifest (runs its scripts)")


def install(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    manager = {"pip3": "pip"}.get(ctx.program, ctx.program)
    sub_at = next((i for i, w in enumerate(ctx.words[1:], 1) if w.value in _INSTALL_SUBS), None)
    rest = ctx.words[sub_at + 1 :] if sub_at is not None else list(positionals)
    if ctx.program == "uv" and any(w.value == "pip" for w in ctx.words[1:3]):
        manager = "uv"
    install_from(ctx, manager, list(rest))


_INSTALL_SUBS = frozenset(
    {
        "install",
        "i",
        "add",
        "ci",
        "update",
        "up",
        "upgrade",
        "uninstall",
        "remove",
        "rm",
        "un",
        "reinstall",
        "purge",
        "autoremove",
        "full-upgrade",
        "dist-upgrade",
        "erase",
        "downgrade",
        "groupinstall",
        "localinstall",
        "del",
        "require",
        "get",
        "inject",
        "sync",
        "create",
        "isntall",
        "link",
        "unlink",
        "tap",
        "fix",
        "upgrade-all",
        "install-test",
        "it",
    }
)


def pacman(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    ops = "".join(
        (w.value or "")[1:]
        for w in ctx.words[1:]
        if (w.value or "").startswith("-") and not (w.value or "").startswith("--")
    )
    if "Q" in ops or ("S" in ops and any(c in ops for c in "silgp")) or "F" in ops:
        ctx.effects.clear()
        ctx.add(E.READ)
        ctx.reader = True
        return
    install_from(ctx, "pacman", list(positionals))
