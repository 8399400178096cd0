"""The mutable working state while one simple command is classified."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bastion.policy.decision import Effect
from bastion.shell import paths as P
from bastion.shell.model import Access, PathUse, SimpleCommand
from bastion.shell.walk import RawCommand, Redirect
from bastion.shell.words import Word

#: Classify an inner argv (find -exec, xargs …) under an extra wrapper label.
RunWords = Callable[["Ctx", list[Word], str], list[SimpleCommand]]
#: Parse and classify a shell string (bash -c, eval …) under a wrapper label.
RunSource = Callable[["Ctx", str, str], list[SimpleCommand]]


@dataclass(slots=True)
class Ctx:
    raw: RawCommand
    words: list[Word]  # argv after unwrapping; words[0] is the program
    program: str
    run_words: RunWords
    run_source: RunSource
    wrappers: list[str] = field(default_factory=list)
    effects: set[Effect] = field(default_factory=set)
    paths: list[PathUse] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reader: bool = False
    catastrophic: str | None = None
    install_manager: str | None = None
    install_packages: list[str] = field(default_factory=list)
    inner: list[SimpleCommand] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    extra_args: bool = False  # xargs appends arguments only known at run time
    known: bool = True
    dynamic: bool = False  # what runs is only known at run time (bash -c "$X", eval $X)
    replaced: bool = False  # a pure wrapper: only its inner commands are reported
    depth: int = 0
    raising: list[tuple[int, Effect]] = field(default_factory=list)  # argv index, effect
    base: frozenset[Effect] | None = None  # the program's own effects (see SimpleCommand)

    @property
    def stdin_data(self) -> Redirect | None:
        """The heredoc / here-string this command reads, if any."""
        for r in reversed(self.raw.redirects):
            if r.op in ("<<", "<<-", "<<<"):
                return r
        return None

    def add(self, *effects: Effect, note: str = "") -> None:
        self.effects.update(effects)
        if any(e is not Effect.READ for e in effects):
            self.reader = False
        if note and note not in self.notes:
            self.notes.append(note)

    def raise_at(self, index: int, *effects: Effect, note: str = "") -> None:
        """Add effects that argv word ``index`` raised (-1: no single word)."""
        self.add(*effects, note=note)
        self.raising.extend((index, e) for e in effects if (index, e) not in self.raising)

    def index_of(self, word: Word) -> int:
        """The argv index of ``word`` (by identity), or -1."""
        return next((i for i, w in enumerate(self.words) if w is word), -1)

    def note(self, text: str) -> None:
        if text and text not in self.notes:
            self.notes.append(text)

    def path(self, word: Word, access: Access, why: str) -> None:
        """Record a path argument (process substitutions are pipes, not paths)."""
        if word.procsub:
            return
        value = word.value
        pattern = value if word.glob else None
        if value is not None and word.glob:
            if P.glob_is_safe(value):
                why = f"{why} (glob)"
            else:
                value = None
                why = f"{why} (glob that may reach protected names)"
        self.paths.append(PathUse(value, access, word.text, why, pattern=pattern))

    def host(self, host: str) -> None:
        if host and host not in self.hosts:
            self.hosts.append(host)
