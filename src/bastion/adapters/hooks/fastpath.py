"""The installed hook's launcher: ``python -S <this file> hook AGENT [options]``.

A hook runs once per tool call, so its start-up is its cost. ``-S`` skips the ``site``
module, about 6 ms of a 19 ms ``python -c pass`` on a 2-core machine (the virtualenv's
``.pth`` files, setuptools' distutils shim, an editable install's finder), and the daemon's
fast path needs none of it: only this package, whose root is found from this file. When no
daemon answers, ``site.main()`` adds the site-packages, as start-up would have, and the
hook is decided in this process exactly as ``bastion hook`` decides it.

Run as a script, Python puts this file's folder first on ``sys.path``: that entry is
replaced by the package's root, so no module of this folder shadows another by its name.
"""

from __future__ import annotations

import sys


def package_root() -> str:
    """The folder that holds ``bastion/`` (site-packages, or ``src`` for an editable install).
    Without ``os`` (≈2.5 ms to import under ``-S``) unless the path needs normalising."""
    path = __file__  # …/bastion/adapters/hooks/fastpath.py, absolute when run as a script
    parts = path.split("/")
    if parts[0] or any(part in ("", ".", "..") for part in parts[1:]):
        import os

        path = os.path.abspath(path)
    return path.rsplit("/", 4)[0]


def add_site_packages() -> None:
    """What ``-S`` left out, now that the hook needs more than the standard library. Only
    for a process started without ``site``: run twice, it would re-execute the ``.pth``s."""
    if sys.flags.no_site:
        import site

        site.main()


def run(argv: list[str]) -> int:
    if argv[:1] != ["hook"]:
        sys.stderr.write("usage: python -S fastpath.py hook AGENT [options]\n")
        return 2
    from bastion.adapters.hooks.client import hook_main

    return hook_main(argv[1:], before_in_process=add_site_packages)


if __name__ == "__main__":
    if sys.flags.safe_path:  # -P or -I: no script folder was put first
        sys.path.insert(0, package_root())
    else:
        sys.path[0] = package_root()
    sys.exit(run(sys.argv[1:]))
