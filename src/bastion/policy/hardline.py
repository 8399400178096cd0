"""Hardline built-ins: locations no policy can open up.

Credential locations are denied for read and write, in any letter case; system locations
are denied for write; Bastion's own policy files and state are denied; agent permission
files, shell rc files and git hooks ask and can never become a standing grant.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.agents.registry import permission_globs
from bastion.policy.globs import GlobSet, compile_glob
from bastion.policy.later_code import LATER_CODE_GLOBS

#: Command-line tools that keep a login (a token, a password, a session key) in files of their
#: own folders: their XDG data and state folders are credential locations as a whole.
CREDENTIAL_TOOLS: tuple[str, ...] = (
    "gh", "glab-cli", "hub", "rclone", "doctl", "hcloud", "netlify", "op", "1Password", "stripe",
    "ngrok", "github-copilot", "Bitwarden CLI", "pulumi", "vault", "atuin", "rbw",
)  # fmt: skip

CREDENTIAL_GLOBS: tuple[str, ...] = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".azure",
    "**/.config/gcloud",
    "**/.docker/config.json",
    "**/Library/Keychains",
    "*.keychain",
    "*.keychain-db",
    "**/.local/share/keyrings",
    ".netrc",
    "_netrc",
    ".pypirc",
    ".npmrc",
    ".git-credentials",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "*.pem",
    "*.key",
    ".env",
    ".env.*",
    # An environment file under a name of its own (``prod.env``, ``~/secrets/stripe.env``) and
    # a project's secrets file in any common format: what they are for is holding secrets.
    "*.env",
    *(f"secrets.{ext}" for ext in ("json", "yml", "yaml", "env", "ini", "conf", "cfg", "properties", "txt")),
    # Credential stores of common tools (each holds a token or a password in clear).
    "**/.config/gh/hosts.yml",
    "**/.config/hub",
    "**/.config/glab-cli/config.yml",
    ".pgpass",
    ".my.cnf",
    ".mylogin.cnf",
    "**/.m2/settings.xml",
    "**/.m2/settings-security.xml",
    "**/.gem/credentials",
    "**/.cargo/credentials",
    "**/.cargo/credentials.toml",
    "**/.terraform.d/credentials.tfrc.json",
    ".terraformrc",
    "**/.config/pip/pip.conf",
    "**/.pip/pip.conf",
    "**/pip/pip.ini",
    ".vault-token",
    ".boto",
    ".s3cfg",
    ".dockercfg",
    "**/.config/containers/auth.json",
    "**/containers/auth.json",
    "**/.config/rclone/rclone.conf",
    "**/.composer/auth.json",
    "**/.config/composer/auth.json",
    "**/.gradle/gradle.properties",
    ".databrickscfg",
    "**/.oci/config",
    "**/.config/doctl/config.yaml",
    # Less-common stores (#31): fish's universal variables (exported tokens) and history,
    # atuin's sync key and history, sops/age keys, Ansible vault passwords, docker contexts
    # (endpoints, TLS keys), rbw (Bitwarden), Thunderbird's and FileZilla's saved logins,
    # NuGet feed passwords, 1Password's and Slack's local state, VS Code's secret storage,
    # KeePass databases.
    "**/.config/fish/fish_variables",
    "**/.local/share/fish/fish_history",
    "**/.config/atuin/key",
    "**/.local/share/atuin",
    "**/.config/sops/age",
    "**/.config/age",
    "~/.vault_pass*",
    "~/.vault-pass*",
    "**/.docker/contexts",
    "**/.config/rbw",
    "**/.local/share/rbw",
    "**/.thunderbird/*/logins.json",
    "**/.thunderbird/*/key4.db",
    "**/.thunderbird/*/cookies.sqlite",
    "**/.config/filezilla/sitemanager.xml",
    "**/.config/filezilla/recentservers.xml",
    "**/.nuget/NuGet/NuGet.Config",
    "**/.config/NuGet/NuGet.Config",
    "**/.config/1Password",
    "**/.config/Slack/Cookies",
    "**/.config/Code/User/globalStorage/state.vscdb",
    "*.kdbx",
    # Files that hold secrets by what they are for: kubeconfigs (a token or a client key), the
    # libpq service file, mail and download clients' passwords.
    "kubeconfig",
    "*.kubeconfig",
    ".pg_service.conf",
    ".msmtprc",
    ".fetchmailrc",
    ".wgetrc",
    # More tools' credential stores (each documented as where the tool keeps its login).
    "**/.config/git/credentials",
    "**/.password-store",
    "**/.config/github-copilot",
    "**/.claude/.credentials.json",
    "**/.codex/auth.json",
    "**/.gemini/oauth_creds.json",
    "**/.qwen/oauth_creds.json",
    "**/.cache/huggingface/token",
    "**/.huggingface/token",
    "**/.kaggle/kaggle.json",
    "**/.pulumi/credentials.json",
    "**/.config/configstore",
    "**/.config/ngrok",
    "**/.ngrok2/ngrok.yml",
    ".sentryclirc",
    "**/.dbt/profiles.yml",
    "**/.config/stripe",
    "**/.config/op",
    "**/.config/hcloud/cli.toml",
    "**/.config/netlify/config.json",
    "**/.fly/config.yml",
    # Agents' own account files (~/.claude.json keeps MCP servers' env tokens and an API key
    # where one is used), age identities kept by hand, Ansible vault password files, the
    # Linode CLI's token.
    "~/.claude.json",
    "**/.age/*.txt",
    "**/.age/*.key",
    "**/.ansible/vault_pass*",
    "**/.ansible/vault-pass*",
    ".linode-cli",
    "**/.config/linode-cli",
    "**/.ivy2/.credentials",
    "**/.sbt/.credentials",
    "**/.subversion/auth",
    "**/.config/helm/repositories.yaml",
    "~/.bundle/config",
    "~/.yarnrc.yml",
    "~/.yarnrc",
    # Deployment and cloud CLIs' logins, each where its documentation keeps it: Vercel,
    # Cloudflare wrangler, Supabase, Expo, Railway, CircleCI, Linode, Scaleway, OpenStack's
    # clouds.yaml, Gitea's tea, Teleport's keys, IBM Cloud, MinIO's client.
    "**/.vercel/auth.json",
    "**/.local/share/com.vercel.cli",
    "**/.wrangler/config",
    "**/.config/.wrangler",
    "**/.supabase/access-token",
    "**/.expo/state.json",
    "**/.railway/config.json",
    "**/.circleci/cli.yml",
    "**/.config/linode-cli",
    "**/.config/scw/config.yaml",
    "**/.config/openstack/clouds.yaml",
    "**/.config/openstack/secure.yaml",
    "**/.config/tea/config.yml",
    "**/.tsh",
    "**/.bluemix/config.json",
    "**/.mc/config.json",
    "**/.config/mc/config.json",
    # Shell and client histories (tokens and passwords typed on command lines), browsers'
    # saved logins and cookies, password managers' local vaults.
    "~/.*_history",
    "~/.histfile",
    "**/.mozilla/firefox/*/logins.json",
    "**/.mozilla/firefox/*/key4.db",
    "**/.mozilla/firefox/*/cookies.sqlite",
    "**/.config/google-chrome",
    "**/.config/chromium",
    "**/.config/BraveSoftware",
    "**/.config/Bitwarden CLI",
    "**/.config/Bitwarden",
    "**/.local/share/keepassxc",
    # Every process's environment (tokens passed in variables).
    "/proc/*/environ",
    "/proc/*/task/*/environ",
    # The system's own secrets: password hashes (and their backups), the host's SSH and TLS
    # private keys, Kerberos keytabs. Read through any name (a symlink ``notes/x -> /etc/shadow``
    # resolves here; a hard link by inode is HOME's only).
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/security/opasswd",
    "/etc/ssh/ssh_host_*_key",
    "/etc/ssl/private",
    "/etc/pki/tls/private",
    "/etc/krb5.keytab",
    # Secrets a container runtime mounts: Kubernetes' service-account token, Docker's secrets.
    "/var/run/secrets",
    "/run/secrets",
    "*.keytab",
    # Project files that hold secrets by what they are (#31, suite E: a secret under an
    # ordinary-looking project name), from the file rules public secret scanners hold with
    # high confidence (gitleaks, trufflehog, shhgit): Terraform state (every resource's
    # attributes in clear, database passwords included), Apache's password files,
    # Streamlit's and Rails' secrets files, Google's OAuth client secret downloads, the AWS
    # console's access-key CSVs (at any depth; under ~/Downloads for the hard-link walk,
    # credential_inodes), kubeadm's cluster-admin kubeconfigs, PKCS#12 bundles, PuTTY keys,
    # Password Safe databases. Not here: names read all day whatever they hold
    # (``config/database.yml``, ``appsettings*.json``, ``gradle.properties``,
    # ``wp-config.php``, ``docker/config.json``): what they hold decides (secret_shapes.py).
    "*.tfstate",
    "*.tfstate.backup",
    ".htpasswd",
    ".htdigest",
    "secrets.toml",
    "**/config/secrets.yml",
    "credentials.json",
    "client_secret*.json",
    "*credentials.csv",
    "*accessKeys.csv",
    "**/Downloads/*credentials.csv",
    "**/Downloads/*accessKeys.csv",
    "admin.conf",
    "super-admin.conf",
    "*.p12",
    "*.pfx",
    "*.ppk",
    "*.psafe3",
    # A credential tool's XDG data and state folders, whole: the file its login is in
    # changes between versions and keyring fallbacks (a token file beside its config).
    *(f"**/.local/{kind}/{tool}" for kind in ("share", "state") for tool in CREDENTIAL_TOOLS),
)

#: Files that hold secrets by what they are for, which a person still edits with an agent:
#: direnv's exported environment (its write asks: direnv runs it) and Terraform's variable
#: values (the gitignore templates keep both out of repositories). Read: denied, as a
#: credential; write: as any other file of its place.
SECRET_READ_GLOBS: tuple[str, ...] = (".envrc", "*.tfvars", "*.tfvars.json")

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
    # files (an ``import`` line in one is code), sitecustomize / usercustomize, the
    # interactive startup file. (A conftest.py runs only under pytest, which is code when it
    # runs, like any test module: not guarded.)
    "**/*.pth",
    "**/sitecustomize.py",
    "**/usercustomize.py",
    "**/.pythonrc",
    "**/.pythonrc.py",
)

#: Bastion's own configuration wherever a policy file could be found: every
#: ``.bastion/policy.toml`` up any tree and the user policy (whether it exists yet or not).
SELF_GLOBS: tuple[str, ...] = (".bastion", "**/.config/bastion")


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
            self_deny=gs((*SELF_GLOBS, *(_exact(p) for p in (*policy_files, state_dir))), False),
            self_state=gs((_exact(state_dir),), False),
            self_ask=gs(AGENT_PERMISSION_GLOBS, True),
            later_code=gs(LATER_CODE_GLOBS, True),
        )


def _exact(path: str) -> str:
    """An absolute path as an anchored glob that matches it and everything below it."""
    escaped = "".join(f"[{c}]" if c in "*?[]!\\" else c for c in path.rstrip("/"))
    return escaped or "/"
