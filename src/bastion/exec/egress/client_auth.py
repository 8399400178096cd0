"""Held secrets for the clients that send a token themselves: git and npm are told to send the
placeholder; the egress proxy swaps in the value (in ``Authorization``, Basic included), only
for the secret's hosts and only once a person approved the first request there (``held.py``).

git: a run with held secrets gets ``credential.sh`` in its public directory and, through
``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_0``/``GIT_CONFIG_VALUE_0`` (the run's environment is
clean, so nothing is overridden), git's ``credential.helper`` pointing at it. For a host of
a held secret (``pypi.org``; ``*.github.com`` its subdomains; an address range has no name to
match and is left out) it prints ``username=x-access-token`` and ``password=$NAME`` - the
placeholder the variable holds in the sandbox; for any other host nothing, so git goes on
as it would. ``x-access-token`` is the user name GitHub, GitLab and Gitea take with a token.

npm (``npm publish``, installs from a private registry): ``NPM_CONFIG_USERCONFIG`` names
``npmrc`` there (the person's own ``~/.npmrc`` is hidden in every profile), which gives each
host a held secret names exactly ``//HOST/:_authToken=PLACEHOLDER``: the registry token npm
sends to ``https://HOST/`` (a project's ``.npmrc`` still applies over it).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from bastion.exec.egress.binding import SANDBOX_DIR
from bastion.exec.egress.held import HeldSecret

SCRIPT = "credential.sh"
NPMRC = "npmrc"
USER = "x-access-token"


def _patterns(hosts: Sequence[str]) -> list[str]:
    out = []
    for host in hosts:
        if "/" in host or ":" in host or host == "*":
            continue  # an address range (or v6 literal): no name for git to ask about
        out.append(f"*{shlex.quote(host[1:])}" if host.startswith("*.") else shlex.quote(host))
    return out


def script(held: Sequence[HeldSecret]) -> str:
    """``credential.sh``: git runs it as ``sh credential.sh get`` with the request on stdin."""
    cases = []
    for secret in held:
        patterns = _patterns(secret.hosts)
        if patterns:
            answer = f"printf 'username={USER}\\npassword=%s\\n' \"${secret.name}\"; exit 0"
            cases.append(f"  {'|'.join(patterns)}) {answer};;")
    body = "\n".join(cases)
    return (
        '#!/bin/sh\ntest "$1" = get || exit 0\nhost=\n'
        'while IFS= read -r line; do case "$line" in host=*) host=${line#host=};; esac; done\n'
        "host=${host%:*}\n"
        f'case "$host" in\n{body}\nesac\nexit 0\n'
    )


def npmrc(held: Sequence[HeldSecret]) -> str:
    """``//HOST/:_authToken=PLACEHOLDER`` for each exact host name a held secret names."""
    lines: dict[str, str] = {}
    for secret in held:
        for host in secret.hosts:
            if not any(c in host for c in "*/:"):
                lines.setdefault(host, f"//{host}/:_authToken={secret.placeholder}\n")
    return "".join(lines.values())


def prepare(public: str, held: Sequence[HeldSecret]) -> dict[str, str]:
    """Write ``credential.sh``; the variables that make git and npm send the placeholders
    (none without a secret)."""
    if not held:
        return {}
    Path(public, SCRIPT).write_text(script(held))
    git = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "credential.helper",
        "GIT_CONFIG_VALUE_0": f"!sh {SANDBOX_DIR}/{SCRIPT}",
    }
    Path(public, NPMRC).write_text(npmrc(held))
    return git | {"NPM_CONFIG_USERCONFIG": f"{SANDBOX_DIR}/{NPMRC}"}
