"""The shapes of a secret that a project's own file may hold, strict enough for everyday reads.

A file outside the roots is judged by a wide net (``secret_content``: any ``password=`` with
a value). A workspace file is the person's project, read all day: a dev ``database.yml``
with ``password: postgres``, a README that says "token", a Django ``settings.py`` whose
``SECRET_KEY`` says ``django-insecure-``. Only what public secret scanners (gitleaks,
trufflehog, detect-secrets, shhgit) hold with high confidence counts here:

- a private key block (PEM, OpenSSH, PGP, PuTTY; a GCP service account's ``private_key``
  is one, JSON-escaped);
- a token of a well-known issuer's shape (GitHub, GitLab, Slack, Stripe live keys, OpenAI,
  Anthropic, npm, PyPI, Hugging Face, Google API keys, AWS key ids, age secret keys, Vault,
  DigitalOcean, Shopify, SendGrid);
- what only a credential file holds: a kubeconfig's ``client-key-data``, a docker
  ``auths`` entry's ``auth``, the AWS console's access-key CSV header, a Kubernetes
  ``kind: Secret`` manifest with a literal value;
- a password in a URL (``https://bot:TOKEN@github.com/…``) that is no placeholder and names
  no local or documentation host (``postgres://postgres:postgres@db`` is a dev box); in a
  repository's own config (a remote) whatever host it names;
- a secret-named key (``password``, ``secret``, ``token``, ``api_key``, a connection
  string's ``AccountKey``…) given a literal value that looks generated: at least 12
  characters, no reference (``${X}``, ``<%= %>``, ``process.env.X``, a call), no placeholder
  word (``example``, ``changeme``, ``your``…), letters in both cases or with digits. In a
  program, only a quoted value is a literal (``token=access_token_value`` passes a variable).
"""

from __future__ import annotations

import re

#: A private key block; the JSON-escaped one of a service account too.
_PRIVATE_KEY = rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:"
_TOKENS = (
    rb"\bgh[pousr]_[A-Za-z0-9_]{36,}",
    rb"\bgithub_pat_[A-Za-z0-9_]{40,}",
    rb"\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}",
    rb"\bxox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{10,}",
    rb"\bxapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}",
    rb"hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
    rb"\b[rs]k_live_[A-Za-z0-9]{20,}",
    rb"\bsk-(?:ant-[a-z0-9]+-|proj-|svcacct-)?[A-Za-z0-9_-]{40,}",
    rb"\bnpm_[A-Za-z0-9]{36}\b",
    rb"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
    rb"\bhf_[A-Za-z0-9]{34,}",
    rb"\bAIza[0-9A-Za-z_-]{35}\b",
    rb"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    rb"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b",
    rb"\bhvs\.[A-Za-z0-9_-]{90,}",
    rb"\bdop_v1_[a-f0-9]{64}\b",
    rb"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b",
    rb"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b",
)
#: What only a credential file holds, whatever it is called.
_STORES = (
    rb"^[ \t]*client-key-data:[ \t]*[A-Za-z0-9+/=]{8,}",  # a kubeconfig's client key
    rb"\"auths\"[ \t\r\n]*:[ \t\r\n]*\{[^}]*\"auth\"[ \t]*:[ \t]*\"[^\"\s]{8,}\"",  # docker
    rb"^User name,Password,Access key ID,Secret access key",  # the AWS console's CSV
    rb"^Access key ID,Secret access key",
    rb"^[^:\s]+:(?:\$apr1\$|\$2[aby]\$|\{SHA\}|\$[56]\$)[^\s:]{8,}",  # htpasswd, shadow lines
)
_CERTAIN = re.compile(b"|".join((_PRIVATE_KEY, *_TOKENS, *_STORES)), re.M)

