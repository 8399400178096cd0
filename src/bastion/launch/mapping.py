"""Map a ceiling to one agent's flags by reading the words of its help.

Readings (seed 001): a flag that skips every check → never asks, no restriction; a mode
flag's named choices are read by the choice (plan/read-only → asks about everything and
writes nothing; accept-edits and ask-before-edit → asks about risky actions; default/manual → asks about
everything; bypass/yolo → never asks); sandbox choices set the filesystem; sandbox and
approval flags are combined; a choice whose name is unclear (``auto``) is left out; with no
flag setting approval the agent is assumed to ask before acting, marked as an assumption.

Every reading over-approximates: where the words leave doubt, the mapping is taken to be
*more* permissive, so the validator can only err towards not starting.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bastion.launch.agents import AgentSpec, listed_in
from bastion.launch.helptext import HelpOption, HelpText
from bastion.launch.validate import check
from bastion.policy.ceiling import Ceiling

_DIMS = ("approval", "filesystem", "network")
_SKIP_ALL = re.compile(
    r"\b(?:skip|bypass)\w* all\b[^.]*\b(?:permission|check|confirmation|prompt|approval)"
    r"|\b(?:accept|approve|allow)\w* all (?:actions|tools|permissions)\b"
    r"|\benable all permissions\b|\bauto-approve (?:all )?permissions\b"
)
_STRONG = re.compile(r"\ball permission|\bevery check|\ball confirmation|\ball actions\b")
_PERMISSION_WORDS = re.compile(
    r"permission|approv|sandbox|yolo|dangerous|bypass|trust|allowed|allowlist|writable|policy|"
    r"\ballow(?:ed)?[- ](?:all|tools?|access|urls?|paths?)|without confirmation|accept all"
)
_TIGHTENING_NAME = re.compile(r"^--?(?:no-|deny|disallow|exclude|disable)")
_RISKY_VALUE = re.compile(
    r"permission|approv|sandbox|yolo|dangerous|bypass|trust|allow|network|defaultmode|"
    r"full.access",
    re.IGNORECASE,
)
_NON_INTERACTIVE = re.compile(r"non-interactive|headless|\band exit\b", re.IGNORECASE)
_MODE_NAME = re.compile(r"permission|approval|sandbox|mode")


@dataclass(frozen=True, slots=True)
class Setting:
    """One readable way to pass one flag, and what it lets the agent do."""

    option: str
    args: tuple[str, ...]
    reading: str
    approval: str | None = None
    filesystem: str | None = None
    network: str | None = None
    strength: int = 0
    requires: tuple[str, ...] = ()

    def dims(self) -> frozenset[str]:
        return frozenset(d for d in _DIMS if getattr(self, d) is not None)


@dataclass(frozen=True, slots=True)
class Mapping:
    """What one agent gets under one ceiling; ``started`` False means it is not started."""

    agent: str
    ceiling: Ceiling
    started: bool
    flags: tuple[str, ...]
    effective: Ceiling | None
    notes: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = field(default=())


def _words(text: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return set(re.split(r"[^a-z]+", spaced.lower())) - {""}


def _skip_all(option: HelpOption) -> Setting | None:
    text = option.description.lower()
    if option.takes_value or "as an option" in text:
        return None
    if not (_SKIP_ALL.search(text) or "yolo" in _words(option.name)):
        return None
    return Setting(
        option.name,
        (option.name,),
        "skips every check: never asks, no restriction",
        "never_ask",
        "unrestricted",
        "allowed",
        2 if _STRONG.search(text) else 1,
    )


def _read_choice(option: HelpOption, choice: str) -> Setting | None:
    words = _words(choice) | _words(option.help_for(choice))
    name = _words(choice)
    args = (option.name, choice)
    if "sandbox" in _words(option.name):
        if name >= {"read", "only"} or "readonly" in name:
            return Setting(option.name, args, "sandbox: read-only", filesystem="read_only")
        if "workspace" in name:
            return Setting(
                option.name,
                args,
                "sandbox: writes only in the workspace (what it "
                "asks to run outside the sandbox runs only if you approve it in the "
                "agent's own prompt)",
                filesystem="workspace_write",
            )
        if "full" in name or "danger" in name:
            return Setting(option.name, args, "sandbox: no filesystem restriction", filesystem="unrestricted")
        return None
    if "plan" in name or name >= {"read", "only"} or "readonly" in name:
        return Setting(
            option.name,
            args,
            "plan/read-only mode: asks about everything, writes "
            "nothing (until you approve leaving it in the agent's own prompt)",
            "ask_every_action",
            "read_only",
        )
    if name & {"bypass", "yolo", "dangerously"}:
        return Setting(
            option.name,
            args,
            "bypass mode: never asks, no restriction",
            "never_ask",
            "unrestricted",
            "allowed",
        )
    if name == {"never"} and "ask" in words:
        return Setting(option.name, args, "never asks for approval", "never_ask")
    if name >= {"ask", "edit"} or name >= {"ask", "edits"}:  # Bastion's own tier's words
        return Setting(
            option.name, args, "ask-before-edit mode: reads run, asks before every edit", "ask_for_risky"
        )
    if "edits" in name or name == {"auto", "edit"}:
        return Setting(option.name, args, "accept-edits mode: asks about risky actions", "ask_for_risky")
    if name & {"default", "manual"}:
        return Setting(option.name, args, "default mode: asks about everything", "ask_every_action")
    return None


def _is_mode_flag(option: HelpOption) -> bool:
    return bool(option.choices) and bool(_MODE_NAME.search(option.name.lower()))


def read_settings(
    help_text: HelpText, spec: AgentSpec, present: Callable[[str], bool] = lambda _: True
) -> tuple[list[list[Setting]], list[str]]:
    """Every readable permission setting, grouped by flag, and the notes on what was left out."""
    groups: list[list[Setting]] = []
    left_out: list[str] = []
    skips = [s for s in map(_skip_all, help_text.options) if s is not None]
    if skips:
        groups.append(skips)
    for option in help_text.options:
        if _is_mode_flag(option):
            readable: list[Setting] = []
            distrusted = {(f, c): why for f, c, why in spec.distrusted}
            for choice in dict.fromkeys(option.choices):
                why = distrusted.get((option.name, choice))
                if why:
                    left_out.append(f"left out: {option.name} {choice} ({why})")
                    continue
                setting = _read_choice(option, choice)
                if setting is None:
                    left_out.append(f"left out: {option.name} {choice} (meaning not clear from its name)")
                else:
                    readable.append(setting)
            if readable:
                groups.append(readable)
        elif _words(option.name) == {"sandbox"} and not option.choices:
            left_out.append(
                f"left out: {option.name} (a sandbox without named choices: its "
                "help does not say what it restricts)"
            )
    for example in help_text.examples:
        if re.search(r"\bread-only\b", example.comment, re.IGNORECASE):
            args = _example_args(help_text, example.argv[1:])
            if args:
                groups.append(
                    [
                        Setting(
                            "example:read-only",
                            args,
                            f"read-only by the help's own example ({example.comment})",
                            filesystem="read_only",
                        )
                    ]
                )
    for override in spec.overrides:
        if listed_in(override, help_text):
            flag = help_text.option(override.mechanism)
            name = flag.name if flag else override.mechanism
            missing = [h for h in override.helpers if not present(h)]
            if missing:
                left_out.append(
                    f"left out: {name} <…> (needs {', '.join(missing)} on "
                    f"PATH, or {spec.name} refuses to start; install them, e.g. apt-get install "
                    f"{' '.join('bubblewrap' if m == 'bwrap' else m for m in missing)})"
                )
                continue
            groups.append(
                [
                    Setting(
                        name,
                        (name, override.value),
                        override.note,
                        network=override.network,
                        requires=override.requires,
                    )
                ]
            )
    return groups, left_out


def _example_args(help_text: HelpText, argv: Sequence[str]) -> tuple[str, ...]:
    """The leading option words of an example, up to a prompt or non-interactive flag."""
    out: list[str] = []
    tokens = list(argv)
    while tokens and tokens[0].startswith("-"):
        option = help_text.option(tokens[0])
        if option is None or _NON_INTERACTIVE.search(option.description):
            break
        out.append(tokens.pop(0))
        if option.takes_value and "=" not in out[-1] and tokens:
            out.append(tokens.pop(0))
    return tuple(out)


def permission_args(help_text: HelpText, agent_args: Sequence[str]) -> list[str]:
    """Agent args that set a permission (Bastion sets those from the ceiling alone)."""
    found: list[str] = []
    tokens = list(agent_args)
    while tokens:
        token = tokens.pop(0)
        if token == "--":
            break
        option = help_text.option(token) if token.startswith("-") else None
        if option is None:
            continue
        value = token.split("=", 1)[1] if "=" in token else ""
        if option.takes_value and not value and tokens and not tokens[0].startswith("-"):
            value = tokens.pop(0)
        text = f"{option.name} {option.description}".lower()
        is_config = option.takes_value and re.search(r"config|settings", text)
        if _TIGHTENING_NAME.match(option.name) or _non_interactive_flag(option):
            continue
        if is_config and not _is_mode_flag(option):
            if _RISKY_VALUE.search(value) or _RISKY_VALUE.search(_file_text(value)):
                found.append(f"{option.name} {value}".strip())
        elif _PERMISSION_WORDS.search(text) or _is_mode_flag(option) or _skip_all(option):
            found.append(option.name)
    return found


def _file_text(value: str) -> str:
    try:
        with open(value.lstrip("@"), encoding="utf-8") as handle:
            return handle.read(100_000)
    except (OSError, ValueError):
        return ""


def _non_interactive_flag(option: HelpOption) -> bool:
    return bool(_NON_INTERACTIVE.search(option.description.split(". ")[0]))


def _shown(args: tuple[str, ...]) -> str:
    text = " ".join(args)
    return text if len(text) <= 60 else f"{args[0]} <…>"


def runs_non_interactively(help_text: HelpText, agent_args: Sequence[str]) -> str | None:
    """Why the run cannot ask (the help says so of the command or of a flag given), or None."""
    if help_text.non_interactive:
        return "the command runs non-interactively"
    for token in agent_args:
        option = help_text.option(token) if token.startswith("-") else None
        if option and _non_interactive_flag(option):
            return f"{option.name} runs it non-interactively"
    return None


@dataclass(frozen=True, slots=True)
class _Candidate:
    settings: tuple[Setting, ...]
    effective: Ceiling
    assumed: bool
    order: int

    @property
    def args(self) -> tuple[str, ...]:
        return tuple(a for s in self.settings for a in s.args)

    def key(self) -> tuple[int, int, int, int, int]:
        strength = sum(s.strength for s in self.settings)
        return (-self.effective.rank(), self.assumed, -strength, len(self.args), self.order)


def candidates(groups: list[list[Setting]], non_interactive: bool) -> list[_Candidate]:
    """Every combination of at most one setting per flag that sets disjoint dimensions."""
    out: list[_Candidate] = []
    options: list[list[Setting | None]] = [[None, *g] for g in groups]
    for order, combo in enumerate(itertools.product(*options)):
        chosen = tuple(s for s in combo if s is not None)
        dims = [d for s in chosen for d in s.dims()]
        if len(dims) != len(set(dims)):
            continue
        args = {a for s in chosen for a in s.args}
        if any(not set(s.requires) <= args for s in chosen):
            continue
        values = {"approval": "ask_every_action", "filesystem": "unrestricted", "network": "allowed"}
        for setting in chosen:
            values.update({d: getattr(setting, d) for d in setting.dims()})
        assumed = "approval" not in dims and not non_interactive
        if non_interactive:
            values["approval"] = "never_ask"
        out.append(_Candidate(chosen, Ceiling.of(**values), assumed, order))
    return out


_CANNOT = {
    "approval": "it runs non-interactively, so it cannot ask before acting",
    "filesystem": {
        "read_only": "its help lists no flag that stops it writing files",
        "workspace_write": "its help lists no flag that keeps its writes inside the workspace",
    },
    "network": "its help lists no flag that blocks network access (sandboxing the agent "
    "itself would cut it off from its own model API)",
}


def _cannot_notes(pool: list[_Candidate], ceiling: Ceiling) -> list[str]:
    notes: list[str] = []
    for dim in _DIMS:
        wanted = getattr(ceiling, dim)
        if not any(f"{dim}:" not in " ".join(check(c.effective, ceiling).violations) for c in pool):
            reason = _CANNOT[dim]
            text = reason[wanted] if isinstance(reason, dict) else reason
            notes.append(f"cannot enforce {dim}={wanted}: {text}")
    if not notes:
        notes.append("its flags fit each dimension alone, but no combination fits all three")
    return notes


def map_ceiling(
    spec: AgentSpec,
    help_text: HelpText,
    ceiling: Ceiling,
    agent_args: Sequence[str] = (),
    present: Callable[[str], bool] = lambda _: True,
) -> Mapping:
    """The most permissive flags the help lists that still fit inside ``ceiling``."""
    groups, left_out = read_settings(help_text, spec, present)
    refused = permission_args(help_text, agent_args)
    if refused:
        return Mapping(
            spec.name,
            ceiling,
            False,
            (),
            None,
            (
                f"not started: AGENT_ARGS set permission flags ({', '.join(refused)}); Bastion "
                "sets those from the ceiling alone",
            ),
        )
    why_not_asking = runs_non_interactively(help_text, agent_args)
    pool = candidates(groups, why_not_asking is not None)
    fitting = sorted((c for c in pool if check(c.effective, ceiling).ok), key=_Candidate.key)
    if not fitting:
        notes = [
            f"not started: no mode fits inside the ceiling {ceiling.text()}",
            *_cannot_notes(pool, ceiling),
        ]
        if why_not_asking:
            notes.append(f"{why_not_asking}: counted as never asking")
        notes.extend(n for n in left_out if " (needs " in n)  # what would have fit, with a fix
        return Mapping(spec.name, ceiling, False, (), None, tuple(notes))
    best = fitting[0]
    notes = [f"{_shown(s.args)}: {s.reading}" for s in best.settings]
    if why_not_asking:
        notes.append(f"{why_not_asking}: counted as never asking")
    notes.extend(left_out)
    assumptions: tuple[str, ...] = ()
    if best.assumed:
        assumptions = (
            "no flag given sets when it asks: assumed to ask before acting (its own "
            "settings may say otherwise)",
        )
    if not best.settings:
        notes.insert(0, "runs with no permission flag")
    return Mapping(spec.name, ceiling, True, best.args, best.effective, tuple(notes), assumptions)
