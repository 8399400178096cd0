"""A repeated shell call answered again when nothing it looked at has changed.

A shell decision is a function of the call (command, cwd, interactivity), the gate's policy,
and the answers the file system gave while deciding. The gate records those answers at the
ports (``FileSystem.resolve``, ``Tree.scandir``/``kind``/``read``: what the file system was
really asked, below every per-call memo) together with the Evaluation. When the same call
comes again, the file system is asked the same questions afresh, in the same order; only if
every answer is the one recorded is the recorded Evaluation returned, since the decision
would take the same path through the same answers. One changed answer (a symlink repointed,
a file added) and the call is decided afresh. No answer is ever reused: a recorded answer is
only what the new one is compared with. Recording costs a little, and most calls come once:
a call is only remembered the first time it is seen, recorded the second, replayed after.
Never recorded (decided afresh every time): a call that used the resolver (a host's
addresses may change with no file changing), one whose answers are large (long walks, big
reads), and ``explain``.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from bastion.call.model import ToolCall
from bastion.policy.decision import Evaluation
from bastion.policy.network import Resolver
from bastion.policy.paths import FileId, FileSystem
from bastion.policy.tree import Entry, Kind, Tree
from bastion.policy.urls import IPAddress

#: Calls kept per gate; answers recorded per call at most (a walk of a large tree is not kept).
MAX_CALLS = 1024
MAX_ANSWERS = 256
MAX_READ_BYTES = 64 * 1024
#: Directory entries kept per call at most (a listing is kept whole, to compare it whole).
MAX_ENTRIES = 4096

_RESOLVE, _KIND, _SCANDIR, _READ, _IDENTITY = range(5)


@dataclass(frozen=True, slots=True)
class Raised:
    """An answer that was an OSError: equal when its type, arguments and text are."""

    kind: type[OSError]
    args: tuple[object, ...]
    text: str

    @classmethod
    def of(cls, exc: OSError) -> Raised:
        return cls(type(exc), exc.args, str(exc))


Answer = str | Kind | tuple[Entry, ...] | bytes | Raised | FileId | None
Question = tuple[int, str, object, Answer]  # (which port, path, its other argument, answer)


class Recording:
    """The ports one decision looks through (its file system and its tree, in one object),
    each answer written down in order."""

    __slots__ = ("answers", "entries", "fs", "read_bytes", "resolver", "resolver_used", "tree")

    def __init__(self, fs: FileSystem, tree: Tree, resolver: Resolver | None) -> None:
        self.fs = fs
        self.tree = tree
        self.resolver = resolver
        self.answers: list[Question] = []
        self.read_bytes = 0
        self.entries = 0
        self.resolver_used = False

    def keep(self) -> bool:
        return (
            not self.resolver_used
            and len(self.answers) <= MAX_ANSWERS
            and self.read_bytes <= MAX_READ_BYTES
            and self.entries <= MAX_ENTRIES
        )

    def resolve(self, path: str) -> str:
        try:
            found = self.fs.resolve(path)
        except OSError as exc:
            self.answers.append((_RESOLVE, path, None, Raised.of(exc)))
            raise
        self.answers.append((_RESOLVE, path, None, found))
        return found

    def identity(self, path: str) -> FileId | None:
        found = self.fs.identity(path)
        self.answers.append((_IDENTITY, path, None, found))
        return found

    def kind(self, path: str, *, follow: bool) -> Kind:
        try:
            found = self.tree.kind(path, follow=follow)
        except OSError as exc:
            self.answers.append((_KIND, path, follow, Raised.of(exc)))
            raise
        self.answers.append((_KIND, path, follow, found))
        return found

    def scandir(self, path: str) -> tuple[Entry, ...]:
        try:
            found = self.tree.scandir(path)
        except OSError as exc:
            self.answers.append((_SCANDIR, path, None, Raised.of(exc)))
            raise
        self.entries += len(found)
        self.answers.append((_SCANDIR, path, None, found))
        return found

    def read(self, path: str, limit: int) -> bytes:
        try:
            found = self.tree.read(path, limit)
        except OSError as exc:
            self.answers.append((_READ, path, limit, Raised.of(exc)))
            raise
        self.read_bytes += len(found)
        self.answers.append((_READ, path, limit, _digest(found)))
        return found


class RecordingResolver:
    __slots__ = ("_log",)

    def __init__(self, log: Recording) -> None:
        self._log = log

    def resolve(self, host: str) -> Sequence[IPAddress]:
        self._log.resolver_used = True
        assert self._log.resolver is not None  # only made when there is one
        return self._log.resolver.resolve(host)


def _ask(question: Question, fs: FileSystem, tree: Tree) -> Answer:
    which, path, other, _ = question
    try:
        if which == _RESOLVE:
            return fs.resolve(path)
        if which == _KIND:
            return tree.kind(path, follow=bool(other))
        if which == _IDENTITY:
            return fs.identity(path)
        if which == _SCANDIR:
            return tree.scandir(path)
        return _digest(tree.read(path, int(other)))  # type: ignore[call-overload]
    except OSError as exc:
        return Raised.of(exc)


def _digest(data: bytes) -> bytes:
    """What a read answer is kept as: its digest, not its bytes (a kept call holds at most
    32 bytes per read, however large the file)."""
    return hashlib.blake2b(data, digest_size=32).digest()


@dataclass(frozen=True, slots=True)
class Recorded:
    answers: tuple[Question, ...]
    evaluation: Evaluation
    #: What else the decision read, by identity: the file system and tree asked, then the
    #: resolver, policy, sandbox flag and parser of the gate (a test may swap any of them).
    gate: tuple[object, ...]

    def still(self, fs: FileSystem, tree: Tree, gate: tuple[object, ...]) -> bool:
        """Is it the same gate over the same ports, and does each port give the answer it
        gave then, in the same order?"""
        if len(gate) != len(self.gate) or any(a is not b for a, b in zip(gate, self.gate, strict=True)):
            return False
        return all(_ask(q, fs, tree) == q[3] for q in self.answers)


def call_key(call: ToolCall) -> tuple[object, ...] | None:
    """What of a shell call its decision reads (command, cwd, interactivity), with every
    other argument too; None when an argument is not hashable (such a call is not kept)."""
    key = (tuple(sorted(call.args.items())), call.cwd, call.interactive)
    try:
        hash(key)
    except TypeError:
        return None
    return key


#: A call seen once and not recorded: only its second sighting is (most calls come once,
#: and recording costs; a repeated one is recorded the second time, replayed from the third).
SEEN = object()


class Replays:
    """The recorded shell calls of one gate: bounded, least recently used first out,
    thread-safe."""

    def __init__(self, size: int = MAX_CALLS) -> None:
        self._size = size
        self._items: OrderedDict[tuple[object, ...], Recorded | object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[object, ...]) -> Recorded | object | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[object, ...], recorded: Recorded | object) -> None:
        with self._lock:
            self._items[key] = recorded
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
