"""Forms of programs that print secrets: a token, a password, a kubeconfig's credentials, the
environment. Printing a secret is reading a credential (``disclosure`` makes it one).

Each form is the program's subcommand words (options between them ignored) and, when the
secret is printed only with some option, those options (any one). From the tools' own
documentation: ``kubectl config view`` prints auth-provider tokens (only key data is
redacted), ``docker compose config`` interpolates ``.env``, ``git config -l`` prints
``url.*.insteadOf`` and credential URLs, ``npm config list`` prints the user ``.npmrc``…
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bastion.shell.programs.spec import fs


@dataclass(frozen=True, slots=True)
class SecretPrinter:
    words: tuple[str, ...]
    flags: frozenset[str] = frozenset()  # one of these must be given; empty: always
    why: str = ""
    whole: bool = False  # the words are the whole command: no other word after them
    named: bool = False  # a word must follow them (``terraform output NAME``)

    def matches(self, words: list[str], options: set[str]) -> bool:
        """Do the command's non-option ``words`` and its ``options`` make this form?"""
        n = len(self.words)
        return (
            tuple(words[:n]) == self.words
            and (not self.flags or bool(options & self.flags))
            and (not self.whole or len(words) == n)
            and (not self.named or len(words) > n)
        )


def _p(
    words: str, why: str, flags: frozenset[str] = frozenset(), whole: bool = False, named: bool = False
) -> SecretPrinter:
    return SecretPrinter(tuple(words.split()), flags, why, whole, named)


_KUBE = (
    _p("config view", "prints the kubeconfig's credentials (auth-provider and exec tokens)"),
    _p("create token", "prints a service-account token"),
)
_COMPOSE = _p("config", "prints the compose file with .env and environment secrets interpolated")
#: Options of ``docker compose`` that take a value (``--env-file .env config``).
COMPOSE_VALUES = fs("-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory")
#: Container engines whose ``inspect`` prints a container's environment (``.Config.Env``).
CONTAINER_ENGINES = fs("docker", "podman", "nerdctl")
_GIT_LIST = fs("-l", "--list", "--get-regexp", "--get-urlmatch", "--get-all")

