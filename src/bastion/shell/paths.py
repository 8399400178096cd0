"""Path facts the classifier needs: system dirs, root-like targets, devices, credentials."""

from __future__ import annotations

import fnmatch
import posixpath
import re

from bastion.shell.words import DYN, Word

STANDARD_BIN_DIRS = frozenset({"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"})
SYSTEM_DIRS = frozenset({
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc",
    "/root", "/run", "/sbin", "/srv", "/sys", "/usr", "/var", "/home", "/Users", "/System",
    "/Library", "/Applications", "/private", "/snap", "/mnt", "/media", "/usr/bin",
    "/usr/lib", "/usr/local", "/usr/sbin", "/usr/share", "/var/lib", "/var/log", "/etc/ssh",
})  # fmt: skip
#: Targets that never count as writes (data sinks and already-open descriptors).
HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"})
_FD = re.compile(r"^/dev/fd/\d+$|^/proc/self/fd/\d+$")
_BLOCK_DEVICE = re.compile(
    r"^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|loop\d|md\d|"
    r"dm-\d|mapper/|nbd\d|sr\d|fd\d|mem$|kmem$|port$)"
)
#: Names (one path component) that hold secrets.
_CREDENTIAL_NAMES = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".netrc",
    ".pypirc",
    ".npmrc",
    ".docker",
    ".kube",
    ".azure",
    ".env",
    ".env.*",
    "*.env",
    "id_rsa*",
    "id_ed25519*",
    "id_ecdsa*",
    "id_dsa*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "credentials",
    "credentials.json",
    ".git-credentials",
    ".htpasswd",
    "*.keystore",
    "*.jks",
    ".vault-token",
    ".Xauthority",
    ".ICEauthority",
    "secrets.*",
    "*.kdbx",
    "gcloud",
    ".pgpass",
    ".my.cnf",
    "shadow",
    "gshadow",
    "master.key",
    "token.json",
    ".config/gh",
)
#: Names a glob must not be able to reach for it to be kept literal (credentials + self).
_SENSITIVE_SAMPLES = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".netrc",
    ".pypirc",
    ".npmrc",
    ".env",
    ".env.local",
    "id_rsa",
    "id_ed25519",
    "x.pem",
    "x.key",
    "credentials",
    ".git-credentials",
    ".bashrc",
    ".zshrc",
    ".profile",
    ".bash_profile",
    ".claude",
    ".codex",
    ".gemini",
    ".git",
    "settings.json",
    "settings.local.json",
    ".bastion",
    "hooks",
    "config",
    "shadow",
    ".kube",
    ".docker",
    "token.json",
    ".vault-token",
    "secrets.yaml",
)


def is_harmless_target(path: str) -> bool:
    return path in HARMLESS_TARGETS or bool(_FD.match(path))


def is_block_device(path: str) -> bool:
    return bool(_BLOCK_DEVICE.match(path))


_SLASHES = re.compile(r"/+")
_DOT_PARTS = re.compile(r"(/\.)+(/|$)")
_DOTDOTS = re.compile(r"/+\.\.(/\.\.)*")
_UP_DOTS = re.compile(r"\.\.(/\.\.)*(/\*)?")


def normalise(path: str) -> str:
    """Lexically tidy a literal path: collapse //, /./ and trailing slashes (keep `..`)."""
    if not path or ("//" not in path and "/." not in path and (path[-1] != "/" or path == "/")):
        return path  # the common case: nothing to tidy (normpath keeps such a path too)
    tidy = _SLASHES.sub("/", path)
    tidy = _DOT_PARTS.sub("/", tidy)
    if len(tidy) > 1:
        tidy = tidy.rstrip("/") or "/"
    if tidy.startswith("/"):
        tidy = posixpath.normpath(tidy)
        tidy = "/" + tidy.lstrip("/")
    return tidy


def root_like(path: str) -> str | None:
    """Why deleting / recursively changing ``path`` would wreck the machine, or None."""
    p = normalise(path)
    if p in ("/", "/*", "/.*", "/.") or _DOTDOTS.fullmatch(p):
        return "the root directory"
    if p in ("~", "~/*", "~/.", "~/.*"):
        return "the home directory"
    base = p[:-2] if p.endswith("/*") else p
    if base in SYSTEM_DIRS:
        return f"system directory {base}"
    if p.startswith(("/", "~")) and any(ch in p for ch in "*?["):
        return glob_root(p)
    return None


