"""The redaction table and call summaries: what the ledger and the approval queue show.

The table is data (name, pattern, replacement), applied in order; tests walk it row by row.
Summaries are one line, redacted, at most ``SUMMARY_LIMIT`` characters.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from bastion.call.model import ToolCall, thaw

MASK = "***"
SUMMARY_LIMIT = 300

_SECRET_WORD = (
    r"(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|private[_-]?key|client[_-]?secret|credentials?|auth|session[_-]?key|cookie)"
)
#: A value to mask; not one already masked, nor an auth scheme the next row keeps.
_VALUE = r"(?!\*\*\*)(?!(?i:bearer|basic|token)\s)(?:\"[^\"]*\"|'[^']*'|[^\s&;,\"']+)"

Replacement = str | Callable[[re.Match[str]], str]

#: (name, pattern, replacement): the redaction table, applied top to bottom.
REDACTIONS: tuple[tuple[str, re.Pattern[str], Replacement], ...] = (
    (
        "pem-block",
        re.compile(r"-----BEGIN [A-Z0-9 ]+-----.*?(?:-----END [A-Z0-9 ]+-----|\Z)", re.S),
        "[REDACTED PEM BLOCK]",
    ),
    ("url-credentials", re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s:@]+:[^/\s@]+@"), rf"\1{MASK}@"),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})"), MASK),
    ("sk-key", re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), MASK),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), MASK),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), MASK),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), MASK),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+"), MASK),
    ("auth-header", re.compile(r"(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=-]{8,}"), rf"\1\2{MASK}"),
    (
        "secret-flag",
        re.compile(rf"(?i)(--?[A-Za-z-]*{_SECRET_WORD}[A-Za-z-]*)(\s+|=){_VALUE}"),
        rf"\1\2{MASK}",
    ),
    (
        "secret-assignment",
        re.compile(rf"(?i)\b([A-Za-z0-9_.-]*{_SECRET_WORD}[A-Za-z0-9_.-]*)(\s*[=:]\s*){_VALUE}"),
        rf"\1\2{MASK}",
    ),
    (
        "high-entropy",
        re.compile(r"[A-Za-z0-9+/_=-]{32,}"),
        lambda m: MASK if _looks_random(m.group(0)) else m.group(0),
    ),
)

_SECRET_KEY = re.compile(rf"(?i){_SECRET_WORD}")

#: Substrings every match of _SECRET_WORD contains (tests check it against the pattern).
_SECRET_ANCHORS = ("pass", "pwd", "secret", "token", "key", "credential", "auth", "cookie")

#: name -> (substrings, folded): a row can match a text only if the text holds one of them
#: (``folded``: in its lower-case form, for the rows matched case-insensitively; only
#: trusted for ASCII text, since Unicode case folding maps other letters to ASCII ones, e.g.
#: ``ſ`` to ``s``). A row without an entry always runs. Skipping the rows that cannot match
#: turns ≈70 µs of regex scans per text into ≈2 µs, and every call is redacted three times.
ANCHORS: Mapping[str, tuple[tuple[str, ...], bool]] = {
    "pem-block": (("-----BEGIN ",), False),
    "url-credentials": (("://",), False),
    "github-token": (("gh", "github_pat_"), False),
    "sk-key": (("sk-",), False),
    "aws-access-key": (("AKIA", "ASIA"), False),
    "slack-token": (("xox",), False),
    "google-api-key": (("AIza",), False),
    "jwt": (("eyJ",), False),
    "auth-header": (("bearer", "basic", "token"), True),
    "secret-flag": (_SECRET_ANCHORS, True),
    "secret-assignment": (_SECRET_ANCHORS, True),
}


def _entropy(text: str) -> float:
    size, log2 = len(text), math.log2  # a list, not a generator: the same sum, sooner
    return -sum([n / size * log2(n / size) for n in Counter(text).values()])


#: Bits per character above which a long run of letters and digits is a secret.
RANDOM_BITS = 4.2
#: Text of k distinct characters has at most log2(k) bits per character: fewer than this
#: many can never exceed RANDOM_BITS (log2(18) = 4.17), so their entropy is not computed.
_FEWEST_DISTINCT = math.ceil(2**RANDOM_BITS)
_ASCII_DIGIT = re.compile(r"[0-9]")
_ASCII_ALPHA = re.compile(r"[A-Za-z]")


def _looks_random(text: str) -> bool:
    """Long, mixed letters and digits, more than hex's 4 bits per character. (Most long
    runs are paths, and every one is checked: two regex searches and the distinct-character
    bound instead of a Python loop per character, ≈8 µs of every event. On ASCII text,
    which is all the high-entropy row matches, they are exactly ``isdigit``/``isalpha``.)"""
    if text.isascii():
        mixed = _ASCII_DIGIT.search(text) is not None and _ASCII_ALPHA.search(text) is not None
    else:
        mixed = any(c.isdigit() for c in text) and any(c.isalpha() for c in text)
    return mixed and len(set(text)) >= _FEWEST_DISTINCT and _entropy(text) > RANDOM_BITS


#: The table with each row's anchors, built once: (pattern, replacement, anchors, folded).
_ROWS = tuple(
    (pattern, replacement, *ANCHORS.get(name, ((), False))) for name, pattern, replacement in REDACTIONS
)


#: Every anchor in lower case, as one alternation: ASCII text whose lower-case form holds
#: none of them can match no anchored row (an exact anchor in the text is in its lower-case
#: form too), so only the rows without anchors run on it. Most texts are clean paths and
#: messages: one search instead of the row-by-row anchor loop (≈40 ``in`` tests per text).
_ANY_ANCHOR = re.compile(
    "|".join(dict.fromkeys(re.escape(w.lower()) for anchors, _ in ANCHORS.values() for w in anchors))
)
#: The rows without anchors, if they all come after the anchored ones (they do: only the
#: high-entropy row), else None and every text takes the row-by-row loop.
_LAST = len(_ROWS) - next((i for i, row in enumerate(reversed(_ROWS)) if row[2]), len(_ROWS))
_UNANCHORED = tuple((row[0], row[1]) for row in _ROWS[_LAST:])
_TAIL_ONLY = all(row[2] for row in _ROWS[:_LAST])


def redact(text: str) -> str:
    ascii_text = text.isascii()
    folded = text.lower() if ascii_text else None
    if ascii_text and _TAIL_ONLY and _ANY_ANCHOR.search(folded) is None:  # type: ignore[arg-type]
        for pattern, replacement in _UNANCHORED:
            text = pattern.sub(replacement, text)
        return text
    for pattern, replacement, anchors, fold in _ROWS:
        # Rows apply in order, each to the text the ones before left: the anchors are
        # looked for in that text, not in the original. A fold row on non-ASCII text runs.
        if anchors and not (fold and folded is None):
            where: str = folded if fold else text  # type: ignore[assignment]
            for word in anchors:
                if word in where:
                    break
            else:
                continue
        changed = pattern.sub(replacement, text)
        if changed != text:
            text = changed
            folded = text.lower() if text.isascii() else None
    return text


def redact_value(value: Any) -> Any:
    """Redact a JSON-like value: values under secret-looking keys are masked whole."""
    if isinstance(value, Mapping):
        return {
            str(k): MASK
            if _SECRET_KEY.search(str(k)) and isinstance(v, str | int | float)
            else redact_value(v)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    if isinstance(value, str):
        return redact(value)
    return value


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SUMMARY_LIMIT else text[: SUMMARY_LIMIT - 1] + "…"


#: The summaries' encoders, built once (``json.dumps`` with options builds one per call).
_SORTED = json.JSONEncoder(sort_keys=True)
_SORTED_ANY = json.JSONEncoder(sort_keys=True, default=str)
_WRITE_SORTED, _WRITE_SORTED_ANY = _SORTED.encode, _SORTED_ANY.encode


def _describe(call: ToolCall) -> str:
    args = call.args

    def text(key: str) -> str:
        return str(args.get(key, ""))

    match call.tool:
        case "shell":
            return text("command")
        case "read" | "list" | "glob" | "edit":
            return text("path")
        case "grep":
            return f"{text('pattern')} in {text('path')}".strip()
        case "write":
            content = args.get("content")
            size = f" ({len(content)} chars)" if isinstance(content, str) else ""
            return f"{text('path')}{size}"
        case "fetch":
            method = args.get("method")
            return f"{method} {text('url')}" if isinstance(method, str) else text("url")
        case "code":
            source = text("source").strip().splitlines()
            first = source[0] if source else ""
            more = f" (+{len(source) - 1} lines)" if len(source) > 1 else ""
            return f"{text('language')}: {first}{more}"
        case "install":
            packages = args.get("packages")
            names = " ".join(packages) if isinstance(packages, tuple) else str(packages or "")
            return f"{text('manager')} {names}"
        case "db":
            return f"{text('operation')} {text('target')}"
        case "mcp":
            arguments = _WRITE_SORTED(redact_value(thaw(args.get("arguments", {}))))
            return f"{text('server')}/{text('tool')} {arguments}"
    return _WRITE_SORTED_ANY(redact_value(thaw(args)))


def summarize(call: ToolCall) -> str:
    """``"shell: git push https://***@host"``: one redacted line for people and the ledger."""
    return _one_line(f"{call.tool}: {redact(_describe(call))}")
