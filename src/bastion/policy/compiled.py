"""The immutable Policy the engine evaluates against, built from layered policy files.

Layers apply in order (built-in defaults, user file, project file). A trusted layer may
set anything; an untrusted project layer may only tighten: its loosenings are dropped and
listed in ``warnings`` (shown by ``doctor`` and ``explain``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bastion.errors import PolicyError
from bastion.policy import tighten
from bastion.policy.exec_settings import ExecConfig
from bastion.policy.globs import Glob, GlobError, GlobSet, compile_glob
from bastion.policy.hardline import Hardline
from bastion.policy.locate import KeyLocator
from bastion.policy.network import NetworkRules, host_pattern_error
from bastion.policy.pathchecks import PathChecks, build_path_checks
from bastion.policy.rules import RuleMatcher, compile_matcher
from bastion.policy.settings import AuditConfig, LimitsConfig, McpServerArgs, SecondOpinionConfig

if TYPE_CHECKING:
    from bastion.policy.model import PolicyFile, RuleSpec
    from bastion.shell.patterns import CommandPattern


@dataclass(frozen=True, slots=True)
class Layer:
    """One policy file as parsed (``path`` None for the built-in defaults)."""

    path: str | None
    spec: PolicyFile
    trusted: bool
    locator: KeyLocator | None = None
    base_dir: str | None = None  # where relative entries anchor when there is no file

    @property
    def base(self) -> str:
        """Relative roots and globs are anchored at the file's folder; for a project file
        ``PROJECT/.bastion/policy.toml`` that is the project folder."""
        if self.base_dir is not None or self.path is None:
            return self.base_dir or os.getcwd()
        folder = os.path.dirname(os.path.abspath(self.path))
        return os.path.dirname(folder) if os.path.basename(folder) == ".bastion" else folder

    @property
    def name(self) -> str:
        if self.path is None:
            return "<policy>" if self.locator else "built-in"
        return self.path

    def where(self, *loc: str | int) -> str:
        if self.locator is None:
            return self.name
        line = self.locator.line_of(loc)
        return f"{self.name}:{line}" if line else self.name


@dataclass(frozen=True, slots=True)
class Pattern:
    """A ``[commands]`` entry, compiled, with where it was written."""

    text: str
    source: str
    command: CommandPattern


@dataclass(frozen=True, slots=True)
class Rule:
    index: int  # 1-based position among all [[rule]]s
    tool: str
    pattern: str | None
    action: str
    reason: str
    source: str
    matcher: RuleMatcher
    base: str  # folder relative examples and globs anchor at
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()
    args: dict[str, str] | None = None  # mcp only: argument key → glob on its value

    @property
    def rule_id(self) -> str:
        return f"rule[{self.index}]"


@dataclass(frozen=True, slots=True)
class Ceiling:
    approval: str
    filesystem: str
    network: str
    source: str

    def as_tuple(self) -> tuple[str, str, str]:
        return (self.approval, self.filesystem, self.network)

    def looser_than(self, other: Ceiling) -> bool:
        """True when any dimension of self is more permissive than other's."""
        from bastion.policy.model import APPROVAL_ORDER, FILESYSTEM_ORDER, NETWORK_ORDER

        return (
            APPROVAL_ORDER[self.approval] > APPROVAL_ORDER[other.approval]
            or FILESYSTEM_ORDER[self.filesystem] > FILESYSTEM_ORDER[other.filesystem]
            or NETWORK_ORDER[self.network] > NETWORK_ORDER[other.network]
        )


@dataclass(frozen=True, slots=True)
class Policy:
    mode: str
    mode_source: str
    workspace: tuple[str, ...]  # absolute roots, read-write
    read_roots: tuple[str, ...]  # workspace + trusted roots
    write_roots: tuple[str, ...]  # workspace + rw trusted roots
    credentials_dir: str
    state_dir: str
    home: str
    interactive_default: str
    non_interactive_default: str
    approval_source: str
    ttl_seconds: float
    allow_read: GlobSet
    deny_read: GlobSet
    allow_write: GlobSet
    deny_write: GlobSet
    command_allow: tuple[Pattern, ...]
    command_deny: tuple[Pattern, ...]
    network: NetworkRules
    rules: tuple[Rule, ...]
    ceiling: Ceiling | None
    hardline: Hardline
    path_checks: PathChecks
    exec: ExecConfig
    limits: LimitsConfig
    audit: AuditConfig
    ask_via: str  # "agent": hooks hand an ASK to the agent's own prompt; "bastion": park it
    gateway: dict[str, Any]  # the [gateway] table as given (bastion.adapters.http.settings)
    mcp_servers: dict[str, McpServerArgs]  # [mcp.servers.NAME]: argument keys to check
    state_url: str | None  # shared PostgreSQL state (BASTION_STATE_URL overrides); None: SQLite
    sources: tuple[str, ...]  # policy files applied, in order
    warnings: tuple[str, ...] = field(default=())
    #: ``enforce = false`` (shadow mode): calls are decided and recorded, and allowed; see
    #: bastion.policy.shadow. Only a trusted layer may turn enforcement off.
    enforce: bool = True
    enforce_source: str = "built-in"
    #: ``[second_opinion]``: the escalate-only checker (bastion.opinion); None: no checker.
    second_opinion: SecondOpinionConfig | None = None


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


