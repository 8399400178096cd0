"""The mutable working state while one simple command is classified."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell.braces import expand_braces
from bastion.shell.list_vars import listed_in
from bastion.shell.model import Access, PathUse, SimpleCommand, new_path_use, replace_path_use
from bastion.shell.records import builder
from bastion.shell.walk_model import Ids, RawCommand, Redirect
from bastion.shell.words import DYN, Word

#: Classify an inner argv (find -exec, xargs …) under an extra wrapper label.
RunWords = Callable[["Ctx", list[Word], str], list[SimpleCommand]]
#: Parse and classify a shell string under a wrapper label: ``run_source`` for one run by a
#: child shell (sh -c, su -c, ssh), ``run_here`` for one run by this shell (eval, trap, alias).
RunSource = Callable[["Ctx", str, str], list[SimpleCommand]]


@dataclass(frozen=True, slots=True)
class Outer:
    """What a command hands to the commands it runs (a shell string, find -exec, xargs…):
    they run under its wrappers, privilege and environment, read its stdin and write its
    stdout. ``redirects`` are the carrier's redirections, applied to every inner command
    exactly as the top level applies its own; ``paths`` are files the carrier itself reads
    for them (a login shell's startup files)."""

    wrappers: tuple[str, ...] = ()
    effects: frozenset[Effect] = frozenset()
    hosts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    paths: tuple[PathUse, ...] = ()
    depth: int = 0
    scope: tuple[int, ...] = ()  # the child shell it runs in (see SimpleCommand.scope)
    ids: Iterator[int] = field(default_factory=Ids, compare=False)
    memo: bool = True  # classify identical commands once (see ``memo``); off only in tests


#: Builds an ``Outer`` (see ``records.builder``).
new_outer = builder(Outer)


@dataclass(slots=True, init=False)
class Ctx:
    raw: RawCommand
    words: list[Word]  # argv after unwrapping; words[0] is the program
    program: str
    run_words: RunWords
    run_source: RunSource
    run_here: RunSource
    wrappers: list[str]
    effects: set[Effect]
    paths: list[PathUse]
    hosts: list[str]
    notes: list[str]
    reader: bool
    catastrophic: str | None
    install_manager: str | None
    install_packages: list[str]
    inner: list[SimpleCommand]
    errors: list[str]
    extra_args: bool  # xargs appends arguments only known at run time
    fed_from: str | None  # ... each a file below this folder (``shell/feeds.py``)
    fed_list: str | None  # ... each a path this file lists (``xargs -a F``, ``xargs < F``)
    known: bool
    dynamic: bool  # what runs is only known at run time (bash -c "$X", eval $X)
    replaced: bool  # a pure wrapper: only its inner commands are reported
    depth: int
    outer: Outer
    # Redirection targets, kept apart so a handler that rebuilds ``paths`` cannot drop them.
    redirected: list[PathUse]
    # What this command's environment passes on to what it runs (NAME=… prefixes, env,
    # a login shell's startup files): effects, hosts, notes, paths.
    carried: set[Effect]
    carried_hosts: list[str]
    carried_notes: list[str]
    carried_paths: list[PathUse]
    evaluated: str | None  # a word evaluates a run-time value as code (${x@P}, $((x)))
    self_change: str | None  # a state-changing verb of Bastion itself
    scope: tuple[int, ...]
    raising: list[tuple[int, Effect]]  # argv index, effect
    base: frozenset[Effect] | None  # the program's own effects (see SimpleCommand)
    discloses: str | None  # why it prints a secret (see SimpleCommand)
    plain_writer: bool  # the spec says it only writes its paths (see SimpleCommand)
    imports_cwd: bool  # Python imports from the working directory first (see SimpleCommand)

    def __init__(
        self,
        raw: RawCommand,
        words: list[Word],
        program: str,
        run_words: RunWords,
        run_source: RunSource,
        run_here: RunSource,
        wrappers: list[str],
        outer: Outer,
    ) -> None:
        # Written out (not generated): one Ctx per classified command, and a generated
        # __init__ with fourteen default factories costs twice as much.
        self.raw = raw
        self.words = words
        self.program = program
        self.run_words = run_words
        self.run_source = run_source
        self.run_here = run_here
        self.wrappers = wrappers
        self.effects = set()
        self.paths = []
        self.hosts = []
        self.notes = []
        self.reader = False
        self.catastrophic = None
        self.install_manager = None
        self.install_packages = []
        self.inner = []
        self.errors = []
        self.extra_args = False
        self.fed_from = None
        self.fed_list = None
        self.known = True
        self.dynamic = False
        self.replaced = False
        self.depth = 0
        self.outer = outer
        self.redirected = []
        self.carried = set()
        self.carried_hosts = []
        self.carried_notes = []
        self.carried_paths = []
        self.evaluated = None
        self.self_change = None
        self.scope = ()
        self.raising = []
        self.base = None
        self.discloses = None
        self.plain_writer = False
        self.imports_cwd = False

    @property
    def stdin_data(self) -> Redirect | None:
        """The heredoc / here-string this command reads, if any."""
        for r in reversed((*self.outer.redirects, *self.raw.redirects)):
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

    def disclose(self, why: str, index: int = -1) -> None:
        """It prints a secret: a credential read (raised by argv word ``index``)."""
        self.discloses = self.discloses or why
        self.raise_at(index, Effect.CREDENTIALS, note=why)

    def index_of(self, word: Word) -> int:
        """The argv index of ``word`` (by identity), or -1."""
        return next((i for i, w in enumerate(self.words) if w is word), -1)

    def note(self, text: str) -> None:
        if text and text not in self.notes:
            self.notes.append(text)

    def path(self, word: Word, access: Access, why: str, runs: str | None = None) -> None:
        """Record a path argument (process substitutions are pipes, not paths); ``runs``: the
        language of the program text it holds, when the command runs it."""
        if word.value is None and not word.procsub and DYN not in word.sketch:
            words = expand_braces(word.text)  # `~/.{aws/credentials,netrc}`: what bash makes of it
            if words is not None:
                for w in words:
                    if any(c in w for c in "*?["):  # a glob after expansion: bash expands it next
                        use = path_use(
                            Word(word.text, w, w, glob=True, pattern=w), access, f"{why} (brace expansion)"
                        )
                        self.paths.extend(() if use is None else (use,))
                    else:
                        self.paths.append(new_path_use(w, access, word.text, f"{why} (brace expansion)"))
                return
        use = path_use(word, access, why)
        if use is not None:
            self.paths.append(use if runs is None else replace_path_use(use, runs=runs))

    def listed(self, listing: str, why: str) -> None:
        """A read of each path the file ``listing`` names, only known at run time."""
        self.paths.append(new_path_use(None, Access.READ, listing, why, None, False, False, None, listing))

    def carry(self, *effects: Effect, note: str = "") -> None:
        """An effect of this command's environment: on it and on everything it runs."""
        self.add(*effects, note=note)
        self.carried.update(effects)
        if note and note not in self.carried_notes:
            self.carried_notes.append(note)

    def host(self, host: str) -> None:
        if host and host not in self.hosts:
            self.hosts.append(host)


def path_use(word: Word, access: Access, why: str) -> PathUse | None:
    """The PathUse of a word (None for a process substitution: a pipe, not a path)."""
    if word.procsub:
        return None
    value = word.value
    if value is None and word.listed is not None and access is Access.READ:
        why = f"{why} (the files {word.text} lists below {word.listed})"
        return new_path_use(word.listed, access, word.text, why, None, True, as_words=True)
    pattern = word.pattern if word.glob and value is not None else None
    if value is not None and word.glob:
        if P.glob_is_safe(value):
            why = f"{why} (glob)"
        else:
            value = None
            why = f"{why} (glob that may reach protected names)"
    tail = None
    if value is None and DYN in word.sketch:  # the literal end after the last run-time part
        rest = word.sketch[word.sketch.rfind(DYN) + 1 :]
        tail = rest[rest.index("/") :] if "/" in rest else None
    elif value is None and word.sketch.startswith("~") and "/" in word.sketch:
        tail = word.sketch[word.sketch.index("/") :]  # ``~-/…``, ``~user/…``: a folder known at run time
    listing = listed_in(word.text) if value is None else None  # `cat $(cat files.txt)`
    return new_path_use(value, access, word.text, why, pattern, False, False, tail, listing)
