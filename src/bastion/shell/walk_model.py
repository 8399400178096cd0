"""The walker's data: raw simple commands, redirections, function definitions, and the walk
state. The walking forms (``walk_forms``, ``walk_redirects``) recurse through ``Walk.stmt``
(``walk._stmt``), so none of them imports the walker back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from tree_sitter import Node

from bastion.shell.listers import listed_folder
from bastion.shell.records import builder
from bastion.shell.variables import Variables
from bastion.shell.words import Binding, Word, decode


class Ids:
    """The ids of child shells, 1, 2, 3 … in one analysis (an ``itertools.count`` that can
    tell how many it gave: the command memo reuses only what drew none)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = 0

    def __iter__(self) -> Iterator[int]:
        return self

    def __next__(self) -> int:
        self.last += 1
        return self.last


#: Context marking a command started in the background on every turn of an endless loop.
FORK_LOOP = "started in the background by an endless loop"


@dataclass(frozen=True, slots=True)
class Redirect:
    op: str
    fd: str | None
    target: Word | None  # file target (None for heredoc / here-string)
    text: str
    body: str | None = None  # heredoc / here-string data (decoded when literal)
    body_literal: bool = True  # False when the data expands variables at run time
    evaluates: bool = False  # the target or data evaluates a run-time value ($((x)), ${!x})


@dataclass(frozen=True, slots=True)
class RawCommand:
    text: str
    words: tuple[Word, ...]
    assigns: tuple[tuple[str, Word], ...] = ()
    redirects: tuple[Redirect, ...] = ()
    context: tuple[str, ...] = ()  # e.g. "in $(…)", "in function f"
    kind: str = "command"  # command | test | declare | assign | redirect | unset | arith
    in_pipeline: bool = False
    background: bool = False
    arith: tuple[str, ...] = ()  # names evaluated as arithmetic (`((x))`, `[[ x -eq 1 ]]`, let)
    # The chain of child shells it runs in (subshells, pipeline stages, substitutions, sh -c):
    # a cd changes the directory of later commands of its own scope and of scopes inside it.
    scope: tuple[int, ...] = ()
    # An xargs stage fed by a lister of the files below this folder (``shell/feeds.py``).
    fed_from: str | None = None
    # An xargs stage fed exactly these words (``echo WORDS | xargs …``).
    fed_words: tuple[str, ...] | None = None
    # An xargs stage fed the names of one folder's entries (``ls DIR | xargs``): the folder,
    # and whether hidden names are among them (``ls -A``).
    fed_entries: tuple[str, bool] | None = None


#: Builds a ``Redirect`` / a ``RawCommand`` (see ``records.builder``).
new_redirect = builder(Redirect)
new_raw = builder(RawCommand)


def marked(item: RawCommand, *, in_pipeline: bool = False, background: bool = False) -> RawCommand:
    """``item`` also in a pipeline stage / a background job."""
    if (item.in_pipeline or not in_pipeline) and (item.background or not background):
        return item
    return rebuilt(item, item.in_pipeline or in_pipeline, item.background or background, item.scope)


def rebuilt(item: RawCommand, in_pipeline: bool, background: bool, scope: tuple[int, ...]) -> RawCommand:
    """``item`` with these marks and scope, built field by field (the walker marks every
    command of every stage; ``dataclasses.replace`` costs several times more)."""
    return new_raw(
        item.text,
        item.words,
        item.assigns,
        item.redirects,
        item.context,
        item.kind,
        in_pipeline,
        background,
        item.arith,
        scope,
        item.fed_from,
        item.fed_words,
        item.fed_entries,
    )


@dataclass(frozen=True, slots=True)
class FunctionDef:
    name: str
    body: tuple[Item, ...]
    text: str


Item = RawCommand | FunctionDef


#: Walks one statement: ``(walk, node, context, out, redirections)``.
Stmt = Callable[["Walk", Node, tuple[str, ...], list[Item], tuple[Redirect, ...]], None]


@dataclass(slots=True, init=False)
class Walk:
    src: bytes
    stmt: Stmt  # the walker's own statement step, for the forms to recurse through
    items: list[Item]
    errors: list[str]
    depth: int
    bindings: dict[str, Binding]  # for-loop variables
    vars: Variables  # what arithmetic may trust
    scope: tuple[int, ...]
    ids: Iterator[int]
    memo: bool  # replay identical statements of a list (``walk_memo``)

    def __init__(
        self,
        src: bytes,
        stmt: Stmt,
        scope: tuple[int, ...] = (),
        ids: Iterator[int] | None = None,
        memo: bool = True,
    ) -> None:
        # Written out (not generated): one per source, and five default factories cost more.
        self.src = src
        self.stmt = stmt
        self.items = []
        self.errors = []
        self.depth = 0
        self.bindings = {}
        self.vars = Variables()
        self.scope = scope
        self.ids = ids if ids is not None else Ids()
        self.memo = memo

    def child(self) -> tuple[int, ...]:
        """Enter a child shell; returns the scope to restore."""
        saved = self.scope
        self.scope = (*saved, next(self.ids))
        return saved


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def walk_word(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> Word:
    word, subs, errors = decode(node, w.src, w.bindings)
    if errors:
        w.errors.extend(errors)
    if word.arith:
        w.vars.saw_arith()
    for sub in subs:
        label = "in <(…)" if sub.type == "process_substitution" else "in $(…)"
        if node_text(sub).startswith(">("):
            label = "in >(…)"
        saved = w.child()
        for child in sub.named_children:
            w.stmt(w, child, (*ctx, label), out, ())
        w.scope = saved
    if node.type == "command_substitution":
        folder = listed_folder([_literal_argv(w, c) for c in _stages(node)])
        if folder is not None:
            word = replace(word, listed=folder)
    return word


def _stages(sub: Node) -> list[Node]:
    """The commands of the one pipeline (or command) a ``$(…)`` holds; [] for anything else."""
    inner = sub.named_children
    if len(inner) != 1:
        return []
    if inner[0].type == "pipeline":
        return list(inner[0].named_children)
    return [inner[0]]


def _literal_argv(w: Walk, node: Node) -> list[str] | None:
    """A plain command's words when each is a literal (no assignment, redirection, glob or
    run-time part), else None."""
    if node.type != "command":
        return None
    argv: list[str] = []
    for part in node.named_children:
        if part.type == "command_name" and part.named_children:
            part = part.named_children[0]
        elif part.type not in ("word", "raw_string", "string", "concatenation", "number"):
            return None
        word, subs, errors = decode(part, w.src, w.bindings)
        if subs or errors or word.value is None or word.glob:
            return None
        argv.append(word.value)
    return argv


def walk_arith(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> None:
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.type in ("command_substitution", "process_substitution"):
            saved = w.child()
            for child in cur.named_children:
                w.stmt(w, child, (*ctx, "in $(…)"), out, ())
            w.scope = saved
        else:
            stack.extend(cur.named_children)
