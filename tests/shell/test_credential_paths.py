"""``looks_like_credential``'s one-scan reject never hides a credential path: it answers as
the per-component match it skips (kept here as the reference) on every path."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.shell import paths as P


def reference(path: str) -> bool:
    """The check without the reject: every component matched against every name."""
    parts = [c for c in P.normalise(path).split("/") if c not in ("", ".", "~")]
    if "gcloud" in parts or ".config/gh" in "/".join(parts):
        return True
    if parts and parts[-1] in P._NOT_SECRET:
        return False
    return any(P._CREDENTIAL_RE.match(c) for c in parts)


#: Pieces of credential names and path punctuation, so random paths hit the names often.
PIECES = [
    *P._CREDENTIAL_NAMES, *P._NOT_SECRET, "gcloud", ".config", "gh", "~", ".", "..", "",
    "src", "a", "x.py", "id_", "rsa", ".en", "v", "key", "pem", ".", "secrets", "json",
]  # fmt: skip


def test_the_reject_answers_as_the_reference_on_known_names():
    paths = [
        "~/.ssh/id_rsa", "src/app.py", "~/.config/gh/hosts.yml", ".config/~/gh", "a/.env",
        "a/.env.example", "prod.env", "x/credentials.json", "/etc/shadow", "~/.aws/config",
        "master.key", "keys/deploy.pem", "README.md", "~/gcloud", "a//.ssh/", "./.netrc",
    ]  # fmt: skip
    for path in paths:
        assert P.looks_like_credential(path) is reference(path), path


@settings(max_examples=800, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(PIECES), max_size=5), st.sampled_from(["", "/", "~/", "./"]))
def test_the_reject_answers_as_the_reference_on_any_path(parts, lead):
    path = lead + "/".join(parts)
    assert P.looks_like_credential(path) is reference(path)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.text(alphabet="abcdeghijklmnoprstuvwxyz._-/~*", max_size=30))
def test_the_reject_answers_as_the_reference_on_random_text(path):
    assert P.looks_like_credential(path) is reference(path)
