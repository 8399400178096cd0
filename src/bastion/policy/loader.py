"""Find, read and validate policy files; build the immutable Policy (the loading entry
points, which also merge every other section, are in bastion.configuration).

Which files apply: ``--policy FILE`` or ``BASTION_POLICY`` replaces all others; otherwise
the built-in defaults, then ``~/.config/bastion/policy.toml``, then the nearest
``.bastion/policy.toml`` in the cwd or its parents. A project file is untrusted (may only
tighten) unless ``bastion policy trust FILE`` recorded its hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bastion.errors import PolicyError
from bastion.policy.compiled import Policy
from bastion.policy.layer import Layer
from bastion.policy.locate import KeyLocator
from bastion.policy.merge import compile_policy
from bastion.policy.rule_examples import check_rule_examples
from bastion.policy.sources import TRUST_FILE, PolicySources, state_dir_from
from bastion.policy.sources import home_of as _home


def parse_policy_text(
    text: str, *, path: str | None, trusted: bool = True, base_dir: str | None = None
) -> Layer:
    """Parse one file's text into a Layer; errors name file, line and key."""
    from pydantic import ValidationError  # here: a cached Policy never needs the schema

    from bastion.policy.model import PolicyFile

    name = path or "<policy>"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = int(found.group(1)) if found else getattr(exc, "lineno", None)
        raise PolicyError(f"not valid TOML: {getattr(exc, 'msg', exc)}", file=name, line=line) from exc
    except RecursionError as exc:  # tomllib recurses per nesting level: 3,000 "[" overflows
        raise PolicyError("nested too deeply to read (arrays or tables)", file=name) from exc
    except (ValueError, MemoryError) as exc:  # anything else the parser chokes on
        raise PolicyError(f"the TOML parser cannot read it: {exc}", file=name) from exc
    locator = KeyLocator(text)
    data = _bastion_form(data, locator, name)
    try:
        spec = PolicyFile.model_validate(data)
    except RecursionError as exc:
        raise PolicyError("nested too deeply to validate", file=name) from exc
    except ValidationError as exc:
        errors = exc.errors()
        # For a union (e.g. a root as text or as a table), the deepest branch error says most.
        first = max(
            (e for e in errors if tuple(e["loc"])[:2] == tuple(errors[0]["loc"])[:2]),
            key=lambda e: len(_clean_loc(tuple(e["loc"]))),
        )
        loc = tuple(first["loc"])
        # Drop pydantic's union-branch labels (e.g. "str", "TrustedRoot") from the key path.
        key_parts = [str(p) for p in _clean_loc(loc)]
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            message = "unknown key (check the spelling; see examples/policy.toml for every key)"
        raise PolicyError(
            message, file=name, line=locator.line_of(_clean_loc(loc)), key=".".join(key_parts)
        ) from exc
    return Layer(path=path, spec=spec, trusted=trusted, locator=locator, base_dir=base_dir)


def _bastion_form(data: dict[str, Any], locator: KeyLocator, name: str) -> dict[str, Any]:
    """The 000 seed's flat ``permissions.toml`` keys in Bastion's own (bastion.policy.seed_form)."""
    from bastion.policy import seed_form

    if not seed_form.is_seed_form(data):
        return data
    try:
        form = seed_form.translate(data, file=name)
    except PolicyError as exc:
        raise PolicyError(exc.detail, file=name, line=locator.line_of((exc.key,)), key=exc.key) from exc
    for loc, written in form.aliases:
        locator.alias(loc, written)
    return form.data


_UNION_TAGS = frozenset({"str", "int", "bool", "float", "list", "tuple", "dict"})


def _clean_loc(loc: tuple[object, ...]) -> tuple[str | int, ...]:
    """Drop pydantic's union-branch labels ("str", "TrustedRoot") from an error location."""
    return tuple(
        p
        for p in loc
        if isinstance(p, int) or (isinstance(p, str) and not p[:1].isupper() and p not in _UNION_TAGS)
    )


def read_policy_file(path: str, *, trusted: bool = True) -> Layer:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise PolicyError(f"cannot read policy file: {exc.strerror or exc}", file=path) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PolicyError("policy file is not UTF-8", file=path) from exc
    return parse_policy_text(text, path=os.path.abspath(path), trusted=trusted)


def file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def trusted_digests(state_dir: str) -> dict[str, str]:
    try:
        data = json.loads(Path(state_dir, TRUST_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def trust_policy_file(path: str, state_dir: str) -> str:
    """Record a project file's hash so its loosenings apply; returns the digest."""
    absolute = os.path.abspath(path)
    read_policy_file(absolute)  # refuse to trust a file that does not load
    digest = file_digest(absolute)
    known = trusted_digests(state_dir)
    known[absolute] = digest
    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    target = Path(state_dir, TRUST_FILE)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(known, indent=2, sort_keys=True), "utf-8")
    os.replace(tmp, target)
    return digest


def policy_layers(policy_path: str | None = None, *, cwd: str, env: Mapping[str, str]) -> list[Layer]:
    return layers_of(PolicySources.find(policy_path, cwd=cwd, env=env))


def layers_of(sources: PolicySources, *, own: Layer | None = None) -> list[Layer]:
    """The built-in defaults, then each file of ``sources`` (a project file trusted only
    when the trust store holds its current hash). ``own``: the person's own file (the
    explicit one, else the user file) as this layer instead of as read from disk: the text
    the settings page would write, checked before it is."""
    from bastion.policy.model import PolicyFile

    layers = [Layer(path=None, spec=PolicyFile(), trusted=True)]
    if sources.explicit:
        return [*layers, own or read_policy_file(sources.explicit)]
    if own is not None:
        layers.append(own)
    elif sources.user and os.path.isfile(sources.user):
        layers.append(read_policy_file(sources.user))
    if sources.project:
        known = trusted_digests(sources.state_dir)
        trusted = known.get(sources.project) == file_digest(sources.project)
        layers.append(read_policy_file(sources.project, trusted=trusted))
    return layers


def layer_files(layers: list[Layer]) -> str:
    """The files of ``layers``, for a load error that has no one file to name."""
    return ", ".join(layer.path for layer in layers if layer.path) or "<policy>"


def compile_layers(layers: list[Layer], *, cwd: str, env: Mapping[str, str]) -> Policy:
    """Compile and self-test the gate's Policy (bastion.configuration merges the other
    sections); an unexpected failure is still a load error naming the files."""
    try:
        policy = compile_policy(layers, cwd=cwd, home=_home(env), state_dir=state_dir_from(env))
        check_rule_examples(policy, layers)
    except PolicyError:
        raise
    except Exception as exc:  # RecursionError, a bad value deep in a rule: never a traceback
        raise PolicyError(
            f"cannot be compiled: {type(exc).__name__}: {exc}", file=layer_files(layers)
        ) from exc
    return policy


#: ``1``: shadow mode whatever the files say (``--shadow`` on ``serve`` and ``hook`` sets it).
SHADOW_ENV = "BASTION_SHADOW"


def shadow_from_env(policy: Policy, env: Mapping[str, str]) -> Policy:
    """The policy with ``enforce = false`` when ``BASTION_SHADOW=1`` (see bastion.policy.shadow)."""
    if env.get(SHADOW_ENV) != "1" or not policy.enforce:
        return policy
    import dataclasses

    return dataclasses.replace(policy, enforce=False, enforce_source=f"{SHADOW_ENV}=1 (--shadow)")
