"""What the oracle accepts without a declaration, as data. Each entry says why; every path
not matched here, outside the workspace, is judged."""

from __future__ import annotations

#: Reads anywhere in these are the system's own: libraries, the loader cache, locale and
#: zoneinfo data, the sandbox's minimal /etc, its own /proc (a private pid namespace) and
#: the minimal /dev bubblewrap builds.
SYSTEM_READ_PREFIXES: tuple[str, ...] = (
    "/usr/",
    "/proc/",
    "/dev/",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/alternatives/",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/gitconfig",
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/inputrc",
    "/etc/magic",
    "/etc/mime.types",
    "/etc/locale.alias",
    "/etc/terminfo/",
    "/etc/environment",
)
#: The listing of a directory on the way to the workspace (``ls ..`` is *not* this: only
#: the root itself, which programs open to resolve paths).
SYSTEM_READ_EXACT: frozenset[str] = frozenset({"/", "/etc", "/usr", "/proc", "/dev"})

#: Writes that go nowhere: the null device, the terminal, the process's own streams.
DEVICE_WRITES: tuple[str, ...] = (
    "/dev/null",
    "/dev/tty",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/stdin",
    "/dev/fd/",
    "/dev/pts/",
    "/proc/self/fd/",
    "/dev/full",
)

#: Directories a program is executed from without being code the agent could have written.
SYSTEM_EXEC_DIRS: tuple[str, ...] = (
    "/usr/bin/",
    "/usr/sbin/",
    "/bin/",
    "/sbin/",
    "/usr/local/bin/",
    "/usr/lib/git-core/",
    "/usr/libexec/",
)
#: Programs a program runs on its own, as part of what the decision named (never user input).
#: A program's helper is accepted only when the program itself was executed in the trace.
HELPERS: dict[str, frozenset[str]] = {
    "git": frozenset({"git"}),  # git re-executes itself for some builtins
    "sdiff": frozenset({"diff"}),  # sdiff runs diff -y
    "egrep": frozenset({"grep"}),  # Debian's egrep/fgrep are scripts running grep -E/-F
    "fgrep": frozenset({"grep"}),
    "yq": frozenset({"jq"}),  # Debian's yq converts and hands the document to jq
    "xargs": frozenset({"echo"}),  # xargs without a command runs echo
    "watch": frozenset({"sh"}),  # watch runs its command line through sh -c (unless -x)
    "apt": frozenset({"dpkg"}),  # apt and apt-cache ask dpkg for the foreign architectures
    "apt-cache": frozenset({"dpkg"}),
}
#: A script the decision named, run by its interpreter: ``#!/usr/bin/env node`` makes the
#: kernel run env, which executes ``node /usr/bin/npm …``. Accepted when argv[1] is that
#: named script in a system directory (the interpreter runs the named program's own code).
#: Programs the system's login startup file runs (Debian's /etc/profile runs ``id -u``),
#: accepted only in a trace that opened that file: reported as "startup exec".
STARTUP_FILE = "/etc/profile"
STARTUP_EXECS: frozenset[str] = frozenset({"id"})
#: The shell the oracle runs every command with.
SHELL = "bash"

#: Files a program reads under HOME as its own configuration: a "config read" (reported,
#: not a violation). Paths relative to HOME; a trailing "/" matches below a directory.
CONFIG_READS: dict[str, tuple[str, ...]] = {
    "git": (".gitconfig", ".config/git/"),
    # ripgrep and fd honour git's global excludes file, so they read git's global config
    "rg": (".gitconfig", ".config/git/", ".config/ripgrep/"),
    "fdfind": (".gitconfig", ".config/git/", ".config/fd/"),
    "bash": (".profile", ".bash_profile", ".bash_login", ".bashrc", ".inputrc", ".bash_logout"),
    "sh": (".profile",),
    "dash": (".profile",),
    "less": (".lesshst", ".lesskey", ".config/lesskey"),
    "file": (".magic", ".magic.mgc"),
    "jq": (".jq",),
    # pip opens the nearest existing folder of its cache (~/.cache/pip, else a parent up to
    # HOME itself) to check who owns it (pip 23: utils/compat.get_path_uid): no content read
    "pip": (".config/pip/", ".pip/", ".cache/pip/", ".cache", "."),
    "pip3": (".config/pip/", ".pip/", ".cache/pip/", ".cache", "."),
}

#: Credential files wherever they are (HOME or workspace): reading one is always a violation.
CREDENTIAL_DIRS: tuple[str, ...] = (".ssh", ".gnupg", ".aws", ".docker", ".kube")
CREDENTIAL_NAMES: frozenset[str] = frozenset(
    {
        ".netrc",
        ".git-credentials",
        ".pgpass",
        ".npmrc",
        ".pypirc",
        ".env",
        "id_rsa",
        "id_ed25519",
        "id_ecdsa",
        "id_dsa",
        "credentials",
    }
)
CREDENTIAL_SUFFIXES: tuple[str, ...] = (".pem", ".key", ".p12")
CREDENTIAL_PREFIXES: tuple[str, ...] = (".env.",)

#: Inside the workspace, writes here are never declared by a plain workspace write: the
#: gate's own policy, agent and editor configuration, repository code hooks.
PROTECTED_IN_WORKSPACE: tuple[str, ...] = (
    ".bastion/",
    ".claude/",
    ".cursor/",
    ".vscode/",
    ".codex/",
    ".husky/",
    ".git/hooks/",
    ".git/config",
    ".mcp.json",
    "opencode.json",
    ".envrc",
)
#: git refreshes the index of the repository it reads (stat data changed by the copy):
#: a lock file renamed over .git/index. Reported as "index refresh", not a violation.
GIT_INDEX_FILES: tuple[str, ...] = (".git/index.lock", ".git/index")

#: Scratch directories: a file created *and* removed there within the run leaves nothing
#: (tac and sort spill to $TMPDIR): reported as "temp file", not a violation.
TEMP_DIRS: tuple[str, ...] = ("/tmp/", "/var/tmp/", "/dev/shm/")
#: A bind to a loopback address on port 0 is a capability probe (Python probes IPv6 that
#: way): nothing can reach it from outside the sandbox and nothing is sent.
LOOPBACK_PROBES: tuple[str, ...] = ('inet_addr("127.0.0.1")', '"::1"')

#: Unix sockets glibc tries on its own (the name-service cache): not a connection of the command.
ALLOWED_UNIX_SOCKETS: frozenset[str] = frozenset({"/var/run/nscd/socket", "/run/nscd/socket"})
#: Address families that are not the network: the kernel's netlink (``ip addr``).
LOCAL_FAMILIES: frozenset[str] = frozenset({"AF_NETLINK"})

#: Programs that run until stopped; with one of these in the decision a timeout is the
#: declared behaviour ("capped"), and they get a short cap instead of the full timeout.
LONG_RUNNING: frozenset[str] = frozenset({"sleep", "yes", "watch", "top", "ping", "tail", "less", "more"})
