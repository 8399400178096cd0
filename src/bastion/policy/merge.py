"""Merging policy layers into one immutable ``Policy``, one section at a time.

Layers apply in order (built-in defaults, user file, project file). A trusted layer may
set anything; an untrusted project layer may only tighten: its loosenings are dropped and
listed in ``warnings`` (shown by ``doctor`` and ``explain``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bastion.errors import PolicyError
from bastion.policy import tighten
from bastion.policy.ceiling import Ceiling
from bastion.policy.compiled import McpServerArgs, Pattern, Policy, Rule
from bastion.policy.enabled import enabled_of_layer
from bastion.policy.globs import Glob, GlobError, GlobSet, compile_glob
from bastion.policy.hardline import Hardline
from bastion.policy.kinds import Mode, RuleAction
from bastion.policy.layer import Layer
from bastion.policy.network import NetworkRules, host_pattern_error
from bastion.policy.pathchecks import build_path_checks
from bastion.policy.rules import compile_matcher

if TYPE_CHECKING:
    from bastion.policy.model import RuleSpec


def _abs_root(path: str, base: str, home: str) -> str:
    expanded = home + path[1:] if path == "~" or path.startswith("~/") else path
    return os.path.normpath(os.path.join(base, expanded))


def _globs(layer: Layer, key: str, patterns: tuple[str, ...], home: str) -> list[Glob]:
    out = []
    for pattern in patterns:
        try:
            out.append(compile_glob(pattern, source=layer.where("paths", key), base=layer.base, home=home))
        except GlobError as exc:
            raise PolicyError(
                str(exc), file=layer.name, line=_line(layer, "paths", key), key=f"paths.{key}"
            ) from exc
    return out


def _commands(layer: Layer, key: str, patterns: tuple[str, ...]) -> list[Pattern]:
    from bastion.shell.patterns import compile_pattern

    out = []
    for text in patterns:
        try:
            out.append(Pattern(text, layer.where("commands", key), compile_pattern(text)))
        except ValueError as exc:
            raise PolicyError(
                str(exc), file=layer.name, line=_line(layer, "commands", key), key=f"commands.{key}"
            ) from exc
    return out


def _line(layer: Layer, *loc: str | int) -> int | None:
    return layer.locator.line_of(loc) if layer.locator else None


@dataclass
class _Merge:
    """The policy as merged so far, layer by layer; ``build`` freezes it."""

    cwd: str
    home: str
    mode: Mode = Mode.WORKSPACE
    mode_source: str = "built-in"
    shell_in_read_only: bool = True
    workspace: tuple[str, ...] = ()
    trusted_ro: list[str] = field(default_factory=list)
    trusted_rw: list[str] = field(default_factory=list)
    credentials_dir: str = ""
    interactive_default: str = "ask"
    non_interactive_default: str = "deny"
    ttl: float = 300.0
    approval_source: str = "built-in"
    globs: dict[str, list[Glob]] = field(
        default_factory=lambda: {k: [] for k in ("allow_read", "deny_read", "allow_write", "deny_write")}
    )
    command_allow: list[Pattern] = field(default_factory=list)
    command_deny: list[Pattern] = field(default_factory=list)
    allow_hosts: list[str] = field(default_factory=list)
    deny_hosts: list[str] = field(default_factory=list)
    allow_private: bool = False
    network_source: str = "built-in"
    rules: list[Rule] = field(default_factory=list)
    #: Every ``[[rule]]`` seen so far, kept or dropped: a rule's number is its place among
    #: them, so each is distinct and the same however many an untrusted layer loses.
    rules_seen: int = 0
    ceiling: Ceiling | None = None
    ceiling_source: str = "built-in"
    mcp_servers: dict[str, McpServerArgs] = field(default_factory=dict)
    enforce: bool = True
    enforce_source: str = "built-in"
    enabled: tuple[str, ...] | None = None
    warnings: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def dropped(self, layer: Layer, what: str) -> None:
        self.warnings.append(tighten.ignored(layer, what))

    def layer(self, layer: Layer) -> None:
        if layer.path:
            self.sources.append(layer.path)
        self.roots(layer)
        self.approval(layer)
        self.paths(layer)
        self.commands(layer)
        self.network(layer)
        self.rule_list(layer)
        self.settings(layer)

    def roots(self, layer: Layer) -> None:
        from bastion.policy.model import TrustedRoot

        spec, trusted = layer.spec, layer.trusted
        if spec.mode is not None:
            mode = Mode(spec.mode)
            if trusted or mode.rank < self.mode.rank:
                self.mode, self.mode_source = mode, layer.where("mode")
            elif mode is not self.mode:
                self.dropped(layer, f"mode = {spec.mode!r}")
        if spec.shell_in_read_only is not None:  # false tightens; true only from a trusted file
            if trusted or not spec.shell_in_read_only:
                self.shell_in_read_only = spec.shell_in_read_only
            else:
                self.dropped(layer, "shell_in_read_only = true")
        if spec.workspace is not None:
            if trusted:
                self.workspace = tuple(_abs_root(p, layer.base, self.home) for p in spec.workspace)
            else:
                self.dropped(layer, "workspace")
        for root in spec.trusted_roots:
            entry = root if isinstance(root, TrustedRoot) else TrustedRoot(path=root)
            if not trusted:
                self.dropped(layer, f"trusted_roots entry {entry.path!r}")
                continue
            (self.trusted_rw if entry.rw else self.trusted_ro).append(
                _abs_root(entry.path, layer.base, self.home)
            )
        if spec.credentials_dir is not None:
            if trusted:
                self.credentials_dir = _abs_root(spec.credentials_dir, layer.base, self.home)
            else:
                self.dropped(layer, "credentials_dir")

    def approval(self, layer: Layer) -> None:
        from bastion.policy.model import parse_duration

        a = layer.spec.approval
        if a is None:
            return
        new_ttl = parse_duration(a.ttl)
        if layer.trusted:
            self.interactive_default, self.non_interactive_default = (
                a.interactive_default,
                a.non_interactive_default,
            )
            self.ttl = new_ttl
        else:
            # deny is stricter than ask; a shorter wait is stricter than a longer one.
            if a.interactive_default == "deny":
                self.interactive_default = "deny"
            if a.non_interactive_default == "deny":
                self.non_interactive_default = "deny"
            self.ttl = min(self.ttl, new_ttl)
        self.approval_source = layer.where("approval")

    def paths(self, layer: Layer) -> None:
        from bastion.policy.model import PathsSection

        spec = layer.spec
        paths = spec.paths if spec.paths is not None else (PathsSection() if layer.path is None else None)
        if paths is None:
            return
        written = {
            "deny_read": paths.deny_read,
            "deny_write": paths.deny_write,
            "allow_read": paths.allow_read,
            "allow_write": paths.allow_write,
        }
        for key in ("deny_read", "deny_write"):
            self.globs[key] += _globs(layer, key, written[key], self.home)
        for key in ("allow_read", "allow_write"):
            if written[key] and not layer.trusted:
                self.dropped(layer, f"paths.{key}")
                continue
            self.globs[key] += _globs(layer, key, written[key], self.home)

    def commands(self, layer: Layer) -> None:
        commands = layer.spec.commands
        if commands is None:
            return
        self.command_deny += _commands(layer, "deny", commands.deny)
        if commands.allow and not layer.trusted:
            self.dropped(layer, "commands.allow")
        else:
            self.command_allow += _commands(layer, "allow", commands.allow)

    def network(self, layer: Layer) -> None:
        net = layer.spec.network
        if net is None:
            return
        for key, items in (("deny_hosts", net.deny_hosts), ("allow_hosts", net.allow_hosts)):
            for host in items:
                error = host_pattern_error(host)
                if error:
                    line = _line(layer, "network", key)
                    raise PolicyError(error, file=layer.name, line=line, key=f"network.{key}")
        self.deny_hosts += net.deny_hosts
        if layer.trusted:
            self.allow_hosts += net.allow_hosts
            self.allow_private = net.allow_private
            self.network_source = layer.where("network")
        else:
            if net.allow_hosts:
                self.dropped(layer, "network.allow_hosts")
            if net.allow_private:
                self.dropped(layer, "network.allow_private")

    def rule_list(self, layer: Layer) -> None:
        for index, spec_rule in enumerate(layer.spec.rule):
            self.rules_seen += 1
            rule = _rule(spec_rule, self.rules_seen, layer, index, self.home)
            if not layer.trusted and rule.action.loosens:
                self.dropped(layer, f"{rule.rule_id} (action = {rule.action.value!r})")
                continue
            self.rules.append(rule)
        if layer.spec.ceiling is not None:
            self.ceiling = tighten.merge_ceiling(self.ceiling, layer.spec.ceiling)
            self.ceiling_source = layer.where("ceiling")

    def settings(self, layer: Layer) -> None:
        """The sections the gate reads; the other stages' sections are merged by their own
        packages (bastion.configuration)."""
        spec = layer.spec
        if spec.mcp is not None:  # only adds checks: any layer may set it
            for name, server in spec.mcp.servers.items():
                known = self.mcp_servers.get(name, McpServerArgs())
                self.mcp_servers[name] = McpServerArgs(
                    paths=tuple(dict.fromkeys((*known.paths, *server.paths))),
                    urls=tuple(dict.fromkeys((*known.urls, *server.urls))),
                )
        self.guarded(layer)

    def guarded(self, layer: Layer) -> None:
        """Settings an untrusted layer may only tighten, or not set at all."""
        spec, trusted = layer.spec, layer.trusted
        if spec.enforce is not None:  # shadow mode loosens everything: a trusted layer only
            if trusted or spec.enforce:
                self.enforce, self.enforce_source = spec.enforce, layer.where("enforce")
            else:
                self.dropped(layer, "enforce = false")
        if spec.enabled is not None:
            self.enabled, not_added = enabled_of_layer(layer, self.enabled, spec.enabled)
            if not_added:
                self.dropped(layer, f"enabled entries {', '.join(map(repr, not_added))}")

    def build(self, state_dir: str) -> Policy:
        hardline = Hardline.build(
            home=self.home,
            credentials_dir=self.credentials_dir,
            policy_files=tuple(os.path.abspath(s) for s in self.sources),
            state_dir=state_dir,
        )
        globs = {key: GlobSet.of(found) for key, found in self.globs.items()}
        return Policy(
            mode=self.mode,
            mode_source=self.mode_source,
            shell_in_read_only=self.shell_in_read_only,
            workspace=self.workspace,
            read_roots=tuple(dict.fromkeys((*self.workspace, *self.trusted_ro, *self.trusted_rw))),
            write_roots=tuple(dict.fromkeys((*self.workspace, *self.trusted_rw))),
            credentials_dir=self.credentials_dir,
            state_dir=state_dir,
            home=self.home,
            interactive_default=self.interactive_default,
            non_interactive_default=self.non_interactive_default,
            approval_source=self.approval_source,
            ttl_seconds=self.ttl,
            allow_read=globs["allow_read"],
            allow_write=globs["allow_write"],
            command_allow=tuple(self.command_allow),
            command_deny=tuple(self.command_deny),
            network=NetworkRules(
                allow_hosts=tuple(self.allow_hosts),
                deny_hosts=tuple(self.deny_hosts),
                allow_private=self.allow_private,
                source=self.network_source,
            ),
            rules=tuple(self.rules),
            ceiling=self.ceiling,
            ceiling_source=self.ceiling_source,
            hardline=hardline,
            path_checks=build_path_checks(hardline, globs["deny_read"], globs["deny_write"], self.home),
            mcp_servers=self.mcp_servers,
            sources=tuple(self.sources),
            warnings=tuple(self.warnings),
            enforce=self.enforce,
            enforce_source=self.enforce_source,
            enabled=self.enabled,
        )


def compile_policy(layers: list[Layer], *, cwd: str, home: str, state_dir: str) -> Policy:
    """Merge the layers in order into one immutable Policy. (The schema module is imported
    inside the merge: it pulls in pydantic, which a cached Policy never needs.)"""
    merge = _Merge(
        cwd=cwd,
        home=home,
        workspace=(os.path.normpath(cwd),),
        credentials_dir=_abs_root("~/.bastion/credentials", cwd, home),
    )
    for layer in layers:
        merge.layer(layer)
    return merge.build(state_dir)


def _rule(spec: RuleSpec, number: int, layer: Layer, index: int, home: str) -> Rule:
    try:
        matcher = compile_matcher(spec.tool, spec.pattern, base=layer.base, home=home)
    except ValueError as exc:
        key = "tool" if "unknown tool" in str(exc) else "pattern"
        raise PolicyError(
            str(exc), file=layer.name, line=_line(layer, "rule", index, key), key=f"rule[{number}].{key}"
        ) from exc
    return Rule(
        index=number,
        tool=spec.tool,
        pattern=spec.pattern,
        action=RuleAction(spec.action),
        reason=spec.reason,
        source=layer.where("rule", index),
        matcher=matcher,
        base=layer.base,
        match=spec.match,
        not_match=spec.not_match,
        args=dict(spec.args) if spec.args else None,
    )
