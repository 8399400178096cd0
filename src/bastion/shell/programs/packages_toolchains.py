"""Language toolchains that install packages too: cargo, go, gem, bundle, composer."""

from __future__ import annotations

from dataclasses import replace

from bastion.shell.programs.packages_common import ENV_RUNNER, INSTALL, E, names
from bastion.shell.programs.packages_common import INSTALLER as _I
from bastion.shell.programs.packages_common import NET_READER as _NETR
from bastion.shell.programs.packages_common import READER as _R
from bastion.shell.programs.packages_common import RUNS_PROJECT as _RUN
from bastion.shell.programs.spec import CODE, NET, READ, WRITE, Spec, fs, opts

#: cargo tree / metadata resolve the dependency graph: without a lock file (or without
#: --offline) they update the registry index under ~/.cargo. `cargo metadata --no-deps`
#: reads the workspace's manifests only (cargo 1.8x under strace: no socket, no write).
_CARGO_READ = opts(
    Spec(
        READ,
        reader=True,
        caches=("~/.cargo",),
        cache_hosts=("index.crates.io",),
    ),
    "-p|--package= --workspace --exclude= -e|--edges= -i|--invert= --prune= --depth= "
    "--no-dedupe -d|--duplicates --charset= -f|--format= --prefix= --features= "
    "-F= --all-features --no-default-features --target= --manifest-path=R --frozen --locked "
    "--offline -v|--verbose -q|--quiet --color= --format-version= --no-deps "
    "--filter-platform= -Z= -h|--help",
)
#: cargo 1.8x `cargo build --help` and `cargo test --help` (they share most options).
_CARGO_BUILD = (
    "--future-incompat-report --message-format= -v|--verbose -q|--quiet --color= --config=U "
    "-Z= -h|--help -p|--package= --workspace --exclude= --all --lib --bins --bin= --examples "
    "--example= --tests --test= --benches --bench= --all-targets -F|--features= "
    "--all-features --no-default-features -r|--release --profile= -j|--jobs= --keep-going "
    "--target= --target-dir=W --unit-graph --timings? --manifest-path=R "
    "--ignore-rust-version --locked --offline --frozen --no-run --no-fail-fast --doc"
)
_GO_LIST = (
    "-m -json? -f= -e -deps -test -find -compiled -export -u -versions -retracted "
    "-reuse= -mod= -modfile=R -tags= -C=R -x -n -v"
)
_FETCHES = frozenset({E.NETWORK, E.WRITE})

_CARGO = Spec(
    CODE,
    info=fs("--version", "-V", "--help", "-h"),
    subcommands={
        **{n: _I for n in ("install", "add", "remove", "uninstall")},
        **{n: opts(_RUN, _CARGO_BUILD) for n in names("build b test t run r check c clippy bench doc")},
        **{n: _RUN for n in ("publish", "package", "fix")},
        "tree": _CARGO_READ,
        "metadata": replace(_CARGO_READ, fetches_nothing=fs("--no-deps")),
        **{n: _R for n in names("--version version help locate-project pkgid verify-project read-manifest")},
        "search": Spec(NET, cache_hosts=("crates.io",)),
        **{"fmt": Spec(WRITE), "clean": Spec(frozenset({E.DELETE})), "new": Spec(WRITE)},
        **{"init": Spec(WRITE), "update": Spec(_FETCHES), "fetch": Spec(NET), "vendor": Spec(_FETCHES)},
    },
    other_sub=Spec(frozenset({E.CODE, E.UNKNOWN}), note="cargo subcommand plugin"),
)
_GO_LIST_SPEC = Spec(
    READ, caches=("~/go/pkg/mod",), cache_hosts=("proxy.golang.org",), note="go list may download modules"
)
_GO_MOD = Spec(_FETCHES, subcommands={"graph": _R, "why": _R, "verify": _NETR}, other_sub=Spec(_FETCHES))
_GO = Spec(
    CODE,
    subcommands={
        "install": _I,
        "get": _I,
        **{n: _RUN for n in ("build", "test", "run", "generate", "vet", "tool", "bug")},
        **{"version": opts(_R, "-m -v"), "help": _R, "doc": _RUN},
        "env": opts(_R, "-json -changed -w!C -u!C"),
        "list": opts(_GO_LIST_SPEC, _GO_LIST),
        "fmt": Spec(WRITE),
        "mod": _GO_MOD,
        **{"clean": Spec(frozenset({E.DELETE})), "work": Spec(WRITE)},
    },
)
_GEM = Spec(
    INSTALL,
    subcommands={
        **{n: _I for n in ("install", "uninstall", "update")},
        **{"list": _R, "search": _NETR, "env": _R, "which": _R},
    },
)
_BUNDLE = Spec(
    INSTALL,
    subcommands={
        **{n: _I for n in ("install", "add", "update")},
        **{"exec": ENV_RUNNER, "list": _R, "show": _R, "check": _R},
    },
)
_COMPOSER = Spec(
    INSTALL,
    subcommands={
        **{n: _I for n in ("require", "install", "update", "remove")},
        **{"show": _R, "run": _RUN, "run-script": _RUN, "exec": _RUN},
    },
)

PROGRAMS: dict[str, Spec] = {
    "cargo": _CARGO,
    "go": _GO,
    "gem": _GEM,
    "bundle": _BUNDLE,
    "composer": _COMPOSER,
}
