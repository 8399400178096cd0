"""JavaScript's package managers: npm (pnpm and yarn share its table), bun, and the
one-off runners (npx, bunx, pnpx)."""

from __future__ import annotations

from dataclasses import replace

from bastion.shell.programs.packages_common import INSTALLER as _I
from bastion.shell.programs.packages_common import OPAQUE as _OPAQUE
from bastion.shell.programs.packages_common import READER as _R
from bastion.shell.programs.packages_common import RUNS_PROJECT as _RUN
from bastion.shell.programs.packages_common import E, names
from bastion.shell.programs.spec import CODE, READ, WRITE, Spec, fs, opts

#: `npm help run-script` (npm 11): the options of the runner itself. Any other option before
#: `--` is npm configuration (--script-shell, --node-options, --prefix…): unknown.
_RUN_OPTIONS = (
    "-w|--workspace= --workspaces --include-workspace-root --if-present --ignore-scripts "
    "-s|--silent -q|--quiet --foreground-scripts --json --no-color --color? --loglevel="
)
_NODE_RUN = {
    **{
        n: opts(replace(_RUN, handler="npm_named"), _RUN_OPTIONS)
        for n in names(
            "test t start restart stop build rebuild pack publish lint dev serve preview format "
            "typecheck check"
        )
    },
    **{n: opts(replace(_RUN, handler="npm_run"), _RUN_OPTIONS) for n in ("run", "run-script")},
}
#: npm writes its logs and cache under ~/.npm and asks the registry for a newer npm on
#: every command; ls/view/outdated… are reads otherwise (npm 11 `npm help ls`).
_NPM_COMMON = (
    "-w|--workspace= --workspaces --include-workspace-root --json -g|--global "
    "--registry=N --loglevel= -s|--silent -q|--quiet -d|--verbose --color? --no-color "
    "--prefix=R --userconfig=R --offline --prefer-offline --no-update-notifier"
)
_NPM_READ = Spec(READ, caches=("~/.npm",), cache_hosts=("registry.npmjs.org",))
_NPM_LS = opts(
    _NPM_READ,
    f"{_NPM_COMMON} -a|--all -l|--long -p|--parseable --depth= "
    "--omit= --include= --link --package-lock-only --no-unicode --install-links",
)
_NPM_VIEW = opts(_NPM_READ, _NPM_COMMON)
_NPM_CONFIG = Spec(
    WRITE,
    subcommands={n: _NPM_VIEW for n in ("get", "list", "ls")},
    other_sub=Spec(WRITE, note="npm config changes ~/.npmrc", handler="package_config"),
)
_NODE_READ = {
    **{n: _NPM_LS for n in ("ls", "list", "ll", "la")},
    **{
        n: _NPM_VIEW
        for n in names("outdated view info show v why explain root bin prefix doctor audit licenses help")
    },
    "--version": _R,
    "-v": _R,
    "config": _NPM_CONFIG,
    # `npm help pkg`: get reads package.json; set, delete and fix write it.
    "pkg": Spec(
        WRITE,
        subcommands={"get": opts(Spec(READ, reader=True), "-w|--workspace= --workspaces --json")},
        other_sub=Spec(WRITE, note="npm pkg changes package.json"),
    ),
}
_NPM_INSTALLS = "install i add ci update up upgrade uninstall remove rm un link install-test it isntall"
# The program's own class is CODE: an option or word it does not know raises UNKNOWN, which
# an allow entry (`npm run *`) must then name; the bare program or an unknown subcommand is
# opaque (other_sub).
NPM = Spec(
    frozenset({E.CODE}),
    info=fs("--version", "-v"),
    subcommands={
        **{n: _I for n in _NPM_INSTALLS.split()},
        **_NODE_RUN,
        **_NODE_READ,
        **{"exec": _OPAQUE, "x": _OPAQUE, "dlx": _OPAQUE, "create": _OPAQUE, "init": Spec(WRITE)},
        "publish": Spec(frozenset({E.NETWORK, E.CODE})),
        "token": Spec(frozenset({E.CREDENTIALS, E.NETWORK})),
        "login": Spec(frozenset({E.CREDENTIALS, E.NETWORK})),
    },
    other_sub=Spec(frozenset({E.CODE}), note="runs a package.json script", handler="npm_named"),
)
_BUN = Spec(
    CODE,
    subcommands={
        **{n: _I for n in ("add", "install", "i", "remove", "rm", "update")},
        **{"x": _OPAQUE, "--version": _R},
        **{n: replace(_RUN, handler="npm_named") for n in ("run", "test", "build")},
    },
    other_sub=replace(_RUN, handler="npm_named"),
)

PROGRAMS: dict[str, Spec] = {
    **{n: _OPAQUE for n in ("npx", "bunx", "pnpx")},
    **{n: NPM for n in ("npm", "pnpm", "yarn")},
    "bun": _BUN,
}
