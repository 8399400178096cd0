"""``python -m MODULE``: which modules only read, and when the working directory on
``sys.path`` lets a workspace file shadow what they import (``-I``/``-P`` keep it off)."""

from __future__ import annotations

import posixpath

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx, path_use
from bastion.shell.disclosure import printed_as
from bastion.shell.handlers_install import install_from
from bastion.shell.model import Access, PathUse, new_path_use, read_below
from bastion.shell.programs import interpreters, python_modules
from bastion.shell.self_verbs import MODULES as SELF_MODULES
from bastion.shell.self_verbs import self_change
from bastion.shell.words import Word, literal_word

E = Effect


def isolating(option: str) -> bool:
    """Whether a python option keeps the working directory off ``sys.path`` (``-I``, ``-P``,
    alone or among clustered switches before a value-taking one)."""
    if option.startswith("--"):
        return False
    for letter in option[1:]:
        if letter in "IP":
            return True
        if letter in interpreters.PYTHON_VALUE_LETTERS:
            return False
    return False


def _safe_path_env(ctx: Ctx) -> bool:
    """``PYTHONSAFEPATH=1 python3 -m …`` and no ``PYTHONPATH`` set in the command itself."""
    names = {name: word.value for name, word in ctx.raw.assigns}
    return bool(names.get("PYTHONSAFEPATH")) and "PYTHONPATH" not in names


def python_module(ctx: Ctx, module: str | None, rest: list[Word], *, isolated: bool = False) -> None:
    if module is None:
        ctx.dynamic = True
        return
    if module in SELF_MODULES or module.startswith("bastion."):  # python -m bastion …
        why = self_change([w.value for w in rest])
        if why:
            ctx.self_change = why
            ctx.add(E.UNKNOWN, note=f"changes Bastion's own state: {why}")
    if module == "keyring":  # the keyring package's CLI, run as a module
        printed_as(ctx, "keyring", rest)
    if module in interpreters.PYTHON_MODULES_INSTALL:
        printed_as(ctx, "pip", rest)  # python -m pip config list prints what pip's would
        sub = rest[0].value if rest else None
        if sub in ("install", "uninstall") or module == "ensurepip":
            ctx.effects.discard(E.CODE)
            install_from(ctx, "pip", rest[1:])
            return
        ctx.note(f"python -m {module} {sub or ''}".strip())
        return
    path_set = any(name == "PYTHONPATH" for name, _ in ctx.raw.assigns)
    cwd_first = not (isolated or _safe_path_env(ctx))
    if module in python_modules.READ_ONLY and (path_set or (cwd_first and module == "pydoc")):
        # PYTHONPATH names where it imports from; pydoc imports the module it is given,
        # which the working directory (first on sys.path) may hold.
        ctx.add(E.CODE, note=f"python -m {module} imports from the working directory first (no -I / -P)")
        return
    if module in python_modules.READ_ONLY:
        ctx.effects.discard(E.CODE)
        ctx.add(E.READ)
        ctx.reader = True
        # Its only write is an output file its usage names (json.tool IN OUT, py_compile's
        # __pycache__): decided like the write tool's, in workspace mode.
        ctx.plain_writer = True
        if cwd_first:
            # `python -m` puts the working directory first on sys.path: a workspace json.py,
            # re.py… shadows what the module imports, and runs. The policy looks there.
            ctx.imports_cwd = True
            ctx.note(f"python -m {module} imports from the working directory first (no -I / -P)")
        _module_arguments(ctx, module, rest)
        return
    if module in ("http.server", "SimpleHTTPServer"):
        ctx.add(E.NETWORK, note=f"python -m {module} serves a folder to the network")
        served_folder(ctx, rest)
    ctx.add(E.CODE, note=f"python -m {module} runs a module")


#: ``python -m http.server``'s options that take a value (its ``--help``).
_SERVER_VALUED = frozenset({"-b", "--bind", "-d", "--directory", "-p", "--protocol"})


def served_folder(ctx: Ctx, rest: list[Word]) -> None:
    """``python -m http.server [--directory DIR]`` hands every file below DIR (default: the
    working directory) to whoever connects: a read of all of it, recursively, as ``grep -r``
    is (a credential below it is sent to anyone)."""
    why = "python -m http.server serves every file below it to the network"
    folder: Word | None = None
    i = 0
    while i < len(rest):
        v = rest[i].value
        if v is None:
            ctx.add(E.UNKNOWN, note="python -m http.server: an argument only known at run time")
            return
        name, eq, value = v.partition("=")
        if name in ("-d", "--directory"):
            if eq:
                ctx.paths.append(new_path_use(value, Access.READ, v, why, None, True))
                return
            folder = rest[i + 1] if i + 1 < len(rest) else None
        i += 2 if name in _SERVER_VALUED and not eq else 1
    if folder is None:
        ctx.paths.append(new_path_use(".", Access.READ, ".", why, None, True))
        return
    use = path_use(folder, Access.READ, why)
    if use is None:
        ctx.add(E.UNKNOWN, note="python -m http.server: the folder it serves is only known at run time")
        return
    ctx.paths.append(read_below(use))


def _module_arguments(ctx: Ctx, module: str, rest: list[Word]) -> None:
    """The arguments of a read-only ``python -m`` module, by its own usage line
    (``programs/python_modules``): json.tool's ``[infile [outfile]]`` writes its second;
    pydoc imports what it names (a path is code); an option the module's table does not know
    is unknown."""
    table = python_modules.MODULES.get(module, python_modules.ModuleOptions())
    for fixed in table.reads:  # python -m netrc prints ~/.netrc, named by no argument
        ctx.path(literal_word(fixed), Access.READ, f"python -m {module} reads {fixed} itself")
    positionals: list[Word] = []
    i = 0
    while i < len(rest):
        w = rest[i]
        v = w.value
        i += 1
        if v is None:
            ctx.add(E.UNKNOWN, note=f"python -m {module}: an argument only known at run time")
            return
        if v.startswith("-") and v != "-":
            name = v.split("=", 1)[0]
            if name in table.valued and "=" not in v:
                i += 1
            elif name not in table.switches and name not in table.valued:
                ctx.add(E.UNKNOWN, note=f"python -m {module}: option {name!r} is not in its table")
            continue
        positionals.append(w)
    if module == "py_compile" and not positionals:
        ctx.add(E.UNKNOWN, note="python -m py_compile without a file reads the names from stdin")
    for n, w in enumerate(positionals):
        access = table.positional(n)
        if module == "py_compile" and w.value == "-":
            ctx.add(E.UNKNOWN, note="python -m py_compile - reads the names of the files from stdin")
        elif module == "py_compile":  # writes DIR/__pycache__/NAME.cpython-3X.pyc beside each
            ctx.add(E.WRITE, note=f"python -m py_compile writes the bytecode of {w.text} to __pycache__")
            cache = posixpath.join(posixpath.dirname(w.value or ""), "__pycache__")
            ctx.paths.append(PathUse(cache, Access.WRITE, cache, f"bytecode cache of {w.text}"))
        if access is None:
            ctx.add(E.UNKNOWN, note=f"python -m {module}: argument {w.text!r} is not in its usage")
        elif module == "pydoc" and ("/" in (w.value or "") or (w.value or "").endswith(".py")):
            ctx.add(E.CODE, note=f"pydoc imports (runs) the file {w.text}")
        elif access is Access.WRITE:
            ctx.add(E.WRITE, note=f"python -m {module} writes its output file {w.text}")
            ctx.path(w, Access.WRITE, f"output file of python -m {module}")
        elif module != "pydoc":
            ctx.path(w, access, f"argument of python -m {module}")