def compile_policy(layers: list[Layer], *, cwd: str, home: str, state_dir: str) -> Policy:
    """Merge the layers in order into one immutable Policy."""
    # Imported here: the schema pulls in pydantic, which a cached Policy never needs.
    from bastion.policy.model import MODE_ORDER, PathsSection, TrustedRoot, parse_duration

    mode, mode_source = "workspace", "built-in"
    workspace: tuple[str, ...] = (os.path.normpath(cwd),)
    trusted_ro: list[str] = []
    trusted_rw: list[str] = []
    credentials_dir = _abs_root("~/.bastion/credentials", cwd, home)
    interactive_default, non_interactive_default, ttl = "ask", "deny", parse_duration("5m")
    approval_source = "built-in"
    globs: dict[str, list[Glob]] = {k: [] for k in ("allow_read", "deny_read", "allow_write", "deny_write")}
    command_allow: list[Pattern] = []
    command_deny: list[Pattern] = []
    allow_hosts: list[str] = []
    deny_hosts: list[str] = []
    allow_private = False
    network_source = "built-in"
    rules: list[Rule] = []
    ceiling: Ceiling | None = None
    exec_config = ExecConfig()
    limits = LimitsConfig()
    audit = AuditConfig()
    ask_via = "agent"
    gateway: dict[str, Any] = {}
    mcp_servers: dict[str, McpServerArgs] = {}
    state_url: str | None = None
    enforce, enforce_source = True, "built-in"
    second_opinion: SecondOpinionConfig | None = None
    warnings: list[str] = []
    sources: list[str] = []

    for layer in layers:
        spec, trusted = layer.spec, layer.trusted
        name = layer.name
        if layer.path:
            sources.append(layer.path)

        def dropped(what: str, layer: Layer = layer) -> None:
            warnings.append(
                f"{layer.path}: untrusted project policy may only tighten; ignored {what} "
                f"(run 'bastion policy trust {layer.path}' to accept it)"
            )

        if spec.mode is not None:
            if trusted or MODE_ORDER[spec.mode] < MODE_ORDER[mode]:
                mode, mode_source = spec.mode, layer.where("mode")
            elif spec.mode != mode:
                dropped(f"mode = {spec.mode!r}")
        if spec.workspace is not None:
            if trusted:
                workspace = tuple(_abs_root(p, layer.base, home) for p in spec.workspace)
            else:
                dropped("workspace")
        for root in spec.trusted_roots:
            entry = root if isinstance(root, TrustedRoot) else TrustedRoot(path=root)
            if not trusted:
                dropped(f"trusted_roots entry {entry.path!r}")
                continue
            (trusted_rw if entry.rw else trusted_ro).append(_abs_root(entry.path, layer.base, home))
        if spec.credentials_dir is not None:
            if trusted:
                credentials_dir = _abs_root(spec.credentials_dir, layer.base, home)
            else:
                dropped("credentials_dir")
        if spec.approval is not None:
            a = spec.approval
            new_ttl = parse_duration(a.ttl)
            if trusted:
                interactive_default, non_interactive_default, ttl = (
                    a.interactive_default,
                    a.non_interactive_default,
                    new_ttl,
                )
            else:
                # deny is stricter than ask; a shorter wait is stricter than a longer one.
                if a.interactive_default == "deny":
                    interactive_default = "deny"
                if a.non_interactive_default == "deny":
                    non_interactive_default = "deny"
                ttl = min(ttl, new_ttl)
            approval_source = layer.where("approval")
        paths = spec.paths if spec.paths is not None else (PathsSection() if layer.path is None else None)
        if paths is not None:
            for key in ("deny_read", "deny_write"):
                globs[key] += _globs(layer, key, getattr(paths, key), home)
            for key in ("allow_read", "allow_write"):
                if getattr(paths, key) and not trusted:
                    dropped(f"paths.{key}")
                    continue
                globs[key] += _globs(layer, key, getattr(paths, key), home)
        if spec.commands is not None:
            command_deny += _commands(layer, "deny", spec.commands.deny)
            if spec.commands.allow and not trusted:
                dropped("commands.allow")
            else:
                command_allow += _commands(layer, "allow", spec.commands.allow)
        if spec.network is not None:
            net = spec.network
            for key, items in (("deny_hosts", net.deny_hosts), ("allow_hosts", net.allow_hosts)):
                for host in items:
                    error = host_pattern_error(host)
                    if error:
                        raise PolicyError(
                            error, file=name, line=_line(layer, "network", key), key=f"network.{key}"
                        )
            deny_hosts += net.deny_hosts
            if trusted:
                allow_hosts += net.allow_hosts
                allow_private = net.allow_private
                network_source = layer.where("network")
            else:
                if net.allow_hosts:
                    dropped("network.allow_hosts")
                if net.allow_private:
                    dropped("network.allow_private")
        for index, spec_rule in enumerate(spec.rule):
            rule = _rule(spec_rule, len(rules) + 1, layer, index, home)
            if not trusted and rule.action in ("allow", "classify"):
                dropped(f"{rule.rule_id} (action = {rule.action!r})")
                continue
            rules.append(rule)
        if spec.ceiling is not None:
            ceiling = tighten.merge_ceiling(ceiling, spec.ceiling, layer.where("ceiling"))
        if spec.limits is not None:
            limits = tighten.limits(spec.limits, layer, limits, trusted)
        if spec.audit is not None:
            if trusted or not spec.audit.store_raw_arguments:
                audit = AuditConfig(store_raw_arguments=spec.audit.store_raw_arguments)
            else:
                dropped("audit.store_raw_arguments")
        if spec.ask_via is not None:
            if trusted:
                ask_via = spec.ask_via
            elif spec.ask_via != ask_via:
                dropped(f"ask_via = {spec.ask_via!r}")
        if spec.mcp is not None:  # only adds checks: any layer may set it
            for name, server in spec.mcp.servers.items():
                known = mcp_servers.get(name, McpServerArgs())
                mcp_servers[name] = McpServerArgs(
                    paths=tuple(dict.fromkeys((*known.paths, *server.paths))),
                    urls=tuple(dict.fromkeys((*known.urls, *server.urls))),
                )
        if spec.state_url is not None:
            # A cloned repo must not point approvals at a database its author controls.
            if trusted:
                state_url = spec.state_url
            else:
                dropped("state_url")
        if spec.enforce is not None:  # shadow mode loosens everything: a trusted layer only
            if trusted or spec.enforce:
                enforce, enforce_source = spec.enforce, layer.where("enforce")
            else:
                dropped("enforce = false")
        if spec.second_opinion is not None:  # it runs a command or posts calls: trusted only
            from bastion.policy.opinion_settings import second_opinion_config

            if trusted:
                second_opinion = second_opinion_config(spec.second_opinion, layer)
            else:
                dropped("[second_opinion] (it runs a command or sends calls to a URL)")
        if spec.gateway is not None:
            table = spec.gateway.model_dump()
            if trusted or tighten.tighter_gateway(table, gateway):
                gateway = table
            else:
                dropped("[gateway] (it loosens a limit or adds an origin)")
        if spec.exec is not None:
            candidate = tighten.exec_config(spec.exec, layer)
            if trusted or tighten.tighter_exec(candidate, exec_config):
                exec_config = candidate
            else:
                dropped("[exec] (it loosens a limit, a variable or a secret)")

    hardline = Hardline.build(
        home=home,
        credentials_dir=credentials_dir,
        policy_files=tuple(os.path.abspath(s) for s in sources),
        state_dir=state_dir,
    )
    deny_read, deny_write = GlobSet.of(globs["deny_read"]), GlobSet.of(globs["deny_write"])
    read_roots = tuple(dict.fromkeys((*workspace, *trusted_ro, *trusted_rw)))
    write_roots = tuple(dict.fromkeys((*workspace, *trusted_rw)))
    return Policy(
        mode=mode,
        mode_source=mode_source,
        workspace=workspace,
        read_roots=read_roots,
        write_roots=write_roots,
        credentials_dir=credentials_dir,
        state_dir=state_dir,
        home=home,
        interactive_default=interactive_default,
        non_interactive_default=non_interactive_default,
        approval_source=approval_source,
        ttl_seconds=ttl,
        allow_read=GlobSet.of(globs["allow_read"]),
        deny_read=deny_read,
        allow_write=GlobSet.of(globs["allow_write"]),
        deny_write=deny_write,
        command_allow=tuple(command_allow),
        command_deny=tuple(command_deny),
        network=NetworkRules(
            allow_hosts=tuple(allow_hosts),
            deny_hosts=tuple(deny_hosts),
            allow_private=allow_private,
            source=network_source,
        ),
        rules=tuple(rules),
        ceiling=ceiling,
        hardline=hardline,
        path_checks=build_path_checks(hardline, deny_read, deny_write),
        exec=exec_config,
        limits=limits,
        audit=audit,
        ask_via=ask_via,
        gateway=gateway,
        mcp_servers=mcp_servers,
        state_url=state_url,
        sources=tuple(sources),
        warnings=tuple(warnings),
        enforce=enforce,
        enforce_source=enforce_source,
        second_opinion=second_opinion,
    )


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
        action=spec.action,
        reason=spec.reason,
        source=layer.where("rule", index),
        matcher=matcher,
        base=layer.base,
        match=spec.match,
        not_match=spec.not_match,
        args=dict(spec.args) if spec.args else None,
    )
