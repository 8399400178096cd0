"""``[second_opinion]`` → :class:`SecondOpinionConfig`, checked where the file is read.

Pure: it only validates names and numbers. The checker itself (a command run, a URL
posted to) lives in ``bastion.opinion``, outside the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.errors import PolicyError
from bastion.policy.settings import SecondOpinionConfig

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import SecondOpinionSection

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
