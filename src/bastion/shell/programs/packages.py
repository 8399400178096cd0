"""Package managers: which subcommands install (Effect.INSTALL), which only read or run code.

``INSTALLS`` maps a manager to its installing subcommands; the handler ``install`` records the
manager and the packages named. Local paths, URLs and manifest installs also run build code.
"""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.programs.spec import CODE, DELETE, NET, READ, WRITE, Spec, fs, opts

E = Effect
INSTALL = frozenset({E.INSTALL, E.NETWORK})
_R = Spec(READ, reader=True)
_NETR = Spec(NET)
_RUN = Spec(CODE, note="runs project code")
_OPAQUE = Spec(frozenset({E.CODE, E.UNKNOWN}), note="opaque runner")
_I = Spec(INSTALL, handler="install")

#: Options that take a value, per manager (so values are not taken for package names).
INSTALL_VALUES = fs(
    "-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url",
    "-t", "--target", "--prefix", "--root", "-f", "--find-links", "--registry", "--tag",
    "--version", "--features", "--git", "--branch", "--rev", "--path", "--python", "-p",
    "--group", "-G", "--extra", "--source", "-n", "--name", "-c", "--channel", "--filter",
    "--save-prefix", "--index", "--target-dir", "--root-dir", "-e", "--editable",
)

#: pip's general options (pip 24 `pip --help`); the index options of `pip list`.
_PIP_GENERAL = (
    "-h|--help --debug --isolated --require-virtualenv --python= -v|--verbose -V|--version "
    "-q|--quiet --log=W --no-input --keyring-provider= --proxy=N --retries= --timeout= "
    "--exists-action= --trusted-host=N --cert=R --client-cert=R --cache-dir=W --no-cache-dir "
    "--disable-pip-version-check --no-color --no-python-version-warning --use-feature= "
    "--use-deprecated="
)
_PIP_INDEX = "-i|--index-url=N --extra-index-url=N --no-index -f|--find-links=N"
#: pip list checks PyPI for a newer pip and records it in its cache (list -o asks PyPI).
_PIP_LIST = opts(Spec(READ, caches=("~/.cache/pip",), cache_hosts=("pypi.org",)), (
    f"{_PIP_GENERAL} {_PIP_INDEX} -o|--outdated -u|--uptodate -e|--editable -l|--local "
    "--user --path=R --pre --format= --not-required --exclude-editable --include-editable "
    "--exclude="))
#: pip show/freeze read pip's own config and cache under HOME (seen by the differential oracle).
_PIP_HOME = Spec(READ, caches=("~/.cache/pip",))
_PIP_SHOW = opts(_PIP_HOME, f"{_PIP_GENERAL} -f|--files")
_PIP_FREEZE = opts(_PIP_HOME, f"{_PIP_GENERAL} -r|--requirement=R -l|--local --user --path=R --all "
                        "--exclude-editable --exclude=")
#: Install options whose value is the package index or registry reached.
INDEX_FLAGS = ("-i", "--index-url", "--extra-index-url", "--registry", "-f", "--find-links",
               "--index", "--default-index", "--source")

PIP = opts(Spec(_NETR.effects, info=fs("--version", "-V", "--help", "-h"), subcommands={
    "install": _I, "uninstall": _I, "download": Spec(frozenset({E.NETWORK, E.WRITE})),
    "list": _PIP_LIST, "show": _PIP_SHOW, "freeze": _PIP_FREEZE,
    **{n: _R for n in ("check", "help", "--version", "-V", "debug", "inspect")},
    "cache": Spec(READ, reader=True, subcommands={n: opts(_R, _PIP_GENERAL) for n in (
        "dir", "info", "list")}, other_sub=Spec(DELETE)),
    "config": Spec(WRITE), "wheel": Spec(frozenset({E.CODE, E.WRITE, E.NETWORK})),
    "index": _NETR, "search": _NETR,
}), _PIP_GENERAL)
_NODE_RUN = {n: _RUN for n in ("run", "run-script", "test", "t", "start", "restart", "stop",
                               "build", "rebuild", "pack", "publish", "lint", "dev", "serve",
                               "preview", "format", "typecheck", "check")}
#: npm writes its logs and cache under ~/.npm and asks the registry for a newer npm on
#: every command; ls/view/outdated… are reads otherwise (npm 11 `npm help ls`).
_NPM_COMMON = (
    "-w|--workspace= --workspaces --include-workspace-root --json -g|--global "
    "--registry=N --loglevel= -s|--silent -q|--quiet -d|--verbose --color? --no-color "
    "--prefix=R --userconfig=R --offline --prefer-offline --no-update-notifier"
)
_NPM_READ = Spec(READ, caches=("~/.npm",), cache_hosts=("registry.npmjs.org",))
_NPM_LS = opts(_NPM_READ, f"{_NPM_COMMON} -a|--all -l|--long -p|--parseable --depth= "
                          "--omit= --include= --link --package-lock-only --no-unicode "
                          "--install-links")
