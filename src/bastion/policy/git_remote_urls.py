"""git commands that print a remote's URL print the token written in it.

``git remote -v``, ``git remote get-url``, ``git remote show``, ``git ls-remote --get-url``
and ``git config`` reads of ``remote.*``/``url.*`` (or ``--list``) print the URL after the
``url.<base>.insteadOf`` rewriting, and a URL may carry ``user:TOKEN@``. When the
configuration git reads (the repository's, the person's, the system's, and what they
include) holds such a URL in ``remote.*.url``, ``remote.*.pushurl`` or as an ``url.<base>``
section, these printers are credential reads (denied); otherwise they print no secret.
"""

from __future__ import annotations

import re

from bastion.policy.decision import Decision, Reason
from bastion.policy.repositories import config_entries
from bastion.policy.treewalk import Reach

#: scheme://userinfo@ : a password part (``user:TOKEN@``), or a long user that is a token
#: by itself (``https://ghp_…@github.com``); ``ssh://git@host`` names only a user.
_USERINFO = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://([^/@?#]*)@")
_TOKEN_USER_LENGTH = 20
_CONFIG_READS = frozenset({"--list", "-l", "--get", "--get-all", "--get-regexp", "--get-urlmatch"})
_CONFIG_READ_VERBS = frozenset({"get", "list"})


def carries_secret(url: str) -> bool:
    """Does this URL hold a password or a token in its userinfo?"""
    found = _USERINFO.match(url.strip())
    if found is None:
        return False
    user, colon, password = found.group(1).partition(":")
    return bool(password) or (not colon and len(user) >= _TOKEN_USER_LENGTH)


def prints_remote_url(sub: str | None, args: tuple[str, ...]) -> bool:
    """Does ``git SUB ARGS`` print a remote's (rewritten) URL?"""
    if sub == "remote":
        return bool({"-v", "--verbose"} & set(args)) or (bool(args) and args[0] in ("get-url", "show"))
    if sub == "ls-remote":
        return "--get-url" in args
    if sub != "config":
        return False
    words = [a for a in args if not a.startswith("-")]
    if _CONFIG_READS & set(args) or (words and words[0] in _CONFIG_READ_VERBS):
        return True
    keys = [w for w in words if w.lower().startswith(("remote.", "url."))]
    return len(words) == 1 and bool(keys)  # `git config remote.origin.url` reads it


def remote_token_reasons(reach: Reach, files: list[str], home: str, printer: str) -> list[Reason]:
    """Why ``printer`` reads a credential: each URL with a token the configuration holds."""
    reasons: list[Reason] = []
    for path, entry, _ in config_entries(reach, ((f, False) for f in files), home):
        if entry.section == "url" and entry.subsection is not None:
            url = entry.subsection  # [url "https://user:TOKEN@host/"] insteadOf = https://host/
        elif entry.section == "remote" and entry.name in ("url", "pushurl") and entry.value:
            url = entry.value
        else:
            continue
        if carries_secret(url):
            reasons.append(
                Reason(
                    Decision.DENY,
                    "hardline.credentials",
                    "built-in",
                    f"{path}:{entry.line} {entry.section}.*",
                    f"{printer} prints the remote URL, and {path} (line {entry.line}) writes a token "
                    "into it: never read by an agent",
                )
            )
    return reasons
