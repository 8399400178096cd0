"""The shape of one agent's record: plain frozen values, no I/O (see ``bastion.agents``)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class SettingsStyle(enum.Enum):
    """How Bastion's hook entry is written into the agent's settings document.

    ``CLAUDE``: ``hooks.EVENT[] = {matcher?, hooks: [{type: "command", command, timeout}]}``
    (Claude Code, Codex, Gemini CLI, Qwen Code). ``COPILOT``: ``{version: 1,
    hooks.preToolUse[] = {type: "command", bash, timeoutSec}}``. ``OWN_FILE``: no settings
    document: the agent loads code, so Bastion writes its own file whole, its ``template``
    (package data of ``bastion.adapters.hooks``) with the hook's command line filled in, and
    the file runs the hook per call (pi's extension, opencode's plugin;
    ``bastion.adapters.hooks.own_file``).
    """

    CLAUDE = "claude"
    COPILOT = "copilot"
    OWN_FILE = "own-file"


class TrustModel(enum.Enum):
    """Whether (and how) the agent ignores a project's settings until the project is trusted.

    Each gate is read by its own function in ``bastion.adapters.hooks.agent_trust``."""

    NONE = "none"  # the project's settings are always read
    CODEX_PROJECTS = "codex-projects"  # [projects."ROOT"] trust_level in $CODEX_HOME/config.toml
    GEMINI_FOLDERS = "gemini-folders"  # folder trust on by default, trustedFolders.json
    QWEN_FOLDERS = "qwen-folders"  # folder trust off by default; undecided counts as trusted
    COPILOT_FOLDERS = "copilot-folders"  # trustedFolders in $COPILOT_HOME/config.json


class AskHandling(enum.Enum):
    """What the agent does with an ``ask`` answer from its hook."""

    AGENT_PROMPT = "agent-prompt"  # it shows its own confirmation
    IGNORED = "ignored"  # it cannot ask: Bastion answers deny (or parks the call itself)


@dataclass(frozen=True, slots=True)
class Enforcement:
    """What the agent's hook answer can do: a deny always blocks (exit 2 and the agent's
    own deny JSON); ``ask`` as ``AskHandling`` says; ``rewrite`` when the answer can replace
    the call's arguments, so an allowed shell call runs inside Bastion's sandbox."""

    ask: AskHandling
    rewrite: bool
    deny: bool = True

    @property
    def honours_ask(self) -> bool:
        return self.ask is AskHandling.AGENT_PROMPT

    def words(self) -> str:
        """``deny, ask, rewrite`` -- the answers that hold, for listings."""
        held = [("deny", self.deny), ("ask", self.honours_ask), ("rewrite", self.rewrite)]
        return ", ".join(name for name, holds in held if holds) or "nothing"


@dataclass(frozen=True, slots=True)
class SettingWarning:
    """A value in the agent's settings that weakens Bastion's hook: said at install."""

    path: tuple[str, ...]  # keys from the document's root
    value: Any  # compared by type and value (``False`` is not ``0``)
    message: str

    def found_in(self, doc: Mapping[str, Any]) -> bool:
        node: Any = doc
        for key in self.path:
            if not isinstance(node, Mapping) or key not in node:
                return False
            node = node[key]
        return type(node) is type(self.value) and node == self.value


@dataclass(frozen=True, slots=True)
class Hooks:
    """Where the agent reads its hooks and how Bastion's entry is written there.

    The project file is ``<cwd>/<folder>/<file>``; the user file ``~/<user_folder>/<file>``
    (``user_folder`` defaults to ``folder``), or ``$<user_folder_env>/<file>`` when that
    variable is set.
    """

    folder: str
    file: str
    style: SettingsStyle
    #: The event key Bastion's entry goes under (``PreToolUse``, ``BeforeTool``, ``preToolUse``).
    event: str
    enforcement: Enforcement
    #: Further events with an entry of their own (its command carries ``--event EVENT``).
    extra_events: tuple[str, ...] = ()
    #: Events that report what became of a call (``PostToolUse``, ``Stop``…: what became of
    #: an ASK handed to the agent's prompt, bastion.adapters.hooks.after_tool). Each has an
    #: entry of its own that never blocks: its command falls back to exit 0, not 2.
    report_events: tuple[str, ...] = ()
    #: The settings give the hook timeout in milliseconds (else seconds).
    timeout_ms: bool = False
    #: The group's ``matcher`` (None: no matcher key).
    matcher: str | None = None
    #: A ``name`` for the handler, where the agent shows one.
    handler_name: str | None = None
    user_folder_env: str | None = None
    #: The user file's folder under HOME when it is not ``folder`` (a folder under
    #: ``.config`` follows ``XDG_CONFIG_HOME``).
    user_folder: str | None = None
    #: ``OWN_FILE`` style: the packaged file Bastion installs (a path under
    #: ``bastion/adapters/hooks/``), and what the agent calls such a file (in install's words).
    template: str | None = None
    file_kind: str = "file"
    #: None when there is a user file; else why only a project install works.
    project_only: str | None = None
    trust: TrustModel = TrustModel.NONE
    #: The agent's own deny rules Bastion adds beside its hook (Claude's ``permissions.deny``).
    deny_mirror: tuple[str, ...] = ()
    warnings: tuple[SettingWarning, ...] = ()
    #: Printed after every install (what the agent needs besides the file).
    install_notes: tuple[str, ...] = ()
    #: Added to the doctor's line when the hook answers (what doctor cannot see).
    doctor_caveat: str = ""
    #: A hook input, in the agent's wire format, for a call every policy denies (``doctor``).
    probe: Mapping[str, Any] = field(default_factory=dict)
    #: Prefixes of the variables that change the hook's meaning (sent on to the daemon).
    env_prefixes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Override:
    """A launch dimension set through a config override rather than a flag of its own.

    Used only when the help lists ``mechanism`` and its description has every word of
    ``words``; ``requires`` are args the mapping must also pass for the override to hold.
    """

    mechanism: str
    words: tuple[str, ...]
    value: str
    network: str
    requires: tuple[str, ...]
    note: str
    #: Programs the agent needs on PATH for the override to work at all (Claude Code's
    #: sandbox on Linux is bubblewrap + socat: without them it refuses to start).
    helpers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Launch:
    """What ``bastion launch`` needs that the agent's ``--help`` cannot tell."""

    executables: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...] = ()  # subcommand alias → subcommand
    overrides: tuple[Override, ...] = ()
    #: (flag, choice, why): seen to act looser than its name reads.
    distrusted: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class AgentHome:
    """Where one agent CLI keeps its state, and what of it must stay read-only (its
    ``agent:AGENT`` sandbox, ``bastion.exec.agent_profile``)."""

    name: str
    #: Folders under HOME the agent writes (the first is its main one).
    folders: tuple[str, ...]
    #: A variable that moves the main folder (``CODEX_HOME``), if the CLI reads one.
    folder_env: str | None = None
    #: Single files under HOME the agent rewrites (``~/.claude.json``).
    files: tuple[str, ...] = ()
    #: Files and folders inside the main folder that hold permissions, hooks or trust.
    settings: tuple[str, ...] = ()
    #: Its model API's hosts, reachable through the egress proxy unless the policy denies.
    model_hosts: tuple[str, ...] = ()
    #: Variables naming a model API's base URL: their hosts count as model hosts.
    base_url_env: tuple[str, ...] = ()
    #: Prefixes of the variables the agent is given (its keys and its own settings).
    env_prefixes: tuple[str, ...] = ()
    #: Its login tokens inside the main folder: hidden from every *other* contained agent.
    credentials: tuple[str, ...] = ()
    #: Its model providers are named in ``config.toml`` (``[model_providers.X]``: Codex).
    providers_in_config: bool = False


@dataclass(frozen=True, slots=True)
class Agent:
    """One agent CLI: everything install, uninstall, doctor, the trust checks, the hook
    and launch know about it."""

    name: str  # the word in ``bastion install NAME``, ``bastion hook NAME``, ``agent:NAME``
    title: str  # how people call it: "Claude Code"
    #: The npm package and version its wire format was checked against.
    verified: str
    launch: Launch
    home: AgentHome
    #: None: Bastion has no hook for it (yet): launch and ``agent:AGENT`` only.
    hooks: Hooks | None = None
    #: Folders in a project holding its settings: read-only wherever they appear in a
    #: sandbox, and swept when a contained call creates one at a workspace root.
    project_dirs: tuple[str, ...] = ()
    #: Paths below a project folder (``PARENT/NAME``) holding its settings, where the parent
    #: is not the agent's own: read-only wherever they appear in a sandbox, swept at a root.
    project_paths: tuple[str, ...] = ()
    #: Paths (policy globs) whose writes change what the agent permits: a hard line asks.
    permission_globs: tuple[str, ...] = ()
