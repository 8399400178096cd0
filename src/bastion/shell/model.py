"""What the shell classifier hands the engine: every simple command, decoded and classified.

This module is the contract between ``bastion.shell`` (parse + classify, no policy) and
``bastion.policy`` (which decides). It holds values only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bastion.call.effects import Effect
from bastion.shell.records import builder, replacer


class Access(StrEnum):
    READ = "read"
    WRITE = "write"
    DELETE = "delete"


@dataclass(frozen=True, slots=True)
class PathUse:
    """A path a command touches. ``path`` is the decoded literal (before normalisation,
    ``~`` not yet expanded); ``None`` when its value is only known at run time."""

    path: str | None
    access: Access
    raw: str
    why: str = ""  # e.g. "redirection >", "argument of rm", "find -delete"
    # The unexpanded glob pattern when the word is a glob: the policy expands it through the
    # file system (``path`` is then only the classifier's lexical view, or None).
    pattern: str | None = None
    # The program reads (or writes) everything below this path, not just the path itself.
    recursive: bool = False
    # A shell startup file (~/.profile, /etc/profile…) a login or interactive shell runs: code
    # the agent must not be able to write, judged as such by the policy (not as a plain read).
    startup: bool = False
    # The literal end of a path only known at run time, from the first slash after its last
    # run-time part (``"${HOME%/}/.netrc"`` -> ``/.netrc``): a credential's name whatever
    # folder comes before it.
    tail: str | None = None
    # A path only known at run time that is one of the paths a file lists (``xargs -a F``,
    # ``xargs CMD < F``, ``sort --files0-from=F``, awk's ``getline < $0`` over F): that file.
    # The policy reads it to find a credential among them (it can only tighten: the file may
    # change before the command runs).
    listed_in: str | None = None
    # The file is program text the command runs, in this language (``sh scripts/x.sh``:
    # "sh", ``sed -f F``: "sed", ``awk -f F``: "awk", ``./x``: "exec", by its first line):
    # the policy reads it and decides what it spells (it can only tighten: the file may
    # change before the command runs).
    runs: str | None = None
    # Each file below this folder reaches the command as a word of its own (``xargs``, an
    # unquoted ``$(git ls-files)``): every symlink among them is followed, and a name the
    # shell or xargs would make into other words (blanks, quotes, glob characters, a leading
    # ``-``) is some other path or an option.
    as_words: bool = False


def read_below(use: PathUse) -> PathUse:
    """``use`` read (or written) recursively: built field by field (a recursive reader marks
    every path it names; ``dataclasses.replace`` costs several times more)."""
    if use.recursive:
        return use
    return new_path_use(
        use.path,
        use.access,
        use.raw,
        use.why,
        use.pattern,
        True,
        use.startup,
        use.tail,
        use.listed_in,
        use.runs,
        use.as_words,
    )


#: Builds a ``PathUse`` (see ``records.builder``) on the classifier's hot path.
new_path_use = builder(PathUse)


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One simple command after unwrapping wrappers (sudo, env, xargs, bash -c …)."""

    text: str  # source text of the command as written
    argv: tuple[str, ...]  # normalised: quotes removed, escapes decoded, wrappers stripped
    program: str | None  # program name (basename of argv[0]); None when dynamic/unknown
    spelling: str  # argv[0] as written: "/usr/bin/rm", "\\rm", "'r'm"
    known: bool  # the program is in the knowledge base
    dynamic: bool  # command word (or something that decides what runs) only known at run time
    effects: frozenset[Effect]
    paths: tuple[PathUse, ...] = ()
    hosts: tuple[str, ...] = ()  # URLs or host names reached (network effect)
    install_manager: str | None = None
    install_packages: tuple[str, ...] = ()
    wrappers: tuple[str, ...] = ()  # wrappers looked through, outermost first
    pure_reader: bool = False  # a recognised pure reader/printer with no other effect
    catastrophic: str | None = None  # why this must be denied outright (rm -rf /, mkfs, …)
    notes: tuple[str, ...] = ()  # why each effect was assigned, for explain
    # Indexes into argv of words only known at run time (variables, substitutions, globs);
    # an allow pattern may absorb them only with its final `*`.
    dynamic_words: tuple[int, ...] = ()
    # Why this changes Bastion's own state (approvals, grants, trust, keys…): hardline self.
    self_change: str | None = None
    # The chain of child shells it runs in: a `cd` moves the later commands of its own scope
    # and of scopes inside it, never those after a subshell, pipeline stage or `sh -c` ends.
    scope: tuple[int, ...] = ()
    # Indexes into argv of words that raised an effect beyond the program's base class
    # (`find . -delete`: (2, DELETE)); an allow pattern covers them only with a literal word.
    raising: tuple[tuple[int, Effect], ...] = ()
    # The effects of the program (subcommand) itself, before any of its arguments; None when
    # the program is not in the knowledge base.
    base_effects: frozenset[Effect] | None = None
    # Why it prints a secret (a token, a password, the environment): reading a credential,
    # denied like reading a credential file.
    discloses: str | None = None
    # Its only effect is creating, copying or moving the files ``paths`` names (mkdir, touch,
    # cp, mv without an option that does more): in workspace mode the policy decides it as the
    # write tool would decide each of them, and the files a copy lands inside a folder.
    plain_writer: bool = False
    # A Python it starts imports from its working directory first (``python3 -m json.tool``
    # without -I/-P): a standard-library module's shadow there would run (the policy looks).
    imports_cwd: bool = False
    # Not as written but as it runs with the values the source gives its own variables and
    # pure substitutions (``shell/resolve.py``): decided as well as the command as written.
    resolved: bool = False


#: Builds a ``SimpleCommand`` (see ``records.builder``): every classified command is one.
new_command = builder(SimpleCommand)
#: ``dataclasses.replace`` for the two records the classifier rewrites after the fact.
replace_command = replacer(SimpleCommand)
replace_path_use = replacer(PathUse)


@dataclass(frozen=True, slots=True)
class ShellAnalysis:
    """A whole command string. ``errors`` lists parts that could not be decided
    (parse errors, unknown node kinds, too long); any error makes the call undecidable."""

    source: str
    commands: tuple[SimpleCommand, ...]
    errors: tuple[str, ...] = ()

    @property
    def decidable(self) -> bool:
        return not self.errors


#: Builds a ``ShellAnalysis`` (see ``records.builder``).
new_analysis = builder(ShellAnalysis)
