"""Package managers: which subcommands install (Effect.INSTALL), which only read or run code.

One table per ecosystem (``packages_python``, ``packages_node``, ``packages_system``,
``packages_toolchains``); an installing subcommand's handler ``install`` records the manager
and the packages named. Local paths, URLs and manifest installs also run build code.
"""

from __future__ import annotations

from bastion.shell.programs import packages_node, packages_python, packages_system, packages_toolchains
from bastion.shell.programs.packages_common import INDEX_FLAGS, INSTALL_VALUES
from bastion.shell.programs.spec import Spec

__all__ = ["INDEX_FLAGS", "INSTALL_VALUES", "PROGRAMS"]

PROGRAMS: dict[str, Spec] = {
    **packages_python.PROGRAMS,
    **packages_node.PROGRAMS,
    **packages_system.PROGRAMS,
    **packages_toolchains.PROGRAMS,
}
