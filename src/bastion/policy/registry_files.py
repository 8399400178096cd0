"""A package manager sent to the cloud metadata service by a project file.

Where packages come from is configuration as much as arguments: pip reads its site
``pip.conf`` from the environment it runs in (``.venv/pip.conf`` once the project's venv is
active), npm and pnpm a project ``.npmrc``, Yarn ``.yarnrc``/``.yarnrc.yml``, Bun
``bunfig.toml``, Cargo ``.cargo/config.toml``, Bundler ``.bundle/config``, uv ``uv.toml``, and
uv, Poetry, PDM and Composer their project files. A metadata address spelled in one of them is
reached by ``pip download six`` as surely as by ``pip download --index-url
http://169.254.169.254/ six``: denied the same way (``metadata_words``, for the words).

The files are looked for where the command runs and in its parents below the home directory
(``shell_toolchain.folders_below_home``: the person's own files are their choice), through the call's
``Reach``; an unreadable or over-budget file is not judged here (the contained run still
reaches only the registry hosts its profile names).
"""

from __future__ import annotations

import posixpath
import re

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.metadata_words import metadata_word
from bastion.policy.shell_toolchain import folders_below_home
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import SimpleCommand
from bastion.shell.programs.interpreters import is_python
from bastion.shell.programs.spec import fs

_PIP = (".venv/pip.conf", "venv/pip.conf", "env/pip.conf", ".venv/pip.ini", "venv/pip.ini")
_NODE = (".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", ".bunfig.toml")
_PYPROJECT = ("pyproject.toml", "uv.toml", "poetry.toml", "pdm.toml", "Pipfile")

#: The addresses a file gives (index-url, registry, a mirror): its URLs, never its prose (a
#: pyproject's description may name an address it does not fetch from).
_URLS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>]+")

#: program -> the project files (relative to where it runs) that may name where it fetches.
REGISTRY_FILES: dict[str, tuple[str, ...]] = {
    **{p: (*_PIP, *_PYPROJECT) for p in fs("pip", "pip3", "uv", "poetry", "pdm", "pipenv", "hatch")},
    **{p: _NODE for p in fs("npm", "npx", "pnpm", "pnpx", "yarn", "yarnpkg", "bun", "bunx", "corepack")},
    "cargo": (".cargo/config.toml", ".cargo/config"),
    "bundle": (".bundle/config",),
    "bundler": (".bundle/config",),
    "composer": ("composer.json", "auth.json"),
}


def package_manager(cmd: SimpleCommand) -> str:
    """The package manager ``cmd`` runs (``python3 -m pip`` is pip), or its program."""
    program = cmd.program or ""
    if is_python(program) and "pip" in cmd.argv[1:4] and "-m" in cmd.argv[1:3]:
        return "pip"
    return program


def check_registry_files(
    policy: Policy, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """A DENY for each project file that sends ``cmd`` to a metadata address."""
    program = package_manager(cmd)
    names = REGISTRY_FILES.get(program, ())
    if not names or cwds is None:
        return []
    reasons: list[Reason] = []
    try:
        for folder in dict.fromkeys(d for cwd in cwds for d in folders_below_home(cwd, policy.home)):
            for name in names:
                path = posixpath.join(folder, name)
                if reach.kind(path, follow=True) is not Kind.FILE:
                    continue
                try:
                    data = reach.read(path)
                except OSError:
                    continue
                urls = _URLS.findall(data.decode("utf-8", "replace")) if data else []
                endpoint = metadata_word(("", *urls))
                if endpoint is not None:
                    reasons.append(_reason(program, path, endpoint))
    except OverBudget:
        return reasons
    return reasons


def _reason(program: str, path: str, endpoint: str) -> Reason:
    return Reason(
        Decision.DENY,
        "hardline.metadata",
        "built-in",
        path,
        f"'{program}' fetches from where {path} says, and it names the cloud metadata endpoint "
        f"{endpoint}: never reached by an agent",
    )
