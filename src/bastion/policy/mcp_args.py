"""MCP argument checks as pure functions: argument-key rule conditions and mapped paths/URLs.

A rule ``args = { command = "git status" }`` matches when *that key's value* matches the
glob — never the stringified JSON of all arguments (the Gemini CLI hole, where
``{"command": "whoami", "metadata": {"reason": "git status"}}`` matched an allow for
``git status``). ``key[]`` means "every element of the list at ``key``".

``[mcp.servers.NAME]`` names the argument keys that carry paths (``paths = ["path",
"files[]"]``) and URLs (``urls = ["url"]``); each value found is decided by the path or
network policy as one more subject of the call, so a path argument can never reach what
``read``/``write`` could not.

``decide_mcp`` is the decider for the ``mcp`` family.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import CallError
from bastion.policy.compiled import McpServerArgs, Policy, Rule
from bastion.policy.decision import Decision, Reason
from bastion.policy.kinds import Mode, RuleAction
from bastion.policy.mcp_commands import command_denials
from bastion.policy.mcp_infer import implicit_values
from bastion.policy.network import decide_target
from bastion.policy.shell_destroys import startup_replaced
from bastion.policy.stages import Context, last_rule, mode_block, path_subject, rule_reason
from bastion.policy.verdict import Assembly, Subject

#: A value with a ``..`` segment, a NUL or another control character never matches an
#: ``args`` glob: ``src/**`` must not admit ``src/../../etc/shadow`` or ``git status\nrm``.
_UNSAFE_VALUE = re.compile(r"(^|[/\\])\.\.([/\\]|$)|[\x00-\x08\x0a-\x1f\x7f]")


def args_of(rule: Rule) -> Mapping[str, str] | None:
    """The rule's ``args`` condition, or None."""
    return rule.args or None


def servers_of(policy: Policy) -> Mapping[str, McpServerArgs]:
    """The policy's ``[mcp.servers]``."""
    return policy.mcp_servers


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return json.dumps(value)
    return None


def value_matches(pattern: str, value: Any) -> bool:
    """One argument value against one glob (``*`` and ``?`` as in fnmatch, ``**`` too)."""
    text = _scalar_text(value)
    if text is None or _UNSAFE_VALUE.search(text):
        return False
    return re.fullmatch(fnmatch.translate(pattern), text) is not None


def _values_at(arguments: Mapping[str, Any], key: str) -> tuple[bool, list[Any] | None]:
    """(key present, its values): ``key[]`` yields each element of a list, and None
    when the value there is not a list."""
    if key.endswith("[]"):
        base = key[:-2]
        if base not in arguments:
            return False, []
        items = arguments[base]
        return True, list(items) if isinstance(items, list | tuple) else None
    if key not in arguments:
        return False, []
    return True, [arguments[key]]


def rule_args_match(rule_args: Mapping[str, str], arguments: Mapping[str, Any]) -> bool:
    """Every condition holds: the key is present and each of its values matches the glob.

    A list condition (``files[]``) needs a non-empty list whose every element matches.
    """
    for key, pattern in rule_args.items():
        present, values = _values_at(arguments, key)
        if not present or not values or not all(value_matches(pattern, v) for v in values):
            return False  # absent, not a list for ``key[]``, an empty list, or a mismatch
    return True


def hiding_rule(policy: Policy, server: str, tool: str) -> Rule | None:
    """The rule that disables ``SERVER/TOOL`` (so it is removed from ``tools/list``), if any.

    Disabled means: the last ``mcp`` rule whose pattern matches is a ``deny`` with no
    ``args`` condition. A later rule for the same name (say, an allow with an argument
    condition) leaves the tool offered, and the engine decides each call.
    """
    name = f"{server}/{tool}"
    last = None
    for rule in policy.rules:
        if rule.matcher.family is Family.MCP and rule.matcher.matches_words(name):
            last = rule
    if last is not None and last.action is RuleAction.DENY and args_of(last) is None:
        return last
    return None


