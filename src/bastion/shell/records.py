"""Cheap construction of the classifier's frozen records on its hot path.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``
(its own ``__setattr__`` refuses): ≈150 ns a field, 2-4 µs for a ``Word`` or a
``SimpleCommand``, a fifth of the time of a whole analysis. ``builder(cls)`` returns a
mutable twin of ``cls`` with the same fields, defaults and slots (so its ``__init__`` stores
each field with a plain slot write) that hands its instance ``cls`` as its class once
initialised. What it returns is an ordinary, immutable ``cls`` instance: equality, hash,
repr and ``dataclasses.replace`` are those of ``cls`` (tests/shell/test_records.py).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")


def builder(cls: type[T]) -> type[T]:
    """A constructor with ``cls``'s signature building ``cls`` instances (see module docs).
    Typed as ``type[T]`` so mypy checks every call against ``cls``'s own fields."""
    params = cast(Any, cls).__dataclass_params__
    if not (params.frozen and "__slots__" in cls.__dict__) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: builder() takes a frozen slotted dataclass without __post_init__")
    spec: list[tuple[str, Any, Any]] = []
    for f in dataclasses.fields(cast(Any, cls)):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: builder() needs every field in __init__")
        if f.default is not dataclasses.MISSING:
            spec.append((f.name, f.type, dataclasses.field(default=f.default)))
        elif f.default_factory is not dataclasses.MISSING:
            spec.append((f.name, f.type, dataclasses.field(default_factory=f.default_factory)))
        else:
            spec.append((f.name, f.type, dataclasses.field()))

    def __post_init__(self: Any) -> None:
        self.__class__ = cls  # same slots, same layout: CPython allows the switch

    twin = dataclasses.make_dataclass(
        f"{cls.__name__}Builder",
        spec,
        namespace={"__post_init__": __post_init__, "__module__": cls.__module__},
        slots=True,
        eq=False,
        repr=False,
        match_args=False,
    )
    return cast("type[T]", twin)


def replacer(cls: type[T]) -> Callable[..., T]:
    """``dataclasses.replace`` for ``cls`` built by ``builder(cls)``: a fraction of its cost
    (it checks nothing but the field names, which ``replace`` checks too)."""
    build: Any = builder(cls)
    names = tuple(f.name for f in dataclasses.fields(cast(Any, cls)))
    index = {name: i for i, name in enumerate(names)}
    values = operator.attrgetter(*names)

    def replace(obj: T, /, **changes: Any) -> T:
        fields = list(values(obj))
        for name, value in changes.items():
            if name not in index:
                raise TypeError(f"{cls.__name__} has no field {name!r}")
            fields[index[name]] = value
        return cast(T, build(*fields))

    return replace