SECRET_PRINTERS: dict[str, tuple[SecretPrinter, ...]] = {
    "kubectl": _KUBE,
    "oc": _KUBE,
    # `compose convert` is `compose config` under its other name (`docker compose convert --help`).
    "docker": (_p("compose config", _COMPOSE.why), _p("compose convert", _COMPOSE.why)),
    "podman": (_p("compose config", _COMPOSE.why), _p("compose convert", _COMPOSE.why)),
    "docker-compose": (_COMPOSE, _p("convert", _COMPOSE.why)),
    "podman-compose": (_COMPOSE, _p("convert", _COMPOSE.why)),
    "git": (
        _p("config", "lists git configuration (tokens in url.*.insteadOf, credential URLs)", _GIT_LIST),
        _p("config list", "lists git configuration (tokens in url.*.insteadOf, credential URLs)"),
        _p("var", "lists git variables with the configuration", fs("-l")),
        _p("credential fill", "prints a stored password"),
        _p("credential-store get", "prints a stored password"),
        _p("credential-cache get", "prints a cached password"),
        # with an option's value between (`credential-store --file F get`): any action of it
        # reads or writes the store F names
        _p("credential-store", "reads or writes the password store it names", fs("--file")),
        _p("credential-cache", "reads or writes the password cache it names", fs("--socket", "--timeout")),
    ),
    "gh": (
        _p("auth token", "prints the GitHub token"),
        _p("auth status", "prints the GitHub token", fs("-t", "--show-token")),
    ),
    "glab": (_p("auth status", "prints the GitLab token", fs("-t", "--show-token")),),
    "npm": (
        _p("config list", "prints npm configuration (registry tokens)"),
        _p("config ls", "prints npm configuration (registry tokens)"),
        _p("config get", "prints npm configuration (registry tokens)"),
        _p("get", "prints npm configuration (registry tokens)"),
        _p("run env", "runs npm's built-in env script: prints the whole environment"),
        _p("run-script env", "runs npm's built-in env script: prints the whole environment"),
    ),
    "pnpm": (
        _p("config list", "prints pnpm configuration (registry tokens)"),
        _p("config get", "prints pnpm configuration (registry tokens)"),
    ),
    "yarn": (_p("config", "prints yarn configuration (npmAuthToken)"),),
    **{
        pip: (
            _p("config list", "prints pip configuration (index passwords)"),
            _p("config get", "prints pip configuration (index passwords)"),
            _p("config debug", "prints pip configuration (index passwords)"),
        )
        for pip in ("pip", "pip3")
    },
    **{
        mysql: (_p("", "prints the option files' settings (passwords)", fs("--print-defaults")),)
        for mysql in ("mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlcheck", "mysqlimport", "mysqlshow")
    },
    "my_print_defaults": (_p("", "prints the option files' settings (passwords)"),),
    # Build tools that print their variable database, which holds every environment variable.
    **{
        make: (_p("", "prints make's database: every environment variable", fs("-p", "--print-data-base")),)
        for make in ("make", "gmake")
    },
    "cmake": (_p("environment", "prints the whole environment", fs("-E")),),
    "php": (_p("", "phpinfo() prints the whole environment", fs("-i", "--info")),),
    "systemctl": (_p("show-environment", "prints the service manager's environment"),),
    "tmux": (
        _p("show-environment", "prints the tmux session's environment"),
        _p("showenv", "prints the tmux session's environment"),
    ),
    **{
        gpg: (_p("", "prints secret keys", fs("--export-secret-keys", "--export-secret-subkeys")),)
        for gpg in ("gpg", "gpg2")
    },
    # maven-help-plugin masks <password> and <passphrase> only: server httpHeaders (a GitLab
    # Private-Token) and profile properties print as written, passwords too with -DshowPasswords.
    "mvn": (_p("help:effective-settings", "prints the settings (server tokens and properties)"),),
    "mvnw": (_p("help:effective-settings", "prints the settings (server tokens and properties)"),),
    # ssh(1) -G: "print its configuration after evaluating Host and Match blocks and exit"
    # (~/.ssh/config: its proxies, users, identity files and SetEnv values).
    "ssh": (_p("", "prints the resolved ssh configuration", fs("-G")),),
    # composer-config(1) --list shows auth.json's http-basic passwords and oauth tokens too.
    "composer": (_p("config", "lists composer settings (auth.json tokens)", fs("-l", "--list")),),
    "poetry": (_p("config", "lists poetry settings (repository credentials)", fs("--list")),),
    # helm-get(1): the values given at install (passwords) and the manifest (Secret objects).
    "helm": (
        _p("get values", "prints the release's values (passwords given at install)"),
        _p("get all", "prints the release's values and manifest (Secret objects)"),
        _p("get manifest", "prints the release's manifest (Secret objects)"),
    ),
    # Attaching to a running process reads its memory: every secret it holds.
    "gdb": (_p("", "attaches to a running process: its memory, secrets and all", fs("-p", "--pid")),),
    "gcore": (_p("", "dumps a running process's memory"),),
    "py-spy": (_p("dump", "prints a running process's stack and its local variables", fs("--locals", "-l")),),
    "vault": (
        _p("read", "prints a secret from Vault"),
        _p("kv get", "prints a secret from Vault"),
        _p("token create", "prints a new Vault token"),
        _p("token lookup", "prints a Vault token"),
        _p("print token", "prints the Vault token"),
        _p("login", "prints a Vault token"),
    ),
    "aws": (
        _p("configure get", "prints AWS configuration (secret keys)"),
        _p("configure export-credentials", "prints AWS credentials"),
        _p("ecr get-login-password", "prints a registry password"),
        _p("sts get-session-token", "prints AWS session credentials"),
        _p("sts assume-role", "prints AWS session credentials"),
        _p("secretsmanager get-secret-value", "prints a secret"),
        _p("ssm get-parameter", "prints a decrypted parameter", fs("--with-decryption")),
        _p("ssm get-parameters", "prints decrypted parameters", fs("--with-decryption")),
    ),
    "gcloud": (
        _p("auth print-access-token", "prints a Google access token"),
        _p("auth print-identity-token", "prints a Google identity token"),
        _p("auth application-default print-access-token", "prints a Google access token"),
        _p("secrets versions access", "prints a secret"),
        _p("config config-helper", "prints a Google access token"),
    ),
    "az": (
        _p("account get-access-token", "prints an Azure access token"),
        _p("keyvault secret show", "prints a secret"),
    ),
    "heroku": (_p("auth:token", "prints the Heroku token"), _p("config", "prints config vars (secrets)")),
    "terraform": (
        _p("output", "prints sensitive outputs", fs("-raw", "-json")),
        # "Terraform will not redact the value when you specify the output by name" (its
        # outputs tutorial): only the listing of every output masks a sensitive one
        _p("output", "prints the output it names, a sensitive one in plain text", named=True),
        # terraform-show(1): "-json ... will display sensitive values in plain text"; the human
        # form masks only what a schema marks sensitive (a generated password may not be).
        _p("show", "prints the state (its secret attributes)"),
        _p("state pull", "prints the raw state (every secret attribute)"),
        _p("state show", "prints a resource's attributes from the state"),
    ),
    "op": (_p("read", "prints a 1Password secret"), _p("item get", "prints a 1Password item")),
    "pass": (_p("show", "prints a password"),),
    "gopass": (_p("show", "prints a password"),),
    "secret-tool": (_p("lookup", "prints a stored secret"),),
    # Python's keyring CLI (``keyring get SERVICE USER``, also ``python3 -m keyring get``)
    "keyring": (_p("get", "prints a password the system keyring stores"),),
    # Secret managers and encrypted files, each from its own documentation: what these forms
    # print is the secret itself.
    "sops": (
        _p("", "prints the decrypted file", fs("-d", "--decrypt")),
        _p("decrypt", "prints the decrypted file"),
    ),
    "ansible-vault": (
        _p("view", "prints the decrypted vault"),
        _p("decrypt", "decrypts the vault", fs("--output")),
    ),
    "bw": (_p("get", "prints a Bitwarden item or password"), _p("list items", "prints Bitwarden items")),
    "lpass": (_p("show", "prints a LastPass entry"),),
    "keepassxc-cli": (_p("show", "prints a KeePassXC entry"),),
    "doppler": (_p("secrets", "prints the project's secrets"),),
    "infisical": (
        _p("secrets", "prints the project's secrets"),
        _p("export", "prints the project's secrets"),
    ),
    "chamber": (
        _p("read", "prints a secret"),
        _p("export", "prints the service's secrets"),
        _p("env", "prints the service's secrets"),
    ),
    "aws-vault": (_p("export", "prints AWS session credentials"),),
    "railway": (_p("variables", "prints the service's variables (secrets)"),),
    **{fly: (_p("auth token", "prints the Fly.io token"),) for fly in ("fly", "flyctl")},
    "pulumi": (
        _p("stack output", "prints the stack's secret outputs in plain text", fs("--show-secrets")),
        _p("stack export", "prints the stack's state with its secrets decrypted", fs("--show-secrets")),
        _p("config", "prints the stack's secret config in plain text", fs("--show-secrets")),
        _p("config get", "prints a config value, a secret one decrypted"),
        _p("env open", "prints an environment's values, its secrets decrypted"),
    ),
    "stripe": (_p("config", "prints the CLI's settings (its API keys)", fs("--list")),),
    "netlify": (
        _p("env:list", "prints the site's environment values", fs("--plain", "--json")),
        _p("env:get", "prints an environment value"),
    ),
    "bundle": (
        # bundle-config(1): "Executing bundle config with no parameters will print a list of all
        # bundler configuration" (BUNDLE_<HOST> source credentials among it)
        _p("config", "lists every bundler setting (gem source credentials)", whole=True),
        _p("config list", "prints bundler settings (gem source credentials)"),
        _p("config get", "prints a bundler setting (gem source credentials)"),
    ),
    **{
        conda: (_p("config", "prints conda settings (channel tokens)", fs("--show", "--show-sources")),)
        for conda in ("conda", "mamba", "micromamba")
    },
    "security": (
        _p("find-generic-password", "prints a keychain password", fs("-w", "-g")),
        _p("find-internet-password", "prints a keychain password", fs("-w", "-g")),
    ),
    **{
        helper: (_p("get", "prints a registry credential"), _p("list", "lists registry credentials"))
        for helper in (
            "docker-credential-pass",
            "docker-credential-secretservice",
            "docker-credential-osxkeychain",
            "docker-credential-desktop",
            "docker-credential-ecr-login",
            "docker-credential-gcloud",
        )
    },
}

