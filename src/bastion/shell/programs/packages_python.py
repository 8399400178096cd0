"""Python's package managers: pip (with its option tables), uv, pipx, conda and friends,
poetry, pdm, pipenv, hatch."""

from __future__ import annotations

from bastion.shell.programs.packages_common import ENV_RUNNER, INSTALL, E, names
from bastion.shell.programs.packages_common import INSTALLER as _I
from bastion.shell.programs.packages_common import NET_READER as _NETR
from bastion.shell.programs.packages_common import OPAQUE as _OPAQUE
from bastion.shell.programs.packages_common import READER as _R
from bastion.shell.programs.packages_common import RUNS_PROJECT as _RUN
from bastion.shell.programs.spec import CODE, DELETE, NET, READ, WRITE, Spec, fs, opts

#: pip's general options (pip 24 `pip --help`); the index options of `pip list`.
_PIP_GENERAL = (
    "-h|--help --debug --isolated --require-virtualenv --python= -v|--verbose -V|--version "
    "-q|--quiet --log=W --no-input --keyring-provider= --proxy=N --retries= --timeout= "
    "--exists-action= --trusted-host=N --cert=R --client-cert=R --cache-dir=W --no-cache-dir "
    "--disable-pip-version-check --no-color --no-python-version-warning --use-feature= "
    "--use-deprecated="
)
_PIP_INDEX = "-i|--index-url=N --extra-index-url=N --no-index -f|--find-links=N"
#: pip list checks PyPI for a newer pip and records it in its cache (list -o asks PyPI),
#: unless told not to (pip 23 under strace: a connect to pypi.org, ~/.cache/pip/selfcheck/).
_PIP_LIST = opts(
    Spec(
        READ,
        reader=True,
        caches=("~/.cache/pip",),
        cache_hosts=("pypi.org",),
        fetches_nothing=fs("--disable-pip-version-check", "--no-index"),
    ),
    f"{_PIP_GENERAL} {_PIP_INDEX} -o|--outdated!N -u|--uptodate!N -e|--editable -l|--local "
    "--user --path=R --pre --format= --not-required --exclude-editable --include-editable "
    "--exclude=",
)
#: pip show/freeze read pip's own configuration under HOME (pip.conf: a config read, as the
#: differential oracle reports it) and look at its cache folder, writing nothing and reaching
#: no host (pip 23 under strace): readers. They never print pip.conf.
_PIP_HOME = Spec(READ, reader=True, note="pip reads its configuration (pip.conf) under HOME")
_PIP_SHOW = opts(_PIP_HOME, f"{_PIP_GENERAL} -f|--files")
_PIP_FREEZE = opts(
    _PIP_HOME,
    f"{_PIP_GENERAL} -r|--requirement=R -l|--local --user --path=R --all --exclude-editable --exclude=",
)
_PIP_CACHE = Spec(
    READ,
    reader=True,
    subcommands={n: opts(_R, _PIP_GENERAL) for n in ("dir", "info", "list")},
    other_sub=Spec(DELETE),
)

PIP = opts(
    Spec(
        _NETR.effects,
        info=fs("--version", "-V", "--help", "-h"),
        subcommands={
            "install": _I,
            "uninstall": _I,
            "download": Spec(frozenset({E.NETWORK, E.WRITE})),
            "list": _PIP_LIST,
            "show": _PIP_SHOW,
            "freeze": _PIP_FREEZE,
            **{n: _R for n in names("check help --version -V debug inspect")},
            "cache": _PIP_CACHE,
            # pip config set/unset/edit writes pip.conf (the user's unless --global/--site)
            "config": Spec(WRITE, handler="package_config"),
            "wheel": Spec(frozenset({E.CODE, E.WRITE, E.NETWORK})),
            "index": _NETR,
            "search": _NETR,
        },
    ),
    _PIP_GENERAL,
)
_LOCKS = Spec(frozenset({E.NETWORK, E.WRITE}))
_UV_TOOL = Spec(
    INSTALL,
    subcommands={"install": _I, "run": _OPAQUE, "list": _R, "uninstall": _I, "upgrade": _I},
    other_sub=_OPAQUE,
)
_UV = Spec(
    frozenset({E.UNKNOWN}),
    subcommands={
        **{"pip": PIP, "add": _I, "remove": _I, "sync": _I, "lock": _LOCKS, "run": ENV_RUNNER},
        **{"tool": _UV_TOOL, "venv": Spec(WRITE), "init": Spec(WRITE), "tree": _R, "version": _R},
        **{"--version": _R, "python": Spec(INSTALL), "build": Spec(CODE), "publish": Spec(NET)},
        **{"export": _R, "format": Spec(WRITE)},
    },
)
_PIPX = Spec(
    INSTALL,
    subcommands={
        **{n: _I for n in ("install", "inject", "upgrade", "uninstall")},
        **{"run": _OPAQUE, "list": _R, "upgrade-all": Spec(INSTALL)},
    },
    other_sub=_OPAQUE,
)
_CONDA = Spec(
    INSTALL,
    subcommands={
        **{n: _I for n in ("install", "create", "update", "remove", "uninstall")},
        **{"list": _R, "info": _R, "search": _NETR, "run": ENV_RUNNER, "activate": _R},
        "env": Spec(WRITE, subcommands={"list": _R}, other_sub=Spec(WRITE)),
    },
)
_POETRY = Spec(
    CODE,
    subcommands={
        **{n: _I for n in ("add", "install", "remove", "update")},
        **{"lock": _LOCKS, "run": ENV_RUNNER, "show": _R, "check": _R, "version": _R},
        **{"build": _RUN, "publish": Spec(NET), "env": _R},
    },
)
_PDM = Spec(
    CODE,
    subcommands={
        **{n: _I for n in ("add", "install", "remove", "sync", "update")},
        **{"run": ENV_RUNNER, "list": _R, "show": _R},
    },
)
_PIPENV = Spec(
    CODE,
    subcommands={**{n: _I for n in ("install", "uninstall", "sync")}, "run": ENV_RUNNER, "graph": _R},
)

PROGRAMS: dict[str, Spec] = {
    "pip": PIP,
    "pip3": PIP,
    "uv": _UV,
    "uvx": _OPAQUE,
    "pipx": _PIPX,
    **{m: _CONDA for m in ("conda", "mamba", "micromamba")},
    "poetry": _POETRY,
    "pdm": _PDM,
    "pipenv": _PIPENV,
    "hatch": Spec(CODE, subcommands={"run": ENV_RUNNER}),
    "easy_install": _I,
}
