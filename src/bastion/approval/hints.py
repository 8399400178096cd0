"""The command lines Bastion prints for a person to copy: every id goes after ``--``.

An id is never generated with a leading ``-`` any more, but ids already stored (and ids a
person pastes) may have one; after ``--`` the CLI reads any word as the id, never as an
option. Options therefore come *before* the ``--``.
"""

from __future__ import annotations


def command(verb: str, ident: str, *options: str) -> str:
    """``command("approvals approve", "abc", "--always")`` → ``bastion approvals approve
    --always -- abc``."""
    return " ".join(("bastion", verb, *options, "--", ident))


def approve(request_id: str, *options: str) -> str:
    return command("approvals approve", request_id, *options)


def deny(request_id: str, *options: str) -> str:
    return command("approvals deny", request_id, *options)


def revoke(grant_id: str) -> str:
    return command("grants revoke", grant_id)
