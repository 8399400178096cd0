"""Within one analysis, classify each distinct (classifier state, simple command) once.

``"; ".join(["grep -rn TODO src | head -5"] * 400)`` holds 800 simple commands but two
distinct ones. A raw command is reused only when everything its classification reads is the
same: every field of the ``RawCommand`` but its scope (words, assignments and redirections
compared by value, each word a distinct object as ``Ctx.index_of`` finds words by identity),
the same ``Outer`` object, and no shell function defined in between (``Classifier.generation``).
Fail closed: a classification that drew a child-shell id (its result names new scopes), that
reported an error, or whose commands run in a scope other than the raw command's own is never
stored. A reused result gets the new raw command's scope, the only field that differs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from bastion.shell.ctx import Outer
from bastion.shell.model import SimpleCommand, new_command
from bastion.shell.unwrap import Classifier
from bastion.shell.walk_model import Ids, RawCommand

#: What a reuse compares (``_same``): every field of a raw command but its scope. A field
#: added to RawCommand stops the import here until ``_same`` compares it too.
_COMPARED = (
    "text",
    "words",
    "assigns",
    "redirects",
    "context",
    "kind",
    "in_pipeline",
    "background",
    "arith",
    "fed_from",
    "fed_words",
    "fed_entries",
)
if tuple(f.name for f in fields(RawCommand) if f.name != "scope") != _COMPARED:
    raise ImportError("shell.memo: RawCommand has fields the memo does not compare")


@dataclass(slots=True)
class _Entry:
    raw: RawCommand
    outer: Outer
    generation: int
    result: list[SimpleCommand]


class CommandMemo:
    """One per ``Classifier`` (one source of one analysis): never shared between calls."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[str, list[_Entry]] = {}

    def command(self, c: Classifier, raw: RawCommand, outer: Outer) -> list[SimpleCommand]:
        """``c.command(raw, list(raw.words), outer)``, reused where that is provably equal."""
        ids = outer.ids
        if not outer.memo or not isinstance(ids, Ids):
            return c.command(raw, list(raw.words), outer)
        found = self._find(c, raw, outer)
        if found is not None:
            return [_rescoped(cmd, raw.scope) for cmd in found.result]
        drawn, reported = ids.last, len(c.errors)
        result = c.command(raw, list(raw.words), outer)
        if (
            ids.last == drawn
            and len(c.errors) == reported
            and all(cmd.scope == raw.scope for cmd in result)
            and _distinct(raw)
        ):
            entry = _Entry(raw, outer, c.generation, result)
            self._entries.setdefault(raw.text, []).append(entry)
        return result

    def _find(self, c: Classifier, raw: RawCommand, outer: Outer) -> _Entry | None:
        for entry in self._entries.get(raw.text, ()):
            if entry.outer is outer and entry.generation == c.generation and _same(entry.raw, raw):
                return entry
        return None


def _same(a: RawCommand, b: RawCommand) -> bool:
    """Equal in every field but the scope (see ``_COMPARED``), the words of ``b`` each a
    distinct object as those of ``a`` were when stored."""
    return (
        a.text == b.text
        and a.words == b.words
        and a.assigns == b.assigns
        and a.redirects == b.redirects
        and a.context == b.context
        and a.kind == b.kind
        and a.in_pipeline == b.in_pipeline
        and a.background == b.background
        and a.arith == b.arith
        and a.fed_from == b.fed_from
        and a.fed_words == b.fed_words
        and a.fed_entries == b.fed_entries
        and (a.words is b.words or _distinct(b))
    )


def _distinct(raw: RawCommand) -> bool:
    return len({id(w) for w in raw.words}) == len(raw.words)


def _rescoped(cmd: SimpleCommand, scope: tuple[int, ...]) -> SimpleCommand:
    """``cmd`` in ``scope``, built field by field (one per reused command: ``replace_command``
    costs four times more)."""
    if cmd.scope == scope:
        return cmd
    return new_command(
        cmd.text,
        cmd.argv,
        cmd.program,
        cmd.spelling,
        cmd.known,
        cmd.dynamic,
        cmd.effects,
        cmd.paths,
        cmd.hosts,
        cmd.install_manager,
        cmd.install_packages,
        cmd.wrappers,
        cmd.pure_reader,
        cmd.catastrophic,
        cmd.notes,
        cmd.dynamic_words,
        cmd.self_change,
        scope,
        cmd.raising,
        cmd.base_effects,
        cmd.discloses,
        cmd.plain_writer,
        cmd.imports_cwd,
    )
