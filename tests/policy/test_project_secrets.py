"""Issue 31, suite E: a secret a project's own file holds under an ordinary name reaches no
agent, through its own Read and Grep tools or a shell reader; the same project's everyday
files stay readable. By name (the scanners' high-confidence file names) and by what the
file holds (``secret_shapes``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
CRED = "hardline.credentials"


def _decided(gate: Gate, call: ToolCall) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call)
    return evaluation.decision, [r.rule for r in evaluation.reasons][:1]


#: Secret-bearing project files, by name: their content does not matter.
NAMED = [
    "terraform.tfstate",
    "infra/terraform.tfstate.backup",
    ".htpasswd",
    ".streamlit/secrets.toml",
    "credentials.json",
    "client_secret_1234.apps.googleusercontent.com.json",
    "data/new_user_credentials.csv",
    "data/dev_accessKeys.csv",
    "deploy/admin.conf",
    "certs/bundle.p12",
    "keys/server.ppk",
    "deploy/prod.env",
    "config/secrets.json",
    "secrets.yaml",
]


@pytest.mark.parametrize("name", NAMED)
def test_a_secret_bearing_project_file_is_a_credential_by_its_name(
    make_gate: GateFactory, call: Call, workspace: Path, name: str
) -> None:
    (workspace / name).parent.mkdir(parents=True, exist_ok=True)
    (workspace / name).write_text("x\n")
    gate = make_gate()
    assert _decided(gate, call("read", path=str(workspace / name))) == (D, [CRED])
    assert _decided(gate, call("shell", command=f"cat '{name}'")) == (D, [CRED])


#: Ordinary names holding a secret: denied by what they hold, to the Read tool and to cat.
HELD = [
    ("config/database.yml", "production:\n  adapter: postgresql\n  password: Hq8sW3zLp5Vn\n"),
    ("android/gradle.properties", "org.gradle.jvmargs=-Xmx2g\nRELEASE_STORE_PASSWORD=Rk7fQ2mZp9Lw\n"),
    ("appsettings.Development.json", '{"Default": "Server=db;User Id=sa;Password=Vb5nQ8wZr2Xt;"}\n'),
    ("service-account.json", '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n"}\n'),
    ("wp-config.php", "<?php\ndefine('DB_PASSWORD', 'p9ZqT4vWx2Lm');\n"),
    ("docker/config.json", '{"auths": {"ghcr.io": {"auth": "ZGV2OnRva2VuMTIz"}}}\n'),
    # suite J: an Azure Functions app's local settings, a Kubernetes Secret manifest
    (
        "local.settings.json",
        '{"Values": {"Storage": "DefaultEndpointsProtocol=https;AccountKey=Qm9vK3xZ7pLw2"}}\n',
    ),
    (
        "k8s/secret.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  api: Zq7Lw2Pk9Xv\n",
    ),
    ("k8s/tls.yaml", "kind: Secret\ntype: Opaque\ndata:\n  password: cGFzc3dvcmQxMjM=\n"),
]


@pytest.mark.parametrize(("name", "content"), HELD)
def test_an_ordinary_named_project_file_holding_a_secret_is_a_credential(
    make_gate: GateFactory, call: Call, workspace: Path, name: str, content: str
) -> None:
    (workspace / name).parent.mkdir(parents=True, exist_ok=True)
    (workspace / name).write_text(content)
    gate = make_gate()
    assert _decided(gate, call("read", path=str(workspace / name))) == (D, [CRED])
    assert _decided(gate, call("shell", command=f"cat {name}")) == (D, [CRED])
    assert _decided(gate, call("shell", command=f"jq . {name} | head")) == (D, [CRED])


#: The same names holding what a developer's project holds every day: read as before.
EVERYDAY = [
    ("config/database.yml", "development:\n  adapter: postgresql\n  password: postgres\n"),
    ("android/gradle.properties", "org.gradle.jvmargs=-Xmx2g\nandroid.useAndroidX=true\n"),
    ("appsettings.Development.json", '{"Default": "Server=localhost;Password=${DB_PASSWORD};"}\n'),
    ("README.md", "Put your API token in TOKEN=<your token> before running.\n"),
    ("settings.py", "SECRET_KEY = os.environ['SECRET_KEY']\nPASSWORD_HASHERS = []\n"),
    # the storage emulator's published key; a chart's Secret template; a ConfigMap
    (
        "local.settings.json",
        '{"Values": {"Storage": "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;'
        'AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"}}\n',
    ),
    ("chart/templates/secret.yaml", "kind: Secret\nstringData:\n  api: {{ .Values.api }}\n"),
    ("k8s/config.yaml", "kind: ConfigMap\ndata:\n  LOG_LEVEL: debug-verbose-mode\n"),
]


@pytest.mark.parametrize(("name", "content"), EVERYDAY)
def test_an_everyday_project_file_stays_readable(
    make_gate: GateFactory, call: Call, workspace: Path, name: str, content: str
) -> None:
    (workspace / name).parent.mkdir(parents=True, exist_ok=True)
    (workspace / name).write_text(content)
    gate = make_gate()
    assert _decided(gate, call("read", path=str(workspace / name)))[0] is A
    assert _decided(gate, call("shell", command=f"cat {name}"))[0] is A


def test_a_hard_link_to_a_key_home_keeps_under_a_name_no_glob_knows_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    (home / "keys").mkdir()
    (home / "keys" / "prod.key.txt").write_text("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n")
    (workspace / "tests").mkdir()
    (workspace / "tests" / "cert.txt").hardlink_to(home / "keys" / "prod.key.txt")
    gate = make_gate()
    assert _decided(gate, call("read", path=str(workspace / "tests" / "cert.txt"))) == (D, [CRED])
    assert _decided(gate, call("shell", command="cut -c1-9 tests/cert.txt")) == (D, [CRED])
    # git add copies it into the object store, where `git show :tests/cert.txt` prints it
    assert _decided(gate, call("shell", command="git add -f tests/cert.txt")) == (D, [CRED])


def test_a_search_reaching_a_secret_held_under_an_ordinary_name_asks_and_printing_it_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "android").mkdir()
    (workspace / "android" / "gradle.properties").write_text("RELEASE_STORE_PASSWORD=Rk7fQ2mZp9Lw\n")
    (workspace / "android" / "build.gradle").write_text("apply plugin: 'com.android.application'\n")
    gate = make_gate()
    decided = {
        command: _decided(gate, call("shell", command=command))
        for command in (
            "grep -r PASSWORD android/",  # prints the password's line
            "grep -rn plugin android/",  # prints nothing of gradle.properties, may print it
            "grep -rl PASSWORD android/",  # names only
            "rg -i store_password android",
            "grep -r plugin src/",
        )
    }
    assert decided == {
        "grep -r PASSWORD android/": (D, [CRED]),
        "grep -rn plugin android/": (Q, [CRED]),
        "grep -rl PASSWORD android/": (Q, [CRED]),
        "rg -i store_password android": (D, [CRED]),
        "grep -r plugin src/": (A, ["mode.workspace"]),
    }


def test_the_search_tool_printing_lines_of_a_remote_url_with_a_token_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://ci-bot:Qw8eRt5yUi2o@github.com/acme/w.git\n'
    )
    gate = make_gate()
    git = str(workspace / ".git")
    assert _decided(gate, call("grep", pattern="url", path=git, output_mode="content")) == (D, [CRED])
    # Lines that do not match print nothing of it: a person decides (the file may change).
    assert _decided(gate, call("grep", pattern="zzz", path=git, output_mode="content")) == (Q, [CRED])
    # Only the names of the files that match: nothing they hold is printed.
    assert _decided(gate, call("grep", pattern="url", path=git))[0] is A
    assert _decided(gate, call("read", path=str(workspace / ".git" / "config"))) == (D, [CRED])


def test_the_search_tool_hunting_a_secret_by_its_shape_is_denied_even_printing_only_names(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    # Suite F: Claude's Grep (names only by default) for ``ghp_`` over deploy/ tells which file
    # holds a GitHub token; its pattern is part of the secret. A word beside the secret (the
    # key's name) tells nothing of it, and an inverted or unknown pattern matches no secret.
    (workspace / "deploy").mkdir()
    (workspace / "deploy" / "notes.txt").write_text(f"token: ghp_{'Ab3' * 13}\nhost: ci\n")
    gate = make_gate()
    deploy = str(workspace / "deploy")
    decided = {
        (pattern, mode): _decided(gate, call("grep", pattern=pattern, path=deploy, **mode_arg))[0]
        for pattern in ("ghp_", "ghp_[A-Za-z0-9]{10}", "Ab3Ab3", "token", "host", "(")
        for mode, mode_arg in (("names", {}), ("count", {"output_mode": "count"}))
    }
    assert decided == {
        ("ghp_", "names"): D,
        ("ghp_", "count"): D,
        ("ghp_[A-Za-z0-9]{10}", "names"): D,
        ("ghp_[A-Za-z0-9]{10}", "count"): D,
        ("Ab3Ab3", "names"): D,
        ("Ab3Ab3", "count"): D,
        ("token", "names"): A,
        ("token", "count"): A,
        ("host", "names"): A,
        ("host", "count"): A,
        ("(", "names"): A,
        ("(", "count"): A,
    }


def test_the_search_tool_matching_a_private_key_body_is_denied_even_printing_only_names(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    # Suite I: Grep "BSTN" over deploy/ (names only) where server.pem's one body line holds it.
    # Every line between a key's armour is the key: a search matching one tells what it holds,
    # one match at a time. The armour's own words are no part of it, nor is a search that
    # matches no line of the file.
    (workspace / "deploy").mkdir()
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"
    (workspace / "deploy" / "server.pem").write_text(
        f"-----BEGIN PRIVATE KEY-----\n{body}\nBSTNx9\n-----END PRIVATE KEY-----\n"
    )
    gate = make_gate()
    deploy = str(workspace / "deploy")
    decided = {
        pattern: _decided(gate, call("grep", pattern=pattern, path=deploy))[0]
        for pattern in ("BSTN", "MIIEvQ", "END", "nothing-here")
    }
    assert decided == {"BSTN": D, "MIIEvQ": D, "END": A, "nothing-here": A}
