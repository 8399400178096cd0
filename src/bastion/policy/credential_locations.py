"""Where credentials live, by name: the tools' own stores under HOME, the system's secrets,
what a container runtime mounts, and project files that hold secrets by what they are.

Data for ``policy/hardline.py`` (read and written: denied, in any letter case) and for the
sandbox (``exec/linked.py``: a link into one of them is hidden). Each entry from the tool's
own documentation of where it keeps its login.
"""

from __future__ import annotations

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
    # X11's and ICE's session cookies: whoever holds one connects to the person's display
    # (reads every key they type) or their desktop session
    ".Xauthority",
    ".ICEauthority",
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
    # A container engine's API socket: whoever talks to it starts a privileged container with
    # the host's / mounted (root on the machine, every credential on it).
    "**/docker.sock",
    "**/podman/podman.sock",
    "**/containerd/containerd.sock",
    "**/buildkit/buildkitd.sock",
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