def mapped_values(keys: tuple[str, ...], arguments: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(key, value) for each mapped argument present. Raises CallError for a value that
    is not a string (or a list of strings for ``key[]``): what cannot be checked is refused."""
    for key in keys:
        present, values = _values_at(arguments, key)
        if not present:
            continue
        if values is None:
            raise CallError(f"mcp: argument {key[:-2]!r} must be a list of strings")
        for value in values:
            if not isinstance(value, str) or not value:
                raise CallError(f"mcp: argument {key!r} must be a non-empty string to be checked")
            yield key, value


def _args_text(rule_args: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v!r}" for k, v in rule_args.items())


def decide_mcp_extras(ctx: Context, call: ToolCall, out: Assembly, subject: Subject) -> None:
    """The last rule matching ``SERVER/TOOL`` *and* its
    ``args`` condition overrides ``subject``; each mapped path or URL argument becomes
    one more subject, decided by the path or network policy."""
    server = call.require_str("server")
    tool = call.require_str("tool")
    arguments = call.args.get("arguments") or {}
    annotations = call.args.get("annotations") or {}
    name = f"{server}/{tool}"

    def applies(rule: Rule) -> bool:
        if not rule.matcher.matches_words(name):
            return False
        condition = args_of(rule)
        return condition is None or rule_args_match(condition, arguments)

    rule = last_rule(ctx, Family.MCP, applies)
    subject.override = None  # only a rule whose argument condition holds decides here
    if rule is not None:
        condition = args_of(rule)
        matched = f"{name} {_args_text(condition)}" if condition else name
        subject.override = rule_reason(rule, matched)
    config = servers_of(ctx.policy).get(server) or McpServerArgs()
    read_only = annotations.get("readOnlyHint") is True

    def check_path(key: str, path: str) -> None:
        # The hint may only skip the write-specific check; it never allows anything.
        path_subject(ctx, out, Family.READ, path, write=False, cwd=call.cwd, label=f"{name} {key}: read")
        if not read_only:
            written, verdict = path_subject(
                ctx, out, Family.WRITE, path, write=True, cwd=call.cwd, label=f"{name} {key}: write"
            )
            # a filesystem server's write_file: its content replaces the file whole
            wiped = startup_replaced(ctx.policy, ctx.reach, verdict, arguments.get("content"))
            if wiped is not None:
                written.hard.append(wiped)
                written.effects.add(Effect.DESTRUCTIVE)

    for key, path in mapped_values(config.paths, arguments):
        check_path(key, path)
    for key, url in mapped_values(config.urls, arguments):
        url_subject(ctx, out, url, label=f"{name} {key}")
    # By default, for every server: keys the tool's inputSchema marks (sent by the proxy as
    # ``inferred``), then any value anywhere whose key or look says path or URL.
    inferred = call.args.get("inferred") or {}
    if not hasattr(inferred, "get"):
        raise CallError("mcp: 'inferred' must be an object")
    schema_paths = _keys(inferred.get("paths"))
    schema_urls = _keys(inferred.get("urls"))
    for key, value in plausible_values(schema_paths, arguments):
        check_path(key, value)
    for key, value in plausible_values(schema_urls, arguments):
        url_subject(ctx, out, value, label=f"{name} {key}")
    done = frozenset(k.removesuffix("[]") for k in (*config.paths, *config.urls, *schema_paths, *schema_urls))
    for label, value, kind in implicit_values(arguments, done):
        if kind == "url":
            url_subject(ctx, out, value, label=f"{name} {label}")
        else:
            check_path(label, value)


def _keys(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(isinstance(k, str) for k in value):
        raise CallError("mcp: 'inferred' paths/urls must be lists of argument keys")
    return tuple(value)


def plausible_values(keys: tuple[str, ...], arguments: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Like ``mapped_values`` for inferred keys: only strings that could be a path or URL
    (one line, not empty); anything else at such a key is left to ``implicit_values``."""
    for key in keys:
        _, values = _values_at(arguments, key)
        for value in values or ():
            if isinstance(value, str) and value and len(value) <= 4096 and not _CONTROL.search(value):
                yield key, value


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def url_subject(ctx: Context, out: Assembly, url: str, *, label: str) -> Subject:
    """A URL argument decided as a ``fetch`` of it would be (deny lists, private ranges,
    host rules); the mode never allows it here: the MCP subject carries the mode."""
    decision, reasons, target = decide_target(url, ctx.policy.network, ctx.resolver)
    subject = out.add(Subject(label=f"{label}: {url[:200]}", effects={Effect.NETWORK}))
    if decision is Decision.DENY:
        subject.hard.extend(reasons)
        return subject
    host = target.host if target else ""
    if decision is Decision.ALLOW:
        subject.override = reasons[0]
    rule = last_rule(ctx, Family.FETCH, lambda r: r.matcher.matches_host(target))
    if rule is not None:
        subject.override = rule_reason(rule, host)
    if subject.override is None and ctx.policy.mode is Mode.FULL_ACCESS:
        subject.mode = Reason(
            Decision.ALLOW,
            "mode.full-access",
            ctx.policy.mode_source,
            host,
            "full-access allows what is not denied",
        )
    subject.notes.extend(r.message for r in reasons)
    return subject


def decide_mcp(ctx: Context, call: ToolCall, out: Assembly) -> None:
    server = call.require_str("server")
    tool = call.require_str("tool")
    arguments = call.args.get("arguments", {})
    annotations = call.args.get("annotations") or {}
    if not hasattr(arguments, "get") or not hasattr(annotations, "get"):
        raise CallError("mcp: 'arguments' and 'annotations' must be objects")
    policy = ctx.policy
    name = f"{server}/{tool}"
    subject = out.add(Subject(label=f"mcp {name}", effects={Effect.MCP}))
    # The last rule matching SERVER/TOOL *and* its per-argument conditions decides; mapped
    # path and URL arguments become subjects of their own.
    decide_mcp_extras(ctx, call, out, subject)
    subject.hard.extend(command_denials(ctx, call, arguments, name))  # a shell server's command
    subject.unmet.append(
        Reason(Decision.ASK, "mcp.no-rule", "built-in", name, f"no rule allows the MCP tool {name}")
    )
    if annotations.get("destructiveHint") is True:
        subject.hard.append(
            Reason(
                Decision.ASK,
                "mcp.destructive",
                "built-in",
                name,
                "the tool says it is destructive: a person confirms",
            )
        )
    if policy.mode is Mode.READ_ONLY:
        subject.mode = mode_block(policy, f"MCP tool {name}")
    elif policy.mode is Mode.FULL_ACCESS:
        subject.mode = Reason(
            Decision.ALLOW,
            "mode.full-access",
            policy.mode_source,
            name,
            "full-access allows what is not denied",
        )
