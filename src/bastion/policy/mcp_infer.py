"""Which MCP tool arguments are paths or URLs, without anyone configuring it.

Three sources, all data: a tool's ``inputSchema`` (property names, ``format``, the words of
its description), the argument's own key, and what its value looks like. What this finds is
checked by the path or network policy exactly like ``[mcp.servers.NAME] paths/urls`` —
hand configuration only adds keys, it is no longer needed for ``read_file`` of ``.env`` to
hit the hardline credential deny.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Literal

Kind = Literal["path", "url"]

#: Property names (split on _, -, camelCase) that carry a path.
PATH_WORDS = frozenset(
    {
        "path",
        "paths",
        "file",
        "files",
        "filename",
        "filepath",
        "dir",
        "dirs",
        "directory",
        "directories",
        "folder",
        "source",
        "sources",
        "src",
        "destination",
        "dest",
        "dst",
        "target",
        "root",
        "roots",
        "cwd",
        "workdir",
        "location",
        "pathname",
    }
)
#: Property names that carry a URL.
URL_WORDS = frozenset({"uri", "uris", "url", "urls", "href", "endpoint", "link", "links"})
#: JSON-schema ``format`` values.
FORMATS: Mapping[str, Kind] = {
    "uri": "url",
    "url": "url",
    "iri": "url",
    "uri-reference": "url",
    "path": "path",
    "file-path": "path",
    "filepath": "path",
}
_DESCRIPTION_PATH = re.compile(r"\b(path|file|directory|folder)\b", re.IGNORECASE)
_DESCRIPTION_URL = re.compile(r"\b(url|uri)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_URL_VALUE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://\S+$")
#: Names that are credentials on their own (no slash needed): ``.env``, ``server.pem``.
_CREDENTIAL_NAME = re.compile(
    r"^(\.env(\..*)?|.*\.(pem|key|p12|pfx)|id_(rsa|dsa|ecdsa|ed25519)\S*|\.netrc|\.npmrc|\.pypirc)$",
    re.IGNORECASE,
)
#: How deep argument values are searched.
MAX_DEPTH = 16


def _plausible(value: str) -> bool:
    """A key's name alone makes a path of a one-line value only (not source code)."""
    return bool(value) and len(value) <= 4096 and not any(c in value for c in "\n\r\t\x00")


def name_kind(key: str) -> Kind | None:
    """``path``, ``sourcePath``, ``dest_dir`` → path; ``url``, ``baseUri`` → url."""
    words = {w.lower() for w in _WORD.findall(key)}
    if words & URL_WORDS:
        return "url"
    if words & PATH_WORDS:
        return "path"
    return None


def value_kind(value: str) -> Kind | None:
    """A string that looks like a URL (``scheme://…``) or a path (``/…``, ``~…``, ``./…``,
    ``a/b`` without spaces, or a credential file name)."""
    if not value or len(value) > 4096 or any(c in value for c in "\n\r\t"):
        return None
    if _URL_VALUE.match(value):
        return "url"
    if value.startswith(("/", "~", "./", "../")) or value in (".", ".."):
        return "path"
    if " " not in value and "/" in value:
        return "path"
    if _CREDENTIAL_NAME.match(value):
        return "path"
    return None


def _property_kind(key: str, spec: Mapping[str, Any]) -> tuple[Kind | None, bool]:
    """(kind, is a list of them) for one schema property."""
    is_list = spec.get("type") == "array"
    item = spec.get("items") if is_list and isinstance(spec.get("items"), Mapping) else spec
    fmt = item.get("format") if isinstance(item, Mapping) else None
    if isinstance(fmt, str) and fmt.lower() in FORMATS:
        return FORMATS[fmt.lower()], is_list
    kind = name_kind(key)
    if kind is None:
        text = " ".join(str(s.get("description", "")) for s in (spec, item) if isinstance(s, Mapping))
        kind = "url" if _DESCRIPTION_URL.search(text) else "path" if _DESCRIPTION_PATH.search(text) else None
    return kind, is_list


def infer_schema(schema: Mapping[str, Any] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(path keys, URL keys) of a tool's ``inputSchema``; ``key[]`` for a list."""
    paths: list[str] = []
    urls: list[str] = []
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return (), ()
    for key, spec in properties.items():
        if not isinstance(spec, Mapping) or spec.get("type") not in ("string", "array", None):
            continue
        kind, is_list = _property_kind(str(key), spec)
        if kind is not None:
            (paths if kind == "path" else urls).append(f"{key}[]" if is_list else str(key))
    return tuple(paths), tuple(urls)


def implicit_values(arguments: Mapping[str, Any], skip: frozenset[str]) -> Iterator[tuple[str, str, Kind]]:
    """(label, value, kind) for every string anywhere in ``arguments`` whose key or look
    says path or URL, except the top-level keys in ``skip`` (checked already). A value
    nested deeper than MAX_DEPTH is reported as a path: what cannot be searched is checked."""
    stack: list[tuple[str, str | None, Any, int]] = [
        (str(k), str(k), v, 1) for k, v in arguments.items() if str(k) not in skip
    ]
    while stack:
        label, key, value, depth = stack.pop()
        if isinstance(value, str):
            kind = value_kind(value)
            if kind is None and key is not None and _plausible(value):
                kind = name_kind(key)
            if kind is not None:
                yield label, value, kind
        elif depth >= MAX_DEPTH:
            continue  # the strict JSON reader already caps nesting at 64; this is a backstop
        elif isinstance(value, Mapping):
            stack.extend((f"{label}.{k}", str(k), v, depth + 1) for k, v in value.items())
        elif isinstance(value, list | tuple):
            stack.extend((f"{label}[{i}]", key, v, depth + 1) for i, v in enumerate(value))


def describe_inferred(server: str, schemas: Mapping[str, Mapping[str, Any] | None]) -> list[str]:
    """One line per tool with inferred path/URL arguments, for the proxy's log and install."""
    lines = []
    for tool in sorted(schemas):
        paths, urls = infer_schema(schemas[tool])
        parts = ([f"paths {', '.join(paths)}"] if paths else []) + (
            [f"urls {', '.join(urls)}"] if urls else []
        )
        if parts:
            lines.append(f"{server}/{tool}: checks {'; '.join(parts)}")
    return lines
