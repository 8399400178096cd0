"""The redaction table, row by row, and the one-line summaries built with it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.audit.redact import (
    _SECRET_ANCHORS,
    _SECRET_KEY,
    ANCHORS,
    RANDOM_BITS,
    REDACTIONS,
    _entropy,
    _looks_random,
    redact,
    redact_value,
    summarize,
)
from bastion.call.model import ToolCall

PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"

CASES = [
    ("pem-block", f"key: {PEM} done", "key: [REDACTED PEM BLOCK] done"),
    (
        "url-credentials",
        "git clone https://bob:hunter2@example.com/r.git",
        "git clone https://***@example.com/r.git",
    ),
    (
        "github-token",
        "git push https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r",
        "git push https://***@github.com/o/r",
    ),
    ("sk-key", "curl --header x sk-ant-api03-abcdefghijklmnop", "curl --header x ***"),
    ("aws-access-key", "aws configure set id AKIAIOSFODNN7EXAMPLE", "aws configure set id ***"),
    ("slack-token", "post xoxb-123456789012-abcdefghij", "post ***"),
    ("google-api-key", "maps AIzaSyA1234567890abcdefghijklmnopqrstuv", "maps ***"),
    ("jwt", "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc", "jwt ***"),
    (
        "auth-header",
        "curl -H 'Authorization: Bearer abcdefgh12345678' x",
        "curl -H 'Authorization: Bearer ***' x",
    ),
    ("secret-flag", "login --token s3cr3tvalue --user bob", "login --token *** --user bob"),
    (
        "secret-assignment",
        "GITHUB_TOKEN=abc123 DB_PASSWORD='p w' make",
        "GITHUB_TOKEN=*** DB_PASSWORD=*** make",
    ),
    ("high-entropy", "seed q8Zt2Lm9Xr4Kp7Wv1Ns6Hy3Jb5Gd0Fc8Ae2", "seed ***"),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_row_of_the_redaction_table_masks_its_secret(name: str, text: str, expected: str) -> None:
    assert redact(text) == expected


def test_every_row_of_the_table_has_a_case() -> None:
    assert [name for name, _p, _r in REDACTIONS] == [c[0] for c in CASES]


@pytest.mark.parametrize(
    "text",
    [
        "git checkout 3f786850e387550fdab836ed7e6dc881de23001b",  # hex commit ids are not secrets
        "pytest tests/approval/test_approval_queue.py -k expiry",
        "ls -la /home/user/projects/bastion/src/bastion/approval",
        "echo the token is required",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_values_under_secret_looking_keys_are_masked_whole() -> None:
    assert redact_value(
        {"user": "bob", "api_key": "x", "nested": [{"password": 5, "note": "Bearer abcdefghijk"}]}
    ) == {"user": "bob", "api_key": "***", "nested": [{"password": "***", "note": "Bearer ***"}]}


@pytest.mark.parametrize(
    ("tool", "args", "summary"),
    [
        (
            "shell",
            {"command": "curl -H 'Authorization: Bearer abcdefgh12345678' https://x"},
            "shell: curl -H 'Authorization: Bearer ***' https://x",
        ),
        ("write", {"path": "/p/.env", "content": "API_KEY=abc"}, "write: /p/.env (11 chars)"),
        ("fetch", {"url": "https://u:pw@h/x?api_key=123"}, "fetch: https://***@h/x?api_key=***"),
        (
            "code",
            {"language": "python", "source": "import os\nprint(os.environ['TOKEN'])\n"},
            "code: python: import os (+1 lines)",
        ),
        ("install", {"manager": "pip", "packages": ["requests", "rich"]}, "install: pip requests rich"),
        ("db", {"operation": "delete", "target": "users"}, "db: delete users"),
        (
            "mcp",
            {"server": "gh", "tool": "create", "arguments": {"token": "t", "title": "hi"}},
            'mcp: gh/create {"title": "hi", "token": "***"}',
        ),
        ("weird", {"password": "x"}, 'weird: {"password": "***"}'),
    ],
)
def test_a_summary_is_one_redacted_line_per_family(tool: str, args: dict[str, object], summary: str) -> None:
    assert summarize(ToolCall(tool, args)) == summary


def test_a_long_summary_is_cut_at_300_characters() -> None:
    summary = summarize(ToolCall("shell", {"command": "echo " + "word " * 200}))
    assert (len(summary), summary[-1]) == (300, "…")


# -- the anchors that let redact skip rows (a speed-up that must change no result) ------------


def _table_redact(text: str) -> str:
    """The table applied row by row with no shortcut: what ``redact`` must always equal."""
    for _name, pattern, replacement in REDACTIONS:
        text = pattern.sub(replacement, text)
    return text


SECRETISH = st.sampled_from(
    [
        "token",
        "TOKEN",
        "Bearer ",
        "basic ",
        "api_key",
        "ApiKey",
        "passwd",
        "PassPhrase",
        "pwd",
        "client-secret",
        "credentials",
        "auth",
        "COOKIE",
        "session_key",
        "private-key",
        "access_key",
        "://",
        "https://bob:pw@",
        "ghp_",
        "github_pat_",
        "sk-",
        "AKIA",
        "ASIA",
        "xoxb-",
        "AIza",
        "eyJ",
        "-----BEGIN ",
        "-----END X-----",
        "=",
        ": ",
        " --",
        "-",
        "'",
        '"',
        "***",
        # Unicode letters that case folding matches to ASCII ones: the rows matched
        # case-insensitively cannot trust an ASCII substring test on such text.
        "ſecret",
        "\u212aey",
        "toKen",
        "ı",
        "İ",
    ]
)


@given(
    st.lists(
        st.one_of(
            SECRETISH,
            st.text(max_size=6),
            st.text(
                alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/_=-",
                min_size=30,
                max_size=40,
            ),
        ),
        max_size=12,
    )
)
@settings(max_examples=400, deadline=None)
def test_redact_with_its_anchors_equals_the_table_applied_row_by_row(parts: list[str]) -> None:
    text = "".join(parts)
    assert redact(text) == _table_redact(text)


@given(st.from_regex(_SECRET_KEY, fullmatch=True))
@settings(max_examples=300, deadline=None)
def test_every_secret_word_the_pattern_matches_holds_one_of_its_anchors(word: str) -> None:
    folded = word.lower()
    assert not word.isascii() or any(anchor in folded for anchor in _SECRET_ANCHORS)


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_row_s_own_case_holds_one_of_the_row_s_anchors(name: str, text: str, expected: str) -> None:
    words, folded = ANCHORS.get(name, (("",), False))
    where = text.lower() if folded else text
    assert any(word in where for word in words)


def test_a_secret_behind_a_unicode_letter_that_folds_to_ascii_is_still_masked() -> None:
    # "ſ" (long s) matches "s" case-insensitively: the ASCII anchor test cannot see it, so the
    # rows run on any non-ASCII text.
    assert redact("ſecret=hunter2 go") == "ſecret=*** go"


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(_JSON_VALUES)
def test_the_encoders_built_once_write_what_json_dumps_writes(value: object) -> None:
    from bastion.audit import events
    from bastion.audit import redact as redact_module

    assert (
        redact_module._SORTED.encode(value),
        redact_module._SORTED_ANY.encode(value),
        events._REASONS.encode(value),
    ) == (
        json.dumps(value, sort_keys=True),
        json.dumps(value, sort_keys=True, default=str),
        json.dumps(value, separators=(",", ":"), ensure_ascii=False),
    )


def _plainly_random(text: str) -> bool:
    """The high-entropy test with no shortcut: what ``_looks_random`` must always equal."""
    has_digit = any(c.isdigit() for c in text)
    has_alpha = any(c.isalpha() for c in text)
    return has_digit and has_alpha and _entropy(text) > RANDOM_BITS


_RUN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/_=-"


@given(
    st.one_of(
        st.text(alphabet=_RUN, min_size=32, max_size=80),
        # Few distinct characters, around the bound the shortcut relies on (18 and 19).
        st.integers(min_value=14, max_value=24).flatmap(
            lambda k: st.text(alphabet=_RUN[-k:], min_size=32, max_size=120)
        ),
        st.text(min_size=1, max_size=60),  # any Unicode text: digits and letters beyond ASCII
    )
)
@settings(max_examples=600, deadline=None)
def test_the_high_entropy_check_equals_its_plain_definition(text: str) -> None:
    assert _looks_random(text) == _plainly_random(text)


def test_a_random_looking_run_of_nineteen_distinct_characters_is_masked() -> None:
    run = "a1b2c3d4e5f6g7h8i9j" * 2  # 19 distinct characters: log2(19) = 4.25 bits > 4.2
    assert redact(f"seed {run}") == "seed ***"
    assert redact(f"seed {run[:18] * 2}") == f"seed {run[:18] * 2}"  # 18: at most 4.17 bits
