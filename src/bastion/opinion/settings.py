"""``[second_opinion]`` → :class:`SecondOpinionConfig`, checked where the file is read, and
:func:`merge_opinion`, which folds the layers' tables.

Pure: it only validates names and numbers. The checker itself (a command run, a URL
posted to) is built from it by :func:`bastion.opinion.consult.opinion_from`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.errors import PolicyError
from bastion.policy.tighten import ignored

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import SecondOpinionSection


@dataclass(frozen=True, slots=True)
class SecondOpinionConfig:
    """``[second_opinion]`` compiled: exactly one of ``command`` (argv) and ``url``; the
    family and effect names it applies to (empty: every call the policy allows); seconds."""

    command: tuple[str, ...] | None = None
    url: str | None = None
    families: frozenset[str] = frozenset()
    effects: frozenset[str] = frozenset()
    timeout: float = 10.0
    source: str = "built-in"  # where it is configured, e.g. "policy.toml:40"


def merge_opinion(layers: Iterable[Layer]) -> tuple[SecondOpinionConfig | None, tuple[str, ...]]:
    """The ``[second_opinion]`` of the layers in order (None: no checker). It runs a command
    or posts calls to a URL, so only a trusted layer may set it."""
    current: SecondOpinionConfig | None = None
    warnings = []
    for layer in layers:
        section = layer.spec.second_opinion
        if section is None:
            continue
        if layer.trusted:
            current = second_opinion_config(section, layer)
        else:
            warnings.append(ignored(layer, "[second_opinion] (it runs a command or sends calls to a URL)"))
    return current, tuple(warnings)


#: Longest a checker may take: an allowed call waits for it.
MAX_TIMEOUT = 300.0
_FAMILIES = frozenset(f.value for f in Family)
_EFFECTS = frozenset(e.value for e in Effect)


def second_opinion_config(section: SecondOpinionSection, layer: Layer) -> SecondOpinionConfig:
    """The compiled section; a PolicyError naming file, line and key for any bad value."""
    from bastion.policy.model import parse_duration

    def fail(message: str, key: str) -> PolicyError:
        line = layer.locator.line_of(("second_opinion", key)) if layer.locator else None
        return PolicyError(message, file=layer.name, line=line, key=f"second_opinion.{key}")

    if (section.command is None) == (section.url is None):
        raise fail("give exactly one of command (an argv list) or url", "command")
    if section.command is not None and (not section.command or not section.command[0]):
        raise fail('command must be a non-empty argv list, e.g. ["/usr/local/bin/check"]', "command")
    if section.url is not None:
        parts = urlsplit(section.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise fail(f"url must be an http:// or https:// URL with a host, not {section.url!r}", "url")
    for key, names, known in (
        ("families", section.families, _FAMILIES),
        ("effects", section.effects, _EFFECTS),
    ):
        unknown = sorted(set(names) - known)
        if unknown:
            raise fail(
                f"unknown {key[:-1] if key == 'effects' else 'family'} "
                f"{', '.join(map(repr, unknown))}: expected one of {', '.join(sorted(known))}",
                key,
            )
    timeout = parse_duration(section.timeout)
    if not 0 < timeout <= MAX_TIMEOUT:
        raise fail(f"timeout must be between 1s and {MAX_TIMEOUT:.0f}s", "timeout")
    return SecondOpinionConfig(
        command=section.command,
        url=section.url,
        families=frozenset(section.families),
        effects=frozenset(section.effects),
        timeout=timeout,
        source=layer.where("second_opinion"),
    )
