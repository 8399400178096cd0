"""What every package-manager table shares: the install effect and the specs most
subcommands reuse, and the install options the ``install`` handler reads."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.programs.spec import CODE, NET, READ, Spec, fs

E = Effect


def names(text: str) -> tuple[str, ...]:
    """The space-separated words of ``text`` (keeps long name tables compact)."""
    return tuple(text.split())


INSTALL = frozenset({E.INSTALL, E.NETWORK})
READER = Spec(READ, reader=True)
NET_READER = Spec(NET)
RUNS_PROJECT = Spec(CODE, note="runs project code")
OPAQUE = Spec(frozenset({E.CODE, E.UNKNOWN}), note="opaque runner")
INSTALLER = Spec(INSTALL, handler="install")
#: A manager's `run`: a command in the project's environment (classified like env).
ENV_RUNNER = Spec(CODE, handler="env_runner")

#: Options that take a value, per manager (so values are not taken for package names).
INSTALL_VALUES = fs(
    *names(
        "-r --requirement -c --constraint -i --index-url --extra-index-url -t --target --prefix "
        "--root -f --find-links --registry --tag --version --features --git --branch --rev --path "
        "--python -p --group -G --extra --source -n --name -c --channel --filter --save-prefix "
        "--index --target-dir --root-dir -e --editable"
    )
)
#: Install options whose value is the package index or registry reached.
INDEX_FLAGS = names(
    "-i --index-url --extra-index-url --registry -f --find-links --index --default-index --source"
)