_ROOT_TARGETS = ("/", "~", *sorted(SYSTEM_DIRS))
#: Entries every home has: a glob directly under ~ matching several is the whole home.
_HOME_SAMPLES = ("~/Documents", "~/Desktop", "~/Downloads", "~/projects", "~/src", "~/bin")


def glob_root(pattern: str) -> str | None:
    """A glob that can match the root, a system directory or the home directory itself
    (`/e*c`, `/u??`, `~/[A-Z]*`): the delete it feeds is as wide as its widest match."""
    for target in _ROOT_TARGETS:
        if fnmatch.fnmatchcase(target, pattern):
            return f"glob {pattern} can match {'the root directory' if target == '/' else target}"
    if pattern.startswith("~/") and "/" not in pattern[2:]:
        hits = sum(fnmatch.fnmatchcase(s, pattern) for s in _HOME_SAMPLES)
        if hits >= 2:
            return f"glob {pattern} matches most of the home directory"
    return None


def empty_variable_root(word: Word) -> str | None:
    """``"$DIR"/*``, ``$X/``: when the variable is empty this is the root."""
    if word.literal or not word.sketch.startswith(DYN):
        return None
    rest = word.sketch.lstrip(DYN)
    if rest in ("/", "/*", "/.", "/.*") or (rest.startswith("/") and root_like(rest)):
        return f"{word.text} is the root directory when the variable is empty"
    return None


#: ``~user``, ``~user/``, ``~user/*``: another user's home directory, as a whole.
_TILDE_USER_HOME = re.compile(r"~[A-Za-z_][A-Za-z0-9._-]*(/|/\*|/\.|/\.\*)?")


def word_root(word: Word) -> str | None:
    """Why a delete / move of ``word`` would wreck the machine: a literal root-like path, or
    a variable that is the root when empty."""
    if word.value is not None:
        return root_like(word.value)
    if word.text.startswith("~") and _TILDE_USER_HOME.fullmatch(word.sketch):
        return f"{word.text}: a user's home directory"
    return empty_variable_root(word)


def workspace_like(path: str) -> bool:
    """The cwd, its parents, or everything in it."""
    p = normalise(path)
    return p in (".", "..", "*", ".*", "./*", "../*", "./.*") or bool(_UP_DOTS.fullmatch(p))


_CREDENTIAL_RE = re.compile("|".join(fnmatch.translate(p) for p in _CREDENTIAL_NAMES))
_NOT_SECRET = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist"})


def _cores(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """The longest literal run of each pattern: any name a pattern matches contains it."""
    runs = [max(re.split(r"[*?\[\]]", p), key=len) for p in patterns]
    return re.compile("|".join(re.escape(r) for r in sorted(set(runs))))


#: A path none of whose components can match a credential name contains none of these
#: (``gcloud`` and ``.config`` stand for the two checks ``looks_like_credential`` adds).
_CREDENTIAL_CORES = _cores((*_CREDENTIAL_NAMES, "gcloud", ".config"))


def looks_like_credential(path: str) -> bool:
    tidy = normalise(path)
    if _CREDENTIAL_CORES.search(tidy) is None:
        return False  # the common case, one scan instead of a match per component
    parts = [c for c in tidy.split("/") if c not in ("", ".", "~")]
    if "gcloud" in parts or ".config/gh" in "/".join(parts):
        return True
    if parts and parts[-1] in _NOT_SECRET:
        return False
    return any(_CREDENTIAL_RE.match(c) for c in parts)


def glob_is_safe(pattern: str) -> bool:
    """A glob may stay literal when only its last component is a pattern and that pattern
    cannot match a credential or agent-control name (see module docs of ``analyze``)."""
    head, _, last = pattern.rpartition("/")
    if any(ch in head for ch in "*?["):
        return False
    return not any(fnmatch.fnmatchcase(s, last) for s in _SENSITIVE_SAMPLES)