#: ``scheme://user:password@host``: the password and the host are judged below.
_URL = re.compile(rb"\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]+:(?P<value>[^\s@/'\"]+)@(?P<host>[^\s/:'\"?#]+)", re.I)
#: A secret-named key given a value: ``key: v``, ``key = 'v'``, ``"key": "v"``,
#: ``define('DB_PASSWORD', 'v')``, ``Password=v;`` inside a connection string.
_ASSIGNED = re.compile(
    rb"(?:^|(?<=[\s'\"(;,{]))(?P<key>[\w.-]*?"
    rb"(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|auth[_-]?key"
    rb"|account[_-]?key|shared[_-]?access[_-]?key)"
    rb"(?:[_-]?(?:id|key|value|base)){0,2})(?P<kq>['\"])?[ \t]*(?:=>|[:=]|(?(kq),|(?!)))[ \t]*"
    rb"(?P<q>['\"]?)(?P<value>[^\s'\"#;,{}\[\]()<>]+)(?P=q)",
    re.I | re.M,
)
_PLACEHOLDER = re.compile(
    r"example|sample|change.?me|your|here|placeholder|dummy|fake|insecure|redacted|xxxx|replace|"
    r"todo|test|password|passwd|secret|postgres|localhost|default|undefined|null|none",
    re.I,
)
_REFERENCE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$|[$%{}<>()\[\]*`\\]")
_LOCAL_HOST = re.compile(
    r"^(?:localhost|127\.[\d.]+|10\.[\d.]+|192\.168\.[\d.]+|0\.0\.0\.0|\[?::1\]?|[^.]+)$"
    r"|\.(?:local|localhost|test|example|invalid|internal)$|(?:^|\.)example\.(?:com|org|net)$",
    re.I,
)
#: Files whose unquoted values are program text (a variable), not literals.
_PROGRAM_SUFFIXES = (
    ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rb", ".go", ".java", ".kt", ".rs", ".php",
    ".cs", ".swift", ".scala", ".c", ".h", ".cc", ".cpp", ".sh", ".bash", ".pl", ".lua", ".ex", ".exs",
)  # fmt: skip


def generated(value: str, *, least: int = 12) -> bool:
    """Does ``value`` look like a generated secret rather than a dev default, a placeholder
    or a reference to one kept elsewhere?"""
    if len(value) < least or _REFERENCE.search(value) or _PLACEHOLDER.search(value):
        return False
    kinds = sum(any(test(c) for c in value) for test in (str.islower, str.isupper, str.isdigit))
    return kinds >= 2 and len(set(value)) >= 6


#: A repository's own configuration: its remote URLs are where git sends what it holds, never
#: an example in documentation, whatever host they name (``git.example.com`` included).
_GIT_CONFIG = re.compile(r"(?:^|/)(?:\.git|[^/]+\.git|\.git/modules/.+)/config(?:\.worktree)?$")


#: A Kubernetes Secret manifest and the entries of its ``data`` / ``stringData`` block.
_K8S_SECRET = re.compile(rb"^kind:[ \t]*['\"]?Secret['\"]?[ \t]*$", re.M)
_K8S_DATA = re.compile(rb"^(?:string)?[dD]ata:[ \t]*\n(?P<entries>(?:[ \t]+[^\n]*\n?)+)", re.M)
_K8S_ENTRY = re.compile(rb"^[ \t]+[\w.-]+:[ \t]*(?P<q>['\"]?)(?P<value>[^\s'\"]+)(?P=q)[ \t]*$", re.M)
#: The storage emulator's key, published in Microsoft's documentation: no secret.
_AZURITE_KEY = b"Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def _kubernetes_secret(data: bytes) -> bool:
    """A ``kind: Secret`` manifest with a literal value (``data:`` holds base64, ``stringData:``
    the value itself; a template's ``{{ .Values.x }}`` or ``${X}`` is a reference)."""
    if not _K8S_SECRET.search(data):
        return False
    for block in _K8S_DATA.finditer(data):
        for entry in _K8S_ENTRY.finditer(block["entries"]):
            value = entry["value"].decode("utf-8", "replace")
            if len(value) >= 8 and not _REFERENCE.search(value) and not _PLACEHOLDER.fullmatch(value):
                return True
    return False


def project_secret(data: bytes, name: str = "") -> bool:
    """Do the first bytes of the project file ``name`` hold a secret of a shape above?"""
    if _CERTAIN.search(data) or _kubernetes_secret(data):
        return True
    remotes = _GIT_CONFIG.search(name) is not None
    for url in _URL.finditer(data):
        host = url["host"].decode("utf-8", "replace")
        local = _LOCAL_HOST.search(host) and not remotes
        if not local and generated(url["value"].decode("utf-8", "replace"), least=8):
            return True
    program = name.lower().endswith(_PROGRAM_SUFFIXES)
    for found in _ASSIGNED.finditer(data):
        if program and not found["q"]:
            continue
        if found["value"] != _AZURITE_KEY and generated(found["value"].decode("utf-8", "replace")):
            return True
    return False


#: A private key block's body, between its armour lines.
_KEY_BODY = re.compile(
    rb"^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t\r]*\n(?P<body>.*?)^-----END ", re.M | re.S
)


def key_body_lines(data: bytes) -> frozenset[bytes]:
    """The lines of ``data``'s private key blocks between their armour: every one is part of
    the key, whatever it looks like on its own."""
    return frozenset(
        line for block in _KEY_BODY.finditer(data) for line in block["body"].split(b"\n") if line.strip()
    )


def scrubbed(before: bytes, after: bytes) -> bool:
    """Does the change from ``before`` to ``after`` replace a secret-named key's literal value
    with a reference to one kept elsewhere (``password = s3cr3t-prod`` to ``password =
    ${DB_PASSWORD}``)? What it took out is a secret, however it looks: the commit that scrubs
    it says so, and the history still holds it."""
    later = {m["key"].lower(): m["value"] for m in _ASSIGNED.finditer(after)}
    for found in _ASSIGNED.finditer(before):
        now = later.get(found["key"].lower())
        if now is None or now == found["value"]:
            continue
        value = found["value"].decode("utf-8", "replace")
        if (
            _REFERENCE.search(now.decode("utf-8", "replace"))
            and not _REFERENCE.search(value)
            and len(value) >= 8
            and not _PLACEHOLDER.fullmatch(value)
        ):
            return True
    return False
