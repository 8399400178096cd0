"""The one decision engine: ``Gate.evaluate(call) -> Evaluation``.

Order, fixed: (1) hardline built-ins, (2) the policy's deny lists, (3) its allow lists then
its ordered ``[[rule]]``s (the last matching rule overrides), (4) the mode's default,
(5) the approval default (ask when interactive, deny when not). The mode's hard limits and
the ``[ceiling]`` cap the result last; any exception becomes a DENY.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import CallError
from bastion.policy.agent_tools import decide_agent
from bastion.policy.ceiling import ApprovalLevel, FilesystemLevel, NetworkLevel
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Evaluation, Reason, deny_for_error
from bastion.policy.kinds import Mode
from bastion.policy.mcp_args import decide_mcp
from bastion.policy.network import Resolver
from bastion.policy.paths import CallFs, FileSystem, OsFileSystem
from bastion.policy.replay import SEEN, Recorded, Recording, RecordingResolver, Replays, call_key
from bastion.policy.rules import PATH_FAMILIES
from bastion.policy.stages import WRITE_EFFECTS, Context, ask_before_edit, mode_block
from bastion.policy.tool_families import decide_code, decide_db, decide_fetch, decide_install, decide_path
from bastion.policy.tree import OsTree, Tree
from bastion.policy.verdict import Assembly, after_specific

if TYPE_CHECKING:
    from bastion.shell.model import ShellAnalysis


class Gate:
    """Decides tool calls against one immutable Policy. Thread-safe: its only mutable state
    is two bounded caches behind locks (parses, and recorded shell calls: ``replay``)."""

    def __init__(
        self,
        policy: Policy,
        *,
        fs: FileSystem | None = None,
        resolver: Resolver | None = None,
        sandboxed: bool = False,
        tree: Tree | None = None,
        replay: bool = True,
        contained: bool = False,
    ) -> None:
        self.policy = policy
        self.fs: FileSystem = fs or OsFileSystem()
        #: Listings and small reads for what a shell command reaches (globs, recursion, git).
        self.tree: Tree = tree or OsTree()
        self.resolver = resolver
        #: Will allowed code run inside the OS sandbox? Unsandboxed code always asks.
        self.sandboxed = sandboxed
        #: Will an allowed shell call run contained (the entry point runs the answer's
        #: profile)? Then workspace code is allowed (``bastion.policy.contained_code``).
        self.contained = contained
        # A parse is a pure function of the command text, and agents repeat commands: keep
        # recent ones (per gate, bounded, thread-safe). Paths and hosts are re-checked each time.
        self.analyze_shell = functools.lru_cache(maxsize=1024)(_analyze)
        # A repeated shell call is answered again only when the file system answers every
        # question it asked as before (``replay``); False decides every call afresh.
        self.replays: Replays | None = Replays() if replay else None
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
        # Each default as it follows a specific reason, made once instead of once per subject.
        self._ask_after = after_specific(self._ask_default)
        self._unattended_after = after_specific(self._unattended_default)
        #: The shell decider, bound on the first shell call (its import loads the classifier).
        self._decide_shell: Callable[[Context, ToolCall, Assembly], None] | None = None

    def over(self, policy: Policy) -> Gate:
        """A gate with this one's choices (file system, tree, resolver, sandbox) over another
        policy: a delegated child's narrower ceiling decides with what its parent's gate chose."""
        return Gate(
            policy,
            fs=self.fs,
            resolver=self.resolver,
            sandboxed=self.sandboxed,
            tree=self.tree,
            replay=self.replays is not None,
            contained=self.contained,
        )

    @property
    def context(self) -> Context:
        """What the deciders read, taken afresh per call (a test may swap ``fs``)."""
        return Context(
            self.policy, self.fs, self.tree, self.resolver, self.sandboxed, self.analyze_shell, self.contained
        )

    def evaluate(self, call: ToolCall) -> Evaluation:
        """Decide ``call``. Never raises: an error is a DENY carrying the error as reason."""
        return self._safe(call, trace=False)

    def explain(self, call: ToolCall) -> Evaluation:
        """Like ``evaluate``, with ``Evaluation.trace`` filled with every stage."""
        return self._safe(call, trace=True)

    def _safe(self, call: ToolCall, *, trace: bool) -> Evaluation:
        try:
            return self._evaluate(call, trace)
        except CallError as exc:
            return deny_for_error(str(exc), rule="call.invalid")
        except Exception as exc:  # fail closed: an engine error is never an allow
            return deny_for_error(exc)

    # -- orchestration -------------------------------------------------------------------

    def _evaluate(self, call: ToolCall, trace: bool) -> Evaluation:
        family = call.family
        if family is None:
            return deny_for_error(f"unknown tool family {call.tool!r}", rule="call.unknown-family")
        if family is Family.SHELL and not trace and self.replays is not None:
            return self._shell_replayed(call, self.replays)
        out = self._assembly(call, trace)
        if family is Family.SHELL:
            self._shell_into(out, call, self.fs, self.tree, self.resolver)
        else:
            _DECIDERS[family](self.context, call, out)
        return self._finish(out)

    def _assembly(self, call: ToolCall, trace: bool) -> Assembly:
        if call.interactive:
            default, after = self._ask_default, self._ask_after
        else:
            default, after = self._unattended_default, self._unattended_after
        out = Assembly(approval_default=default, trace=[] if trace else None, after_default=after)
        if out.trace is not None:
            policy = self.policy
            files = ", ".join(policy.sources) or "built-in defaults only"
            out.trace.append(f"policy: mode {policy.mode} ({policy.mode_source}); files: {files}")
            out.trace.extend(f"warning: {w}" for w in policy.warnings)
        return out

    def _finish(self, out: Assembly) -> Evaluation:
        if self.policy.ceiling is not None:
            self._apply_ceiling(out)
        if self.policy.mode is Mode.ASK_BEFORE_EDIT and out.ask_every_action is None:
            out.ask_every_action = ask_before_edit(self.policy, out)
        return out.finish()

    def _shell_into(
        self, out: Assembly, call: ToolCall, fs: FileSystem, tree: Tree, resolver: Resolver | None
    ) -> None:
        # The shell decider resolves paths through one memo for this call only (CallFs).
        policy = self.policy
        ctx = Context(
            policy,
            CallFs(fs, policy, tree),
            tree,
            resolver,
            self.sandboxed,
            self.analyze_shell,
            self.contained,
        )
        decide = self._decide_shell
        if decide is None:  # imported on the first shell call (see _shell)
            decide = self._decide_shell = _shell_decider()
        decide(ctx, call, out)
        if policy.mode is Mode.READ_ONLY and not policy.shell_in_read_only:
            out.caps.append(mode_block(policy, "a shell command (shell_in_read_only = false)"))

    def _shell_replayed(self, call: ToolCall, replays: Replays) -> Evaluation:
        """The recorded Evaluation when every file-system answer is as it was; otherwise
        decided afresh, through ports that record what it asks (``replay``)."""
        fs, tree, resolver = self.fs, self.tree, self.resolver
        gate = (fs, tree, resolver, self.policy, self.sandboxed, self.analyze_shell, self.contained)
        key = call_key(call)
        known = replays.get(key) if key is not None else None
        if isinstance(known, Recorded) and known.still(fs, tree, gate):
            return known.evaluation
        out = self._assembly(call, False)
        if key is None or known is None:  # the first sighting: decided, only remembered
            if key is not None:
                replays.put(key, SEEN)
            self._shell_into(out, call, fs, tree, resolver)
            return self._finish(out)
        log = Recording(fs, tree, resolver)
        self._shell_into(out, call, log, log, RecordingResolver(log) if resolver is not None else None)
        evaluation = self._finish(out)
        if log.keep():
            replays.put(key, Recorded(tuple(log.answers), evaluation, gate))
        return evaluation

    def _apply_ceiling(self, out: Assembly) -> None:
        ceiling = self.policy.ceiling
        if ceiling is None:
            return
        effects = set().union(*(s.effects for s in out.subjects)) if out.subjects else set()
        if ceiling.network is NetworkLevel.DENIED and Effect.NETWORK in effects:
            out.caps.append(
                Reason(
                    Decision.DENY,
                    "ceiling.network",
                    self.policy.ceiling_source,
                    "network",
                    "the ceiling denies all network access",
                )
            )
        if ceiling.filesystem is FilesystemLevel.READ_ONLY and effects & (WRITE_EFFECTS | {Effect.UNKNOWN}):
            out.caps.append(
                Reason(
                    Decision.DENY,
                    "ceiling.filesystem",
                    self.policy.ceiling_source,
                    "read_only",
                    "the ceiling allows no writes",
                )
            )
        if ceiling.approval is ApprovalLevel.ASK_EVERY_ACTION:
            out.ask_every_action = Reason(
                Decision.ASK,
                "ceiling.approval",
                self.policy.ceiling_source,
                "ask_every_action",
                "the ceiling asks before every action",
            )


# The shell classifier loads its program tables on import (a large share of a hook's start):
# only a shell call pays for it.
def _analyze(command: str) -> ShellAnalysis:
    from bastion.shell.analysis import analyze

    return analyze(command)


def _shell_decider() -> Callable[[Context, ToolCall, Assembly], None]:
    from bastion.policy.shell_policy import decide_shell

    return decide_shell


def _shell(ctx: Context, call: ToolCall, out: Assembly) -> None:
    _shell_decider()(ctx, call, out)


#: The dispatch: one decider per family, each reading only the context (``stages``).
_DECIDERS: dict[Family, Callable[[Context, ToolCall, Assembly], Any]] = {
    **{family: decide_path for family in PATH_FAMILIES},
    Family.FETCH: decide_fetch,
    Family.CODE: decide_code,
    Family.INSTALL: decide_install,
    Family.DB: decide_db,
    Family.MCP: decide_mcp,
    Family.SHELL: _shell,
    Family.AGENT: decide_agent,
}
