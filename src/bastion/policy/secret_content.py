"""A credential known by what it holds, not by its name.

No list of names covers every tool's credential store (``~/.sentryclirc``,
``~/.config/stripe/config.toml``, a kubeconfig copied under any name). A read of a file
outside every readable root is asked anyway; when the gate can read the file and its first
bytes hold a secret, reading it is reading a credential: denied, never asked. What counts as
a secret: a private key block, a token of a well-known issuer's shape, a URL carrying a
password, or an assignment to a secret-named key (``password=``, ``token:``, ``_authToken=``,
``aws_secret_access_key =``, ``"client_secret":``) with a value.

A workspace file is the person's project, read every day (a Django ``settings.py``
mentions a password): it is judged by the strict shapes of ``secret_shapes`` only (a key
block, an issuer's token, a password in a URL to a real host, a generated-looking value of
a secret-named key), so a project file that holds a credential under an ordinary name
(``terraform.tfstate``, ``config/database.yml``, a ``.git/config`` remote with a token) is
one (#31, suite E).
"""

from __future__ import annotations

import bz2
import lzma
import re
import zlib
from dataclasses import dataclass, replace

from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, PathVerdict
from bastion.policy.secret_shapes import project_secret
from bastion.policy.tree import Tree
from bastion.policy.treewalk import Reach

#: The rule of a read of a file with other names (``hard_links``).
HARD_LINK = "paths.hard-link"

#: How much of a file is looked at (credential stores are small).
HEAD = 64 * 1024
_KERNEL = ("/proc/", "/sys/", "/dev/")
#: Files below a recursive read's start looked into for a secret, at most, per walk: past it
#: their names alone decide, so a search of a large tree costs what it did.
TREE_LOOKS = 256

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
#: A secret-named key given a value: ``key = v``, ``key: v``, ``"key": "v"``, ``//host/:_authToken=v``,
#: ``bank password = v`` (a note's words before the key).
_SECRET_KEY = (
    rb"^[ \t]*(?:export[ \t]+)?[\"']?[\w./:@ -]*?"
    rb"(?:passw(?:or)?d|secret|token|authtoken|api[_-]?key|apikey|_auth|credentials?|private[_-]?key"
    rb"|access[_-]?key|session[_-]?key)"
    rb"(?:[_-]?(?:id|key|value))?[\"']?[ \t]*[:=][ \t]*[\"']?[^\s\"'#;,{}\[\]]{4,}"
)
_SECRET = re.compile(b"|".join((_PRIVATE_KEY, *_TOKEN_SHAPES, _URL_PASSWORD, _SECRET_KEY)), re.I | re.M)


def decompressed(data: bytes) -> bytes:
    """The first ``HEAD`` bytes a gzip, bzip2 or xz file holds (``zcat backup/env.gz`` prints
    them), or ``data`` itself when it is none of those or is damaged (suite G)."""
    try:
        if data[:2] == b"\x1f\x8b":
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, HEAD)
        if data[:3] == b"BZh":
            return bz2.BZ2Decompressor().decompress(data, max_length=HEAD)
        if data[:6] == b"\xfd7zXZ\x00":
            return lzma.LZMADecompressor().decompress(data, max_length=HEAD)
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError):
        return data
    return data


def holds_secret(data: bytes) -> bool:
    """Do these bytes hold a secret by one of the classes above?"""
    return _SECRET.search(data) is not None


def secret_file_reason(
    tree: Tree, lexical: str, resolved: str, verb: str, *, project: bool = False
) -> Reason | None:
    """DENY when the regular file at ``resolved`` holds a secret (``project``: of a shape
    strict enough for a project's own files); None when it does not, or cannot be read (then
    the verdict it had stands)."""
    try:
        data = decompressed(tree.read(resolved, HEAD))
    except OSError:
        return None
    if not (project_secret(data, resolved) if project else holds_secret(data)):
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
    file holds a secret; for a read inside the roots that nothing denied or asked, a DENY
    when the file holds a secret of a project's strict shapes; every other verdict as it is."""
    linked = verdict.decision is Decision.ASK and all(r.rule == HARD_LINK for r in verdict.reasons)
    project = verdict.inside_roots and not linked
    settled = verdict.decision not in (None, Decision.ALLOW) if project else verdict.decision is not None
    if write or (settled and not linked) or verdict.resolved.startswith(_KERNEL):
        return verdict  # (the kernel's files are not stores, and some block or never end)
    reason = secret_file_reason(tree, verdict.lexical, verdict.resolved, "read", project=project)
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


@dataclass(slots=True)
class TreeLooks:
    """One recursive read's looks into the files it reaches (``grep -r PASSWORD android/``,
    the Grep tool over ``.git``): a file whose first bytes hold a project secret is reached
    as a credential, like one named so (``TREE_LOOKS`` files at most)."""

    reach: Reach
    left: int = TREE_LOOKS

    def holds(self, path: str) -> bool:
        if self.left <= 0 or path.startswith(_KERNEL):
            return False
        self.left -= 1
        self.reach.spend(1, path)
        try:
            data = decompressed(self.reach.tree.read(path, HEAD))
        except OSError:
            return False  # not a regular file, or unreadable: the search cannot print it either
        return project_secret(data, path)
