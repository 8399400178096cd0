"""A credential known by what it holds, not by its name.

No list of names covers every tool's credential store (``~/.sentryclirc``,
``~/.config/stripe/config.toml``, a kubeconfig copied under any name). A read of a file
outside every readable root is asked anyway; when the gate can read the file and its first
bytes hold a secret, reading it is reading a credential: denied, never asked. What counts as
a secret: a private key block, a token of a well-known issuer's shape, a URL carrying a
password, or an assignment to a secret-named key (``password=``, ``token:``, ``_authToken=``,
``aws_secret_access_key =``, ``"client_secret":``) with a value.

Only files outside the roots are looked into: a workspace file that mentions a password
(a Django ``settings.py``) is the person's project, read every day.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, PathVerdict
from bastion.policy.tree import Tree

#: The rule of a read of a file with other names (``hard_links``).
HARD_LINK = "paths.hard-link"

#: How much of a file is looked at (credential stores are small).
HEAD = 64 * 1024
_KERNEL = ("/proc/", "/sys/", "/dev/")

_PRIVATE_KEY = rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_TOKEN_SHAPES = (
    rb"\bgh[pousr]_[A-Za-z0-9]{30,}",
    rb"\bgithub_pat_[A-Za-z0-9_]{30,}",
    rb"\bglpat-[A-Za-z0-9_-]{20,}",
    rb"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    rb"\bxox[abposr]-[A-Za-z0-9-]{10,}",
    rb"\bnpm_[A-Za-z0-9]{30,}",
    rb"\bhf_[A-Za-z0-9]{30,}",
    rb"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}",
    rb"\bAIza[0-9A-Za-z_-]{35}",
)
_URL_PASSWORD = rb"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@"
#: A secret-named key given a value: ``key = v``, ``key: v``, ``"key": "v"``, ``//host/:_authToken=v``.
_SECRET_KEY = (
    rb"^[ \t]*(?:export[ \t]+)?[\"']?[\w./:@-]*?"
    rb"(?:passw(?:or)?d|secret|token|authtoken|api[_-]?key|apikey|_auth|credentials?|private[_-]?key"
    rb"|access[_-]?key|session[_-]?key)"
    rb"(?:[_-]?(?:id|key|value))?[\"']?[ \t]*[:=][ \t]*[\"']?[^\s\"'#;,{}\[\]]{4,}"
)
_SECRET = re.compile(b"|".join((_PRIVATE_KEY, *_TOKEN_SHAPES, _URL_PASSWORD, _SECRET_KEY)), re.I | re.M)


def holds_secret(data: bytes) -> bool:
    """Do these bytes hold a secret by one of the classes above?"""
    return _SECRET.search(data) is not None


def secret_file_reason(tree: Tree, lexical: str, resolved: str, verb: str) -> Reason | None:
    """DENY when the regular file at ``resolved`` holds a secret; None when it does not, or
    cannot be read (then the outside-roots ask stands)."""
    try:
        data = tree.read(resolved, HEAD)
    except OSError:
        return None
    if not holds_secret(data):
        return None
    shown = lexical if lexical == resolved else f"{lexical} -> {resolved}"
    return Reason(
        Decision.DENY,
        "hardline.credentials",
        "built-in",
        resolved[:200],
        f"{shown} holds a secret (a key, a token or a password): a credential, never {verb} by an agent",
    )


def outside_secret(tree: Tree, verdict: PathVerdict, *, write: bool) -> PathVerdict:
    """``verdict`` for a read outside every root (no decision of its own), or of a file that
    has other names (a hard link, asked: it is the file outside too), made a DENY when the
    file holds a secret; every other verdict as it is."""
    linked = verdict.decision is Decision.ASK and all(r.rule == HARD_LINK for r in verdict.reasons)
    if write or (verdict.decision is not None and not linked) or verdict.resolved.startswith(_KERNEL):
        return verdict  # (the kernel's files are not stores, and some block or never end)
    if verdict.inside_roots and not linked:
        return verdict
    reason = secret_file_reason(tree, verdict.lexical, verdict.resolved, "read")
    if reason is None:
        return verdict
    return replace(
        verdict, decision=Decision.DENY, reasons=(reason,), effects=verdict.effects | {Effect.CREDENTIALS}
    )


def linked_secret(tree: Tree, fs: FileSystem, verdict: PathVerdict, *, write: bool) -> PathVerdict:
    """A read of a workspace file that has other names (a hard link) and holds a secret is no
    workspace file: its other name may be any tool's store no credential glob names (#31,
    suite D: ``notes/gh.tokens``). Made a DENY; every other verdict as it is. One stat, and
    a read only for a file with several names."""
    if write or verdict.decision is Decision.DENY or verdict.resolved.startswith(_KERNEL):
        return verdict
    file_id = fs.identity(verdict.resolved)
    if file_id is None or file_id.links < 2:
        return verdict
    reason = secret_file_reason(tree, verdict.lexical, verdict.resolved, "read")
    if reason is None:
        return verdict
    return replace(
        verdict, decision=Decision.DENY, reasons=(reason,), effects=verdict.effects | {Effect.CREDENTIALS}
    )
