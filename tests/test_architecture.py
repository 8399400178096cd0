"""The shape of the source tree: no import cycles, small modules and functions, layers one way.

Read with ``ast`` only (nothing is imported). An import anywhere counts — at module level or
inside a function — except under ``if TYPE_CHECKING:``, which never runs. Importing
``a.b.c`` also imports the packages ``a`` and ``a.b`` (their ``__init__``), so a package whose
``__init__`` re-exports its own modules is in a cycle with every one of them that imports a
sibling: such an ``__init__`` loads its names on first use instead (``__getattr__``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80

#: The core: the call vocabulary, the shell classifier and the policy engine. Pure logic.
CORE = ("bastion.call", "bastion.shell", "bastion.policy")
#: What the core may import besides itself: the error types and the registry of agents
#: (pure data: where each agent keeps its settings is what the hard line protects).
CORE_MAY_IMPORT = ("bastion.errors", "bastion.agents")
#: Entry points: each translates its protocol and calls the runtime.
ADAPTERS = ("bastion.adapters",)
#: Stores and I/O the core never reaches (it gets Protocols passed in instead).
STORES_AND_IO = (
    "bastion.state",
    "bastion.postgres",
    "bastion.audit",
    "bastion.approval",
    "bastion.keys",
    "bastion.exec",
    "bastion.runtime",
    "bastion.tools",
    "bastion.launch",
    "bastion.evidence",
)
#: Stores never import an entry point.
STORES = ("bastion.state", "bastion.postgres")


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    imports: set[str] = field(default_factory=set)  # runtime imports, for cycles
    type_imports: set[str] = field(default_factory=set)  # also TYPE_CHECKING-only, for layers


def _name_of(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: Module, names: set[str]) -> Iterator[tuple[str, bool]]:
    """(imported module, runs at import time) for every import statement in ``tree``."""

    def visit(node: ast.AST, typing_only: bool) -> Iterator[tuple[str, bool]]:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                yield from visit(child, True)
            for child in node.orelse:
                yield from visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, typing_only
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.name.split(".")
                if not module.is_package:
                    anchor.pop()
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, typing_only
            for alias in node.names:
                if f"{base}.{alias.name}" in names:
                    yield f"{base}.{alias.name}", typing_only
        for child in ast.iter_child_nodes(node):
            yield from visit(child, typing_only)

    yield from visit(tree, False)


def _with_parents(name: str, names: set[str]) -> Iterator[str]:
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        prefix = ".".join(parts[:end])
        if prefix in names:
            yield prefix


@cache
def modules() -> dict[str, Module]:
    found: dict[str, Module] = {}
    trees: dict[str, ast.AST] = {}
    for path in sorted((SRC / "bastion").rglob("*.py")):
        name, is_package = _name_of(path)
        found[name] = Module(name, path, is_package)
        trees[name] = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set(found)
    for name, module in found.items():
        for target, typing_only in _imports(trees[name], module, names):
            for imported in _with_parents(target, names):
                if imported == name:
                    continue
                module.type_imports.add(imported)
                if not typing_only:
                    module.imports.add(imported)
    return found


def cycles(graph: dict[str, list[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def long_modules() -> set[str]:
    return {
        name
        for name, m in modules().items()
        if len(m.path.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES
    }


def long_functions() -> set[str]:
    found = set()
    for name, m in modules().items():
        tree = ast.parse(m.path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    found.add(f"{name}.{node.name}")
    return found


def _inside(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _edges_from(sources: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    for name, m in modules().items():
        if _inside(name, sources):
            for imported in m.type_imports:
                yield name, imported


def _show(components: set[frozenset[str]]) -> list[list[str]]:
    return sorted(sorted(c) for c in components)


def test_no_module_imports_itself_back_through_any_chain() -> None:
    graph = {name: sorted(m.imports) for name, m in modules().items()}
    assert _show(set(cycles(graph))) == []


def test_the_cycle_finder_finds_every_cycle_and_only_cycles() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e", "d"], "f": ["g"], "g": ["f"]}
    assert _show(set(cycles(graph))) == [["a", "b", "c"], ["f", "g"]]


def test_no_module_is_over_400_lines() -> None:
    assert sorted(long_modules()) == []


def test_no_function_is_over_80_lines() -> None:
    assert sorted(long_functions()) == []


def _core_breaks() -> set[tuple[str, str]]:
    return {
        (src, dst)
        for src, dst in _edges_from(CORE)
        if not _inside(dst, CORE) and not _inside(dst, CORE_MAY_IMPORT) and dst != "bastion"
    }


def _store_breaks() -> set[tuple[str, str]]:
    sources = (*STORES, "bastion.runtime", "bastion.audit", "bastion.approval")
    return {e for e in _edges_from(sources) if _inside(e[1], ADAPTERS)}


def _http_cli_breaks() -> set[tuple[str, str]]:
    edges = _edges_from(("bastion.adapters.http",))
    return {e for e in edges if _inside(e[1], ("bastion.adapters.cli",))}


def test_the_core_imports_only_itself_and_the_error_types() -> None:
    assert sorted(_core_breaks()) == []


def test_the_core_imports_no_adapter_store_or_io_package() -> None:
    # The rule above, said the way the layers are drawn: adapters -> runtime -> core.
    assert sorted(e for e in _edges_from(CORE) if _inside(e[1], ADAPTERS + STORES_AND_IO)) == []


def test_stores_and_the_runtime_import_no_adapter() -> None:
    assert sorted(_store_breaks()) == []


def test_the_http_adapter_does_not_import_the_cli() -> None:
    assert sorted(_http_cli_breaks()) == []


def test_no_decider_or_stage_imports_the_engine_back() -> None:
    # The engine dispatches to the deciders; they get a stages.Context, never the Gate.
    found = {src for src, dst in _edges_from(CORE) if dst == "bastion.policy.engine"}
    assert sorted(found) == []


def test_inside_the_core_call_is_below_shell_and_shell_below_policy() -> None:
    # The vocabulary (calls, effects) is shared from below: the classifier never reaches up
    # into the engine, and the call model knows neither.
    upward = {
        (src, dst)
        for src, dst in _edges_from(("bastion.call", "bastion.shell"))
        if _inside(dst, ("bastion.policy",))
        or (_inside(src, ("bastion.call",)) and _inside(dst, ("bastion.shell",)))
    }
    assert sorted(upward) == []


def test_the_reader_sees_relative_nested_and_typing_only_imports() -> None:
    # The checker itself: a cycle it cannot see is a cycle it cannot fail on.
    mods = modules()
    assert "bastion.policy" in mods["bastion.policy.engine"].imports  # a package's __init__
    assert "bastion.policy.shell_policy" in mods["bastion.policy.engine"].imports  # in a function
    assert "bastion.shell.model" in mods["bastion.policy.engine"].type_imports  # TYPE_CHECKING
    assert "bastion.shell.model" not in mods["bastion.policy.engine"].imports
    assert "bastion" in mods["bastion.call.model"].imports
    assert all(name.startswith("bastion") for m in mods.values() for name in m.imports)


#: The allowed package order, bottom to top: a package imports only packages of its own
#: layer or below (at module level, in a function or for typing alone). ``exec`` is the
#: runner, right above the core: it reaches the gate only through Protocols passed in.
PACKAGE_ORDER: tuple[tuple[str, ...], ...] = (
    ("bastion.errors",),
    ("bastion.agents",),
    ("bastion.call",),
    ("bastion.shell",),
    ("bastion.policy",),
    ("bastion.exec",),
    ("bastion.opinion", "bastion.launch"),
    ("bastion.audit", "bastion.approval", "bastion.keys", "bastion.delegation"),
    ("bastion.runtime",),
    (
        "bastion.state",
        "bastion.postgres",
        "bastion.configuration",
        "bastion.boot",
        "bastion.construct",
        "bastion.lifecycle",
        "bastion.policy_edit",
    ),
    ("bastion.tools",),
    ("bastion.adapters", "bastion.evidence"),
)
#: Upward edges allowed by name: the configuration reads the adapters' own settings sections.
UPWARD_ALLOWED = frozenset(
    {
        ("bastion.configuration", "bastion.adapters.hooks.settings"),
        ("bastion.configuration", "bastion.adapters.http.settings"),
    }
)


def layer_of(name: str) -> int | None:
    for level, packages in enumerate(PACKAGE_ORDER):
        if _inside(name, packages):
            return level
    return None


def _order_breaks() -> set[tuple[str, str]]:
    found = set()
    for src, dst in _edges_from(("bastion",)):
        low, high = layer_of(src), layer_of(dst)
        if low is None or high is None or high <= low:
            continue
        # Importing ``a.b.c`` imports its packages ``a`` and ``a.b`` too: those are allowed with it.
        if not any(src == a and (dst == b or b.startswith(dst + ".")) for a, b in UPWARD_ALLOWED):
            found.add((src, dst))
    return found


def test_every_package_has_its_place_in_the_order() -> None:
    placed = {name.split(".")[1] for name in modules() if name.count(".") >= 1}
    assert sorted(p for p in placed if layer_of(f"bastion.{p}") is None) == []


def test_no_package_imports_one_above_it_in_the_order() -> None:
    assert sorted(_order_breaks()) == []


def test_the_runner_imports_no_gatekeeper_constructor_tool_or_adapter() -> None:
    above = ("bastion.construct", "bastion.tools", "bastion.adapters", "bastion.runtime", "bastion.approval")
    assert sorted(e for e in _edges_from(("bastion.exec",)) if _inside(e[1], above)) == []


def test_the_order_check_sees_an_upward_import() -> None:
    # The checker itself: the hooks adapter imports the runtime, which is below it.
    assert layer_of("bastion.runtime.keeper") < layer_of("bastion.adapters.hooks.decide")  # type: ignore[operator]
    assert layer_of("bastion.exec.select") < layer_of("bastion.runtime.contain")  # type: ignore[operator]
