"""The operating system's package managers (apt, dnf, brew, …, pacman): every one installs
with raised privileges unless the subcommand only reads."""

from __future__ import annotations

from bastion.shell.programs.packages_common import INSTALL, E
from bastion.shell.programs.packages_common import INSTALLER as _I
from bastion.shell.programs.packages_common import READER as _R
from bastion.shell.programs.spec import Spec

_INSTALLS = (
    "install reinstall remove purge autoremove upgrade full-upgrade dist-upgrade update erase "
    "downgrade groupinstall localinstall add del uninstall tap link unlink fix upgrade-all"
)
_READS = (
    "list search show info policy depends rdepends history check-update deps leaves outdated "
    "config doctor --version -v help whatprovides provides repolist madison showpkg home desc uses"
)
_MANAGERS = "apt apt-get dnf yum apk brew zypper port snap flatpak apt-cache pkg emerge xbps-install"


def _manager() -> Spec:
    return Spec(
        frozenset({E.INSTALL, E.NETWORK, E.PRIVILEGE}),
        subcommands={**{n: _I for n in _INSTALLS.split()}, **{n: _R for n in _READS.split()}},
        other_sub=Spec(frozenset({E.INSTALL, E.UNKNOWN})),
    )


PROGRAMS: dict[str, Spec] = {
    **{m: _manager() for m in _MANAGERS.split()},
    "pacman": Spec(INSTALL, handler="pacman"),
}