_NPM_VIEW = opts(_NPM_READ, _NPM_COMMON)
_NODE_READ = {
    **{n: _NPM_LS for n in ("ls", "list", "ll", "la")},
    **{n: _NPM_VIEW for n in ("outdated", "view", "info", "show", "v", "why", "explain",
                              "root", "bin", "prefix", "doctor", "audit", "licenses",
                              "help")},
    "--version": _R, "-v": _R,
    "config": Spec(WRITE, subcommands={n: _NPM_VIEW for n in ("get", "list", "ls")},
                   other_sub=Spec(WRITE, note="npm config changes ~/.npmrc")),
}
NPM = Spec(frozenset({E.CODE, E.UNKNOWN}), info=fs("--version", "-v"), subcommands={
    **{n: _I for n in ("install", "i", "add", "ci", "update", "up", "upgrade", "uninstall",
                       "remove", "rm", "un", "link", "install-test", "it", "isntall")},
    **_NODE_RUN, **_NODE_READ,
    "exec": _OPAQUE, "x": _OPAQUE, "dlx": _OPAQUE, "create": _OPAQUE, "init": Spec(WRITE),
    "publish": Spec(frozenset({E.NETWORK, E.CODE})),
    "token": Spec(frozenset({E.CREDENTIALS, E.NETWORK})),
    "login": Spec(frozenset({E.CREDENTIALS, E.NETWORK})),
}, other_sub=Spec(frozenset({E.CODE}), note="runs a package.json script"))

#: cargo tree / metadata resolve the dependency graph: without a lock file (or without
#: --offline) they update the registry index under ~/.cargo.
_CARGO_READ = opts(Spec(READ, caches=("~/.cargo",), cache_hosts=("index.crates.io",)), (
    "-p|--package= --workspace --exclude= -e|--edges= -i|--invert= --prune= --depth= "
    "--no-dedupe -d|--duplicates --charset= -f|--format= --prefix= --features= "
    "-F= --all-features --no-default-features --target= --manifest-path=R --frozen --locked "
    "--offline -v|--verbose -q|--quiet --color= --format-version= --no-deps "
    "--filter-platform= -Z= -h|--help"))
#: cargo 1.8x `cargo build --help` and `cargo test --help` (they share most options).
_CARGO_BUILD = (
    "--future-incompat-report --message-format= -v|--verbose -q|--quiet --color= --config=U "
    "-Z= -h|--help -p|--package= --workspace --exclude= --all --lib --bins --bin= --examples "
    "--example= --tests --test= --benches --bench= --all-targets -F|--features= "
    "--all-features --no-default-features -r|--release --profile= -j|--jobs= --keep-going "
    "--target= --target-dir=W --unit-graph --timings? --manifest-path=R "
    "--ignore-rust-version --locked --offline --frozen --no-run --no-fail-fast --doc"
)
_GO_LIST = ("-m -json? -f= -e -deps -test -find -compiled -export -u -versions -retracted "
            "-reuse= -mod= -modfile=R -tags= -C=R -x -n -v")

