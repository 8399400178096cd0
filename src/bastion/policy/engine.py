"""The one decision engine: ``Gate.evaluate(call) -> Evaluation``.

Order, fixed: (1) hardline built-ins, (2) the policy's deny lists, (3) its allow lists then
its ordered ``[[rule]]``s (the last matching rule overrides), (4) the mode's default,
(5) the approval default (ask when interactive, deny when not). The mode's hard limits and
the ``[ceiling]`` cap the result last; any exception becomes a DENY.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bastion.call.model import CODE_LANGUAGES, DB_OPERATIONS, Family, ToolCall
from bastion.errors import CallError
from bastion.policy.compiled import Policy, Rule
from bastion.policy.decision import Decision, Effect, Evaluation, Reason, deny_for_error
from bastion.policy.network import Resolver, decide_target
from bastion.policy.paths import FileSystem, OsFileSystem, PathVerdict, check_path, inside_write_roots
from bastion.policy.rules import PATH_FAMILIES
from bastion.policy.tree import OsTree, Tree
from bastion.policy.verdict import Assembly, Subject

if TYPE_CHECKING:
    from bastion.runtime import PermissionCallback
    from bastion.shell.model import ShellAnalysis

WRITE_EFFECTS = frozenset({Effect.WRITE, Effect.DELETE, Effect.INSTALL, Effect.DB_WRITE, Effect.DB_DELETE})


class Gate:
    """Decides tool calls against one immutable Policy. Thread-safe: holds no mutable state."""

    def __init__(
        self,
        policy: Policy,
        *,
        fs: FileSystem | None = None,
        resolver: Resolver | None = None,
        sandboxed: bool = False,
        tree: Tree | None = None,
    ) -> None:
        self.policy = policy
        self.fs: FileSystem = fs or OsFileSystem()
        #: Listings and small reads for what a shell command reaches (globs, recursion, git).
        self.tree: Tree = tree or OsTree()
        self.resolver = resolver
        #: Will allowed code run inside the OS sandbox? Unsandboxed code always asks.
        self.sandboxed = sandboxed
        # A parse is a pure function of the command text, and agents repeat commands: keep
        # recent ones (per gate, bounded, thread-safe). Paths and hosts are re-checked each time.
        self.analyze_shell = functools.lru_cache(maxsize=1024)(_analyze)
        self._ask_default = Reason(
            Decision.parse(policy.interactive_default),
            "approval.interactive_default",
            policy.approval_source,
            "",
            "no rule decided this call; a person decides",
        )
        self._unattended_default = Reason(
            Decision.parse(policy.non_interactive_default),
            "approval.non_interactive_default",
            policy.approval_source,
            "",
            "no rule decided this call and nobody can be asked",
        )

    def evaluate(self, call: ToolCall) -> Evaluation:
        """Decide ``call``. Never raises: an error is a DENY carrying the error as reason."""
        return self._safe(call, trace=False)

    def explain(self, call: ToolCall) -> Evaluation:
        """Like ``evaluate``, with ``Evaluation.trace`` filled with every stage."""
        return self._safe(call, trace=True)

    async def request(
        self,
        call: ToolCall,
        *,
        timeout: float | None = None,
        on_permission: PermissionCallback | None = None,
    ) -> Evaluation:
        """Decide, and on ASK park the call until a person (or ``on_permission``) answers;
        nobody answering is a denial. Every request and resolution goes to the ledger.

        The I/O lives in ``bastion.runtime.Gatekeeper`` (stores, ledger, clock); this opens
        one over this gate for the call. Hold a Gatekeeper yourself to reuse it."""
        from bastion.construct import open_gatekeeper

        with open_gatekeeper(self.policy, gate=self, on_permission=on_permission) as keeper:
            return await keeper.request(call, timeout=timeout)

    def _safe(self, call: ToolCall, *, trace: bool) -> Evaluation:
        try:
            return self._evaluate(call, trace)
        except CallError as exc:
            return deny_for_error(str(exc), rule="call.invalid")
        except Exception as exc:  # fail closed: an engine error is never an allow
            return deny_for_error(exc)

    # -- orchestration -------------------------------------------------------------------

    def _evaluate(self, call: ToolCall, trace: bool) -> Evaluation:
        policy = self.policy
        family = call.family
        if family is None:
            return deny_for_error(f"unknown tool family {call.tool!r}", rule="call.unknown-family")
        default = self._ask_default if call.interactive else self._unattended_default
        out = Assembly(approval_default=default, trace=[] if trace else None)
        if out.trace is not None:
            files = ", ".join(policy.sources) or "built-in defaults only"
            out.trace.append(f"policy: mode {policy.mode} ({policy.mode_source}); files: {files}")
            out.trace.extend(f"warning: {w}" for w in policy.warnings)
        handler = _HANDLERS[family]
        handler(self, call, out)
        self._apply_ceiling(out)
        return out.finish()

    def _apply_ceiling(self, out: Assembly) -> None:
        ceiling = self.policy.ceiling
        if ceiling is None:
            return
        effects = set().union(*(s.effects for s in out.subjects)) if out.subjects else set()
        if ceiling.network == "denied" and Effect.NETWORK in effects:
            out.caps.append(
                Reason(
                    Decision.DENY,
                    "ceiling.network",
                    ceiling.source,
                    "network",
                    "the ceiling denies all network access",
                )
            )
        if ceiling.filesystem == "read_only" and effects & (WRITE_EFFECTS | {Effect.UNKNOWN}):
            out.caps.append(
                Reason(
                    Decision.DENY,
                    "ceiling.filesystem",
                    ceiling.source,
                    "read_only",
                    "the ceiling allows no writes",
                )
            )
        if ceiling.approval == "ask_every_action":
            out.ask_every_action = Reason(
                Decision.ASK,
                "ceiling.approval",
                ceiling.source,
                "ask_every_action",
                "the ceiling asks before every action",
            )

    def ceiling_write_check(self, out: Assembly, verdict: PathVerdict) -> None:
        ceiling = self.policy.ceiling
        if (
            ceiling is not None
            and ceiling.filesystem == "workspace_write"
            and not (verdict.decision is not Decision.DENY and inside_write_roots(self.policy, verdict))
        ):
            out.caps.append(
                Reason(
                    Decision.DENY,
                    "ceiling.filesystem",
                    ceiling.source,
                    verdict.lexical,
                    f"the ceiling allows writes only inside the "
                    f"workspace roots; {verdict.lexical} is outside",
                )
            )

    # -- shared stages -------------------------------------------------------------------

    def last_rule(self, family: Family, test: Callable[[Rule], bool]) -> Rule | None:
        found = None
        for rule in self.policy.rules:
            if rule.matcher.family is family and test(rule):
                found = rule
        return found

    def rule_reason(self, rule: Rule, matched: str, *, decision: Decision | None = None) -> Reason:
        action = decision if decision is not None else Decision.parse(rule.action)
        message = rule.reason or f"{rule.rule_id} ({rule.action}) matched {matched}"
        return Reason(action, rule.rule_id, rule.source, matched, message)

    def mode_block(self, what: str) -> Reason:
        return Reason(
            Decision.DENY,
            f"mode.{self.policy.mode}",
            self.policy.mode_source,
            what,
            f"{what} is not allowed in {self.policy.mode} mode",
        )

    def path_subject(
        self, out: Assembly, family: Family, path: str, *, write: bool, cwd: str, label: str
    ) -> tuple[Subject, PathVerdict]:
        verdict = check_path(self.policy, path, write=write, cwd=cwd, fs=self.fs)
        subject = out.add(Subject(label=f"{label} {verdict.lexical}", effects=set(verdict.effects)))
        if verdict.decision in (Decision.DENY, Decision.ASK):
            subject.hard.extend(verdict.reasons)
        elif verdict.decision is Decision.ALLOW:
            subject.notes.extend(r.message for r in verdict.reasons)
        if write:  # a repository's core.hooksPath folder is agent configuration too
            from bastion.policy.git_hooks import hooks_write_reason
            from bastion.policy.treewalk import Reach

            hooks = hooks_write_reason(self.policy, Reach(self.tree, self.fs.resolve), verdict)
            if hooks is not None:
                subject.hard.append(hooks)
                subject.effects.add(Effect.SELF)
        spellings = {verdict.lexical, verdict.resolved}
        rule = self.last_rule(
            family,
            lambda r: (all if r.action == "allow" else any)(r.matcher.matches_path(p) for p in spellings),
        )
        if rule is not None:
            subject.override = self.rule_reason(rule, verdict.lexical)
        if write and self.policy.mode == "read-only":
            out.caps.append(self.mode_block(f"writing {verdict.lexical}"))
        if write:
            self.ceiling_write_check(out, verdict)
        if verdict.decision is Decision.ALLOW:
            subject.mode = verdict.reasons[0]
        elif self.policy.mode == "full-access":
            subject.mode = Reason(
                Decision.ALLOW,
                "mode.full-access",
                self.policy.mode_source,
                verdict.lexical,
                f"full-access allows what is not denied ({verdict.lexical})",
            )
        else:
            subject.notes.extend(r.message for r in verdict.reasons)
            subject.unmet.extend(verdict.reasons)  # outside every root: says which path
        return subject, verdict


# -- family handlers ------------------------------------------------------------------------


def _path_family(gate: Gate, call: ToolCall, out: Assembly) -> None:
    family = call.family
    assert family is not None
    write = family in (Family.WRITE, Family.EDIT)
    path = call.args.get("path")
    if path is None and family in (Family.LIST, Family.GLOB, Family.GREP):
        path = "."
    if not isinstance(path, str) or not path:
        raise CallError(f"{family.value}: argument 'path' must be a non-empty string")
    gate.path_subject(out, family, path, write=write, cwd=call.cwd, label=family.value)


def _fetch(gate: Gate, call: ToolCall, out: Assembly) -> None:
    url = call.require_str("url")
    policy = gate.policy
    decision, reasons, target = decide_target(url, policy.network, gate.resolver)
    subject = out.add(Subject(label=f"fetch {url[:200]}", effects={Effect.NETWORK}))
    if decision is Decision.DENY:
        subject.hard.extend(reasons)
        return
    host = target.host if target else ""
    rule = gate.last_rule(Family.FETCH, lambda r: r.matcher.matches_host(target))
    if decision is Decision.ALLOW:
        subject.override = reasons[0]
    else:
        subject.unmet.extend(reasons)  # the host not in allow_hosts, for the leading reason
    if rule is not None:
        subject.override = gate.rule_reason(rule, host)
    if policy.mode == "full-access":
        subject.mode = Reason(
            Decision.ALLOW,
            "mode.full-access",
            policy.mode_source,
            host,
            "full-access allows what is not denied",
        )
    elif policy.mode == "read-only":
        subject.mode = gate.mode_block(f"network access to {host} (not in allow_hosts)")
    subject.notes.extend(r.message for r in reasons)


def _code(gate: Gate, call: ToolCall, out: Assembly) -> None:
    language = call.require_str("language")
    if language not in CODE_LANGUAGES:
        raise CallError(f"code: language must be one of {', '.join(sorted(CODE_LANGUAGES))}")
    if not isinstance(call.args.get("source"), str):
        raise CallError("code: argument 'source' must be a string")
    timeout = call.args.get("timeout", 30)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not (math.isfinite(timeout) and timeout > 0)
    ):
        raise CallError("code: 'timeout' must be a positive number of seconds")
    policy = gate.policy
    subject = out.add(Subject(label=f"code {language}", effects={Effect.CODE}))
    rule = gate.last_rule(Family.CODE, lambda r: r.matcher.matches_words(language))
    if rule is not None:
        subject.override = gate.rule_reason(rule, language)
    if policy.mode == "read-only":
        out.caps.append(gate.mode_block("running code"))
    elif gate.sandboxed:
        subject.mode = Reason(
            Decision.ALLOW,
            f"mode.{policy.mode}",
            policy.mode_source,
            language,
            "code runs inside the OS sandbox",
        )
    else:
        subject.hard.append(
            Reason(
                Decision.ASK,
                "code.unsandboxed",
                "built-in",
                language,
                "no OS sandbox is available: running code needs a person",
            )
        )


def _install(gate: Gate, call: ToolCall, out: Assembly) -> None:
    manager = call.require_str("manager")
    packages = call.args.get("packages")
    if isinstance(packages, str):
        packages = (packages,)
    if not isinstance(packages, tuple) or not packages or not all(isinstance(p, str) and p for p in packages):
        raise CallError("install: 'packages' must be a non-empty list of package names")
    install_subject(gate, out, call, manager, tuple(packages), label=f"install {manager}")


def install_subject(
    gate: Gate, out: Assembly, call: ToolCall, manager: str, packages: tuple[str, ...], *, label: str
) -> Subject:
    """Installs ask in every mode unless a rule names the manager and every package."""
    subject = out.add(Subject(label=f"{label} {' '.join(packages)}"[:300], effects={Effect.INSTALL}))
    rule = gate.last_rule(
        Family.INSTALL, lambda r: all(r.matcher.matches_words(manager, p) for p in packages)
    )
    if rule is not None:
        subject.override = gate.rule_reason(rule, f"{manager} {' '.join(packages)}")
    if gate.policy.mode == "read-only":
        out.caps.append(gate.mode_block("installing packages"))
    elif call.interactive:
        subject.mode = Reason(
            Decision.ASK,
            "install.confirm",
            "built-in",
            manager,
            "installing packages changes the machine: a person confirms",
        )
    else:
        subject.mode = Reason(
            Decision.DENY,
            "install.non-interactive",
            "built-in",
            manager,
            "installing packages needs a person, and nobody can be asked",
        )
    return subject


def _db(gate: Gate, call: ToolCall, out: Assembly) -> None:
    operation = call.require_str("operation")
    if operation not in DB_OPERATIONS:
        raise CallError("db: 'operation' must be read, write or delete")
    target = call.args.get("target", "")
    if not isinstance(target, str):
        raise CallError("db: 'target' must be a string")
    policy = gate.policy
    effect = {"read": Effect.DB_READ, "write": Effect.DB_WRITE, "delete": Effect.DB_DELETE}[operation]
    subject = out.add(Subject(label=f"db {operation} {target}"[:300], effects={effect}))
    rule = gate.last_rule(Family.DB, lambda r: r.matcher.matches_words(operation, target or "-"))
    if rule is not None:
        subject.override = gate.rule_reason(rule, f"{operation} {target}")
    if operation != "read" and policy.mode == "read-only":
        out.caps.append(gate.mode_block(f"database {operation}"))
    elif operation == "delete":
        subject.hard.append(
            Reason(
                Decision.ASK,
                "db.delete",
                "built-in",
                target,
                "deleting data is destructive: a person confirms",
            )
        )
    else:
        subject.mode = Reason(
            Decision.ALLOW,
            f"mode.{policy.mode}",
            policy.mode_source,
            operation,
            f"database {operation} is allowed in {policy.mode} mode",
        )


def _mcp(gate: Gate, call: ToolCall, out: Assembly) -> None:
    server = call.require_str("server")
    tool = call.require_str("tool")
    arguments = call.args.get("arguments", {})
    annotations = call.args.get("annotations") or {}
    if not hasattr(arguments, "get") or not hasattr(annotations, "get"):
        raise CallError("mcp: 'arguments' and 'annotations' must be objects")
    policy = gate.policy
    name = f"{server}/{tool}"
    subject = out.add(Subject(label=f"mcp {name}", effects={Effect.MCP}))
    # The last rule matching SERVER/TOOL *and* its per-argument conditions decides; mapped
    # path and URL arguments become subjects of their own.
    from bastion.policy.mcp_args import decide_mcp_extras

    decide_mcp_extras(gate, call, out, subject)
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
    if policy.mode == "read-only":
        subject.mode = gate.mode_block(f"MCP tool {name}")
    elif policy.mode == "full-access":
        subject.mode = Reason(
            Decision.ALLOW,
            "mode.full-access",
            policy.mode_source,
            name,
            "full-access allows what is not denied",
        )


def _analyze(command: str) -> ShellAnalysis:
    from bastion.shell import analyze

    return analyze(command)


def _shell(gate: Gate, call: ToolCall, out: Assembly) -> None:
    from bastion.policy.shell_policy import decide_shell

    decide_shell(gate, call, out)


_HANDLERS: dict[Family, Callable[[Gate, ToolCall, Assembly], Any]] = {
    **{family: _path_family for family in PATH_FAMILIES},
    Family.FETCH: _fetch,
    Family.CODE: _code,
    Family.INSTALL: _install,
    Family.DB: _db,
    Family.MCP: _mcp,
    Family.SHELL: _shell,
}
