"""Hardline built-ins: locations no policy can open up.

Credential locations are denied for read and write, in any letter case; system locations
are denied for write; Bastion's own policy files and state are denied; agent permission
files, shell rc files and git hooks ask and can never become a standing grant.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.agents.registry import permission_globs
from bastion.policy.credential_locations import CREDENTIAL_GLOBS, SECRET_READ_GLOBS
from bastion.policy.globs import GlobSet, compile_glob
from bastion.policy.later_code import LATER_CODE_GLOBS

SYSTEM_WRITE_GLOBS: tuple[str, ...] = (
    "/etc",
    "/boot",
    "/sys",
    "/proc",
    "/dev",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/var/lib",
)

#: Writable device nodes that are not a system write.
HARMLESS_DEVICES = frozenset(
    {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/full"}
)

#: The shell start-up files of a home (relative to it): a shell runs them on its own. A
#: hard link to one in the workspace is found by (device, inode): policy/paths.py.
RC_FILES: tuple[str, ...] = (
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".config/fish/config.fish",
)

AGENT_PERMISSION_GLOBS: tuple[str, ...] = (
    *permission_globs(),  # each agent's own settings (its record in the registry)
    *RC_FILES[:-1],  # in the home; fish's config wherever it is (next line)
    "**/.config/fish/config.fish",
    "**/.git/hooks",
    "**/.git/config",
    # Other agents' and editors' configuration, and what git or direnv runs on its own.
    "**/.cursor",
    "**/.vscode/settings.json",
    "**/.vscode/tasks.json",
    "**/.husky",
    "**/.githooks",
    "**/.git/info",
    "**/.git/config.worktree",
    "**/.git/modules/**/config",
    "**/.git/modules/**/hooks",
    "**/.git/worktrees/*/config.worktree",
    "**/.gitmodules",
    "**/.envrc",  # direnv sources it (bash) on entering the folder
    # The person's own git configuration: every repository's git reads run what it names.
    "**/.gitconfig",
    "**/.config/git",
    # Any repository's control files, not only .git's (a bare data/x.git; any other git dir
    # is found on the file system: policy/repositories.py), and Mercurial's.
    "**/*.git/config",
    "**/*.git/config.worktree",
    "**/*.git/hooks",
    "**/*.git/info",
    "**/.hg/hgrc",
    "**/.hg/hgrc-not-shared",
    "**/.hgrc",
    "**/.config/hg",
    # Config that makes a later agent, editor, tool, commit or CI run code (#31 root cause
    # 7): its own table, which the sandbox reads too (policy/later_code.py; ``later_code``).
    # Every file that chooses a toolchain (shell/programs/toolchains.py; a test ties the two):
    # the person's editor or shell runs what it names without asking anyone.
    "**/.bazelrc",
    "**/.bazelversion",
    "**/gradle.properties",
    "**/gradle/wrapper/gradle-wrapper.properties",
    "**/.nvmrc",
    "**/.node-version",
    "**/.python-version",
    "**/.ruby-version",
    "**/.java-version",
    "**/.go-version",
    "**/.terraform-version",
    "**/.sdkmanrc",
    "**/.tool-versions",  # asdf / mise install and run the versions it names
    "**/mise.local.toml",
    "**/.mise.local.toml",
    "**/.config/mise.toml",
    "**/.config/mise",
    "**/.mise/config.toml",
    "**/.rtx.toml",
    # What every Python start runs, reads included (``python3 -m json.tool``): site's .pth
    # files (an ``import`` line in one is code), the interactive startup file (sitecustomize /
    # usercustomize: the later-code table, which the sandbox keeps too). (A conftest.py runs
    # only under pytest, which is code when it runs, like any test module: not guarded.)
    "**/*.pth",
    "**/.pythonrc",
    "**/.pythonrc.py",
)

#: Bastion's own configuration wherever a policy file could be found: every
#: ``.bastion/policy.toml`` up any tree and the user policy (whether it exists yet or not).
SELF_GLOBS: tuple[str, ...] = (".bastion", "**/.config/bastion")
#: Bastion's state where it is kept by default, whichever state dir this gate was given (suite
#: H: the person's own keys and ledger under ``~/.local/state/bastion`` while
#: ``BASTION_STATE_DIR`` pointed elsewhere): read and written, denied like the state dir.
DEFAULT_STATE_GLOBS: tuple[str, ...] = ("~/.local/state/bastion",)


@dataclass(frozen=True, slots=True)
class Hardline:
    credentials: GlobSet  # read + write: deny
    secrets_read: GlobSet  # read: deny
    system_write: GlobSet  # write: deny
    self_deny: GlobSet  # Bastion's own policy files and state: write deny, state read deny
    self_state: GlobSet  # the state dir: read deny too
    self_ask: GlobSet  # agent permission files, rc files, git hooks: write ask
    later_code: GlobSet  # what runs code later without anyone choosing to (later_code.py): write ask

    @classmethod
    def build(
        cls,
        *,
        home: str,
        credentials_dir: str,
        policy_files: tuple[str, ...],
        state_dir: str,
    ) -> Hardline:
        def gs(patterns: tuple[str, ...], ignore_case: bool) -> GlobSet:
            return GlobSet.of(
                [
                    compile_glob(p, source="built-in", base="/", home=home, ignore_case=ignore_case)
                    for p in patterns
                ]
            )

        return cls(
            credentials=gs((*CREDENTIAL_GLOBS, _exact(credentials_dir)), True),
            secrets_read=gs(SECRET_READ_GLOBS, True),
            system_write=gs(SYSTEM_WRITE_GLOBS, False),
            self_deny=gs(
                (*SELF_GLOBS, *DEFAULT_STATE_GLOBS, *(_exact(p) for p in (*policy_files, state_dir))), False
            ),
            self_state=gs((_exact(state_dir), *DEFAULT_STATE_GLOBS), False),
            self_ask=gs(AGENT_PERMISSION_GLOBS, True),
            later_code=gs(LATER_CODE_GLOBS, True),
        )


def _exact(path: str) -> str:
    """An absolute path as an anchored glob that matches it and everything below it."""
    escaped = "".join(f"[{c}]" if c in "*?[]!\\" else c for c in path.rstrip("/"))
    return escaped or "/"