PROGRAMS: dict[str, Spec] = {
    "pip": PIP, "pip3": PIP,
    "uv": Spec(frozenset({E.UNKNOWN}), subcommands={
        "pip": PIP, "add": _I, "remove": _I, "sync": _I, "lock": Spec(frozenset({E.NETWORK,
                                                                                 E.WRITE})),
        "run": Spec(CODE, handler="env_runner"), "tool": Spec(INSTALL, subcommands={
            "install": _I, "run": _OPAQUE, "list": _R, "uninstall": _I, "upgrade": _I},
            other_sub=_OPAQUE),
        "venv": Spec(WRITE), "init": Spec(WRITE), "tree": _R, "version": _R, "--version": _R,
        "python": Spec(INSTALL), "build": Spec(CODE), "publish": Spec(NET), "export": _R,
        "format": Spec(WRITE),
    }),
    "uvx": _OPAQUE, "npx": _OPAQUE, "bunx": _OPAQUE, "pnpx": _OPAQUE,
    "pipx": Spec(INSTALL, subcommands={"install": _I, "inject": _I, "upgrade": _I,
                                        "uninstall": _I, "run": _OPAQUE, "list": _R,
                                        "upgrade-all": Spec(INSTALL)}, other_sub=_OPAQUE),
    "npm": NPM, "pnpm": NPM, "yarn": NPM,
    "bun": Spec(CODE, subcommands={**{n: _I for n in ("add", "install", "i", "remove",
                                                     "rm", "update")},
                                   "x": _OPAQUE, "run": _RUN, "test": _RUN, "build": _RUN,
                                   "--version": _R}, other_sub=_RUN),
    **{m: Spec(frozenset({E.INSTALL, E.NETWORK, E.PRIVILEGE}), subcommands={
        **{n: _I for n in ("install", "reinstall", "remove", "purge", "autoremove", "upgrade",
                           "full-upgrade", "dist-upgrade", "update", "erase", "downgrade",
                           "groupinstall", "localinstall", "add", "del", "uninstall", "tap",
                           "link", "unlink", "fix", "upgrade-all")},
        **{n: _R for n in ("list", "search", "show", "info", "policy", "depends", "rdepends",
                           "history", "check-update", "deps", "leaves", "outdated", "config",
                           "doctor", "--version", "-v", "help", "whatprovides", "provides",
                           "repolist", "madison", "showpkg", "home", "desc", "uses")},
    }, other_sub=Spec(frozenset({E.INSTALL, E.UNKNOWN})))
      for m in ("apt", "apt-get", "dnf", "yum", "apk", "brew", "zypper", "port", "snap",
                "flatpak", "apt-cache", "pkg", "emerge", "xbps-install")},
    "pacman": Spec(INSTALL, handler="pacman"),
    "cargo": Spec(CODE, info=fs("--version", "-V", "--help", "-h"), subcommands={
        "install": _I, "add": _I, "remove": _I, "uninstall": _I,
        **{n: opts(_RUN, _CARGO_BUILD) for n in ("build", "b", "test", "t", "run", "r",
                                                 "check", "c", "clippy", "bench", "doc")},
        **{n: _RUN for n in ("publish", "package", "fix")},
        **{n: _CARGO_READ for n in ("tree", "metadata")},
        **{n: _R for n in ("--version", "version", "help", "locate-project", "pkgid",
                           "verify-project", "read-manifest")},
        "search": Spec(NET, cache_hosts=("crates.io",)),
        "fmt": Spec(WRITE), "clean": Spec(frozenset({E.DELETE})), "new": Spec(WRITE),
        "init": Spec(WRITE), "update": Spec(frozenset({E.NETWORK, E.WRITE})),
        "fetch": Spec(NET), "vendor": Spec(frozenset({E.NETWORK, E.WRITE})),
    }, other_sub=Spec(frozenset({E.CODE, E.UNKNOWN}), note="cargo subcommand plugin")),
    "go": Spec(CODE, subcommands={
        "install": _I, "get": _I,
        **{n: _RUN for n in ("build", "test", "run", "generate", "vet", "tool", "bug")},
        "version": opts(_R, "-m -v"), "help": _R, "doc": _RUN,
        "env": opts(_R, "-json -changed -w!C -u!C"),
        "list": opts(Spec(READ, caches=("~/go/pkg/mod",), cache_hosts=("proxy.golang.org",),
                          note="go list may download modules"), _GO_LIST),
        "fmt": Spec(WRITE), "mod": Spec(frozenset({E.NETWORK, E.WRITE}), subcommands={
            "graph": _R, "why": _R, "verify": _NETR}, other_sub=Spec(
                frozenset({E.NETWORK, E.WRITE}))),
        "clean": Spec(frozenset({E.DELETE})), "work": Spec(WRITE),
    }),
    "gem": Spec(INSTALL, subcommands={"install": _I, "uninstall": _I, "update": _I,
                                       "list": _R, "search": _NETR, "env": _R, "which": _R}),
    "bundle": Spec(INSTALL, subcommands={"install": _I, "add": _I, "update": _I,
                                          "exec": Spec(CODE, handler="env_runner"),
                                          "list": _R, "show": _R, "check": _R}),
    "composer": Spec(INSTALL, subcommands={"require": _I, "install": _I, "update": _I,
                                            "remove": _I, "show": _R, "run": _RUN,
                                            "run-script": _RUN, "exec": _RUN}),
    **{m: Spec(INSTALL, subcommands={"install": _I, "create": _I, "update": _I, "remove": _I,
                                      "uninstall": _I, "list": _R, "info": _R, "search": _NETR,
                                      "run": Spec(CODE, handler="env_runner"),
                                      "activate": _R, "env": Spec(WRITE, subcommands={
                                          "list": _R}, other_sub=Spec(WRITE))})
       for m in ("conda", "mamba", "micromamba")},
    "poetry": Spec(CODE, subcommands={"add": _I, "install": _I, "remove": _I, "update": _I,
                                       "lock": Spec(frozenset({E.NETWORK, E.WRITE})),
                                       "run": Spec(CODE, handler="env_runner"),
                                       "show": _R, "check": _R, "version": _R,
                                       "build": _RUN, "publish": Spec(NET), "env": _R}),
    "pdm": Spec(CODE, subcommands={"add": _I, "install": _I, "remove": _I, "sync": _I,
                                    "update": _I, "run": Spec(CODE, handler="env_runner"),
                                    "list": _R, "show": _R}),
    "pipenv": Spec(CODE, subcommands={"install": _I, "uninstall": _I, "sync": _I,
                                       "run": Spec(CODE, handler="env_runner"),
                                       "graph": _R}),
    "hatch": Spec(CODE, subcommands={"run": Spec(CODE, handler="env_runner")}),
    "easy_install": _I,
}
