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
    names: list[str] = []
    signature: list[str] = []
    defaults: dict[str, Any] = {"__cls": cls, "__factory": _FACTORY}
    for f in dataclasses.fields(cast(Any, cls)):
        if not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: builder() needs every field positional in __init__")
        names.append(f.name)
        if f.default is not dataclasses.MISSING:
            defaults[f"__d_{f.name}"] = f.default
            signature.append(f"{f.name}=__d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            defaults[f"__f_{f.name}"] = f.default_factory
            signature.append(f"{f.name}=__factory")
        else:
            signature.append(f.name)
    body = [f"self.{n} = {n}" if f"__f_{n}" not in defaults else _from_factory(n) for n in names]
    # The class switch last: same slots, same layout, so CPython allows it.
    source = f"def __init__(self, {', '.join(signature)}):\n " + "\n ".join([*body, "self.__class__ = __cls"])
    exec(source, defaults)  # the way dataclasses writes every __init__
    twin = type(f"{cls.__name__}Builder", (), {"__slots__": tuple(names), "__init__": defaults["__init__"]})
    twin.__module__ = cls.__module__
    return cast("type[T]", twin)


#: Stands for "not given" where a field's default comes from a factory.
_FACTORY = object()


def _from_factory(name: str) -> str:
    return f"self.{name} = __f_{name}() if {name} is __factory else {name}"


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
