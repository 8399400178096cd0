"""Issue 31, suite E: the shapes of a secret a project's own file holds. Each table holds the
contents that must trip (a credential under an ordinary name) and the everyday ones beside
them that must not (a dev database password, a README that says "token", a reference to a
secret kept elsewhere)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.policy.secret_shapes import generated, project_secret, scrubbed

#: Built at run time, so that no scanner takes this file for a leak.
_GH = "ghp" + "_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
_AKIA = "AKIA" + "Q3EGRTYU7WXZ2ABC"

#: (name, content): a secret in a project file, whatever the file is called.
SECRET = [
    ("terraform.tfstate", '{"resources": [{"instances": [{"attributes": {"password": "Xk29vQpLm4Tz"}}]}]}'),
    ("sa.json", '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n"}'),
    ("credentials.json", '{"installed": {"client_id": "x", "client_secret": "GOCSPX-4mZq8vT2kLp9"}}'),
    ("android/gradle.properties", "org.gradle.jvmargs=-Xmx2g\nRELEASE_STORE_PASSWORD=Rk7fQ2mZp9Lw\n"),
    (".streamlit/secrets.toml", 'api_key = "Zt6pQ9wX2mKv4R"\n'),
    ("wp-config.php", "<?php\ndefine('DB_PASSWORD', 'p9ZqT4vWx2Lm');\n"),
    ("config/database.yml", "production:\n  adapter: postgresql\n  password: Hq8sW3zLp5Vn\n"),
    ("appsettings.json", '{"Default": "Server=db;User Id=sa;Password=Vb5nQ8wZr2Xt;"}'),
    ("deploy/admin.conf", "kind: Config\nusers:\n- user:\n    client-key-data: LS0tLS1CRUdJTiBSU0E=\n"),
    ("docker/config.json", '{"auths": {"ghcr.io": {"auth": "ZGV2OnRva2VuMTIz"}}}'),
    (".git/config", '[remote "origin"]\n\turl = https://ci-bot:Qw8eRt5yUi2o@github.com/acme/w.git\n'),
    # a repository's remote is where git sends its history, whatever host it names
    (".git/config", '[remote "origin"]\n\turl = https://deploy:Qw8eRt5yUi2o@git.example.com/acme/w.git\n'),
    ("vendor/lib.git/config", '[remote "o"]\n\turl = https://deploy:Qw8eRt5yUi2o@git.internal/acme/w.git\n'),
    ("deploy/notes.txt", "ghp_" + "Ab3_" * 9 + "\n"),  # a GitHub token's shape, underscores and all
    ("data/users.csv", "User name,Password,Access key ID,Secret access key\ndev,x,y,z\n"),
    (".htpasswd", "admin:$apr1$Zx8Qw2Lp$Vn5TbM9kR4sJ\n"),
    ("notes.txt", f"the token is {_GH}\n"),
    ("aws.ini", f"[default]\naws_access_key_id = {_AKIA}\n"),
    ("keys/deploy", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"),
    ("src/client.py", 'client = Client(api_key="sk9Lm2Qw7Zt4Xv8R")\n'),
]

#: (name, content): everyday project files that stay readable.
EVERYDAY = [
    ("config/database.yml", "development:\n  username: postgres\n  password: postgres\n  host: localhost\n"),
    (
        "README.md",
        "Set the token: export GITHUB_TOKEN=your-token-here\nThe API token is read from ~/.config\n",
    ),
    ("settings.py", "SECRET_KEY = 'django-insecure-8f@x!k2m#z9q$w7e6r5t4y3u2i1o0p'\n"),
    ("settings.py", "DATABASES = {'default': {'PASSWORD': os.environ.get('DB_PASSWORD')}}\n"),
    ("app.py", "client = Client(token=refreshTokenValue, api_key=settings.API_KEY)\npassword = getpass()\n"),
    (
        "docker-compose.yml",
        "DATABASE_URL: postgres://postgres:postgres@db:5432/app\nPG_PASSWORD: ${PG_PASSWORD}\n",
    ),
    ("docker-compose.yml", "DATABASE_URL: postgres://app:Xk29vQpLm4Tz@localhost:5432/app\n"),
    (".github/workflows/ci.yml", "      token: ${{ secrets.GITHUB_TOKEN }}\n"),
    ("app.js", "const apiKey = process.env.OPENAI_API_KEY;\nconst tokenizer = new Tokenizer();\n"),
    (".git/config", '[remote "origin"]\n\turl = git@github.com:acme/widget.git\n'),
    ("package-lock.json", '"integrity": "sha512-AbCdEf0123456789AbCdEf0123456789=="\n'),
    ("config/app.rb", "password: ENV['DB_PASSWORD']\n"),
    (".env.example", "API_KEY=\nSECRET_KEY=changeme\nTOKEN=<your token>\n"),
    ("wp-config-sample.php", "define( 'DB_PASSWORD', 'password_here' );\n"),
    ("tests/test_login.py", "login(user='dev', password='Password123!')\n"),
    ("docs/setup.md", "Run `curl https://user:PASSWORD@example.com/x`; max_tokens: 4096\n"),
    ("docs/setup.md", "Clone https://deploy:Qw8eRt5yUi2o@git.example.com/acme/w.git\n"),  # documentation
]


@pytest.mark.parametrize(("name", "content"), SECRET)
def test_a_project_file_holding_a_secret_of_a_known_shape_is_a_credential(name: str, content: str) -> None:
    assert project_secret(content.encode(), name) is True


@pytest.mark.parametrize(("name", "content"), EVERYDAY)
def test_an_everyday_project_file_holds_no_secret(name: str, content: str) -> None:
    assert project_secret(content.encode(), name) is False


_KEYS = st.sampled_from(["password", "DB_PASSWORD", "api_key", "client_secret", "secret_key_base", "token"])
#: How a key is given its value: ini, properties, YAML, JSON, PHP, a connection string.
_FORMS = st.sampled_from(
    ["{k} = {v}", "{k}={v}", "  {k}: {v}", '{{"{k}": "{v}"}}', "define('{k}', '{v}');", "Server=db;{k}={v};"]
)
_WORDS = st.sampled_from(["example", "changeme", "your_token", "placeholder", "dummy", "insecure", "test"])


@given(_KEYS, _FORMS, _WORDS, st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd")), max_size=20))
def test_a_placeholder_value_never_trips(key: str, form: str, word: str, tail: str) -> None:
    assert not project_secret(form.format(k=key, v=word + tail).encode(), "config.yml")


@given(
    _KEYS,
    st.sampled_from(["${", "$", "<%= ENV['", "process.env.", "os.environ['"]),
    st.from_regex(r"[A-Z_]{4,20}", fullmatch=True),
)
def test_a_reference_to_a_secret_kept_elsewhere_never_trips(key: str, ref: str, name: str) -> None:
    assert not project_secret(f"{key}: {ref}{name}\n".encode(), "config.yml")


#: Characters of a generated value (no vowel: no placeholder word can be spelled).
_GENERATED = st.permutations(list("BCDFGHJKbcdfghjk23456789")).map(lambda cs: "".join(cs[:16]))


@given(_KEYS, _FORMS, _GENERATED)
def test_a_generated_value_of_a_secret_named_key_trips(key: str, form: str, value: str) -> None:
    assert project_secret(form.format(k=key, v=value).encode(), "config.yml")


@given(st.text(st.characters(whitelist_categories=("Ll", "Zs")), max_size=200))
def test_lower_case_prose_holds_no_project_secret(text: str) -> None:
    assert not project_secret(text.encode(), "README.md")


def test_an_unquoted_value_in_a_program_is_a_variable_and_a_quoted_one_a_literal() -> None:
    assert project_secret(b"password = RefreshTokenValue9\n", "app.py") is False
    assert project_secret(b"password = 'RefreshTokenValue9'\n", "app.py") is True
    assert project_secret(b"password = RefreshTokenValue9\n", "app.properties") is True


def test_a_generated_value_is_long_mixed_and_no_placeholder() -> None:
    assert [
        generated(v) for v in ("Xk29vQpLm4Tz", "postgres", "developmentdb", "YourPassword12", "AAAAAAAAAAA1")
    ] == [
        True,
        False,
        False,
        False,
        False,
    ]


#: (before, after): a change that scrubs a secret: a literal value replaced with a reference.
SCRUBBED = [
    ("[db]\npassword = BSTNCANARY_history_secret\n", "[db]\npassword = ${DB_PASSWORD}\n"),
    ('api_key = "abcd1234efgh"\n', 'api_key = os.environ["API_KEY"]\n'),
    ("token = 'prod-deploy-2024'\n", "token = process.env.TOKEN\n"),
    ("export SECRET_KEY=mysecretkey99\n", "export SECRET_KEY=$SECRET_KEY\n"),
]
#: Changes that scrub nothing: a dev default, a value changed for another literal, a reference
#: moved, a key removed, a short value.
NOT_SCRUBBED = [
    ("password: postgres\n", "password: ${DB_PASSWORD}\n"),
    ("password: changeme\n", "password: ${X}\n"),
    ("password = hunter2-Xy9\n", "password = other-value-1\n"),
    ("password = ${OLD}\n", "password = ${NEW}\n"),
    ("password = Zq8wL2pXk9\n", "user = app\n"),
    ("token: abc\n", "token: ${T}\n"),
]


@pytest.mark.parametrize(("before", "after"), SCRUBBED)
def test_a_literal_replaced_with_a_reference_is_a_scrubbed_secret(before: str, after: str) -> None:
    assert scrubbed(before.encode(), after.encode())


@pytest.mark.parametrize(("before", "after"), NOT_SCRUBBED)
def test_other_changes_scrub_nothing(before: str, after: str) -> None:
    assert not scrubbed(before.encode(), after.encode())