#: jq-like filters: identifiers that read the environment.
ENV_IDENTIFIERS: dict[str, frozenset[str]] = {
    "jq": fs("env", "$ENV"),
    "gojq": fs("env", "$ENV"),
    "jaq": fs("env", "$ENV"),
    "yq": fs("env", "$ENV", "strenv", "envsubst"),
}

_JS_ENV = (
    r"\b(process|Bun)\s*(\.\s*env|\[\s*['\"`]env['\"`]\s*\])(?!\s*(\.\s*[A-Za-z_$]|\?\.|\[))"
    r"|\bDeno\s*\.\s*env\s*\.\s*toObject\b"
)
_RUBY_ENV = r"\bENV\b(?!\s*(\[|\.\s*(fetch|key\?|has_key\?|include\?)))"
#: Inline code that reads the whole environment, not one variable by name (``print(os.environ)``,
#: ``node -p process.env``, ``perl -e 'print %ENV'``, ``ruby -e 'p ENV'``): printing or sending
#: it discloses every secret of the session. Per interpreter family.
WHOLE_ENVIRONMENT: dict[str, re.Pattern[str]] = {
    "node": re.compile(_JS_ENV),
    "deno": re.compile(_JS_ENV),
    "python": re.compile(r"\benvironb?\b(?!\s*(\[|\.\s*(get|setdefault|pop)\s*\())"),
    "perl": re.compile(r"%(main)?(::)?ENV\b"),
    "ruby": re.compile(_RUBY_ENV),
    "julia": re.compile(_RUBY_ENV),
    "php": re.compile(r"\$_(ENV|SERVER)\b(?!\s*\[)|\bgetenv\s*\(\s*\)"),
    "R": re.compile(r"\bSys\.getenv\s*\(\s*\)"),
    "pwsh": re.compile(r"\benv:(?![A-Za-z_])", re.IGNORECASE),
}
#: One variable read by name in inline code (``process.env.GITHUB_TOKEN``, ``$ENV{AWS_…}``,
#: ``os.getenv("…")``): a secret when its name is one's (``disclosure.secret_name``).
NAMED_ENVIRONMENT = re.compile(r"\b(?:env|environ|ENV|getenv|ENVIRON)\b\W{1,4}([A-Za-z_][A-Za-z0-9_]*)")
