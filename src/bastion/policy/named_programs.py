"""A write to a file that existing config already names as a program, or includes as config.

What git runs on a read (a repository's ``core.fsmonitor``, a ``textconv`` driver,
``diff.external``, an alias ``!cmd``), the file a repository's config includes (it *is*
repository config), the toolchain ``rust-toolchain.toml`` names by ``path``, the
``rustc-wrapper`` of ``.cargo/config.toml``, the ``script-shell`` of ``.npmrc``, the
``yarnPath`` of ``.yarnrc.yml``: writing that file is writing the code the next ordinary
command runs, whatever its name. Each is found through the config that names it, the way
the tool reads it, never by a fixed file name: git's through ``repositories.config_entries``
(the repository holding the written file, and the person's own config), the toolchain
files' in the written file's folder and its parents up to its write root. All reads go
through the call's ``Reach``; a config that cannot be read asks (fail closed).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_config import ConfigSyntax, Entry, is_include, parse, runs_program
from bastion.policy.paths import PathVerdict
from bastion.policy.repositories import (
    Repo,
    discover,
    global_config_files,
    include_target,
    repository_config_files,
)
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach

#: A word of a command line that names a file by a path (it has a slash).
_SEPARATORS = re.compile(r"[\s;|&<>()`'\"]+")
_PATHLIKE = re.compile(r"^[~.]?[^\s;|&<>()$`]*/[^\s;|&<>()$`]*$")


@dataclass(frozen=True, slots=True)
class NamingFile:
    """A toolchain file that names programs: ``name`` below a folder, the keys whose values
    are programs, and the folder relative values are taken from (``base_up`` levels up)."""

    name: str
    keys: re.Pattern[str]
    base_up: int = 0
    #: The value is a path even without a slash (a toolchain folder, yarn's own script); a
    #: command's bare word is looked up on PATH instead.
    path_valued: bool = False


def _keys(*names: str) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"""^\s*["']?(?:{alternatives})["']?\s*[=:]\s*(.+?)\s*$""", re.MULTILINE)


#: The toolchain files whose settings name a program or a toolchain folder (what runs when
#: ``cargo --version``, ``npm run``, ``yarn -v`` start in that folder or below it).
NAMING_FILES: tuple[NamingFile, ...] = (
    NamingFile("rust-toolchain.toml", _keys("path"), path_valued=True),
    NamingFile("rust-toolchain", _keys("path"), path_valued=True),
    NamingFile(".cargo/config.toml", _keys("rustc", "rustc-wrapper", "rustc-workspace-wrapper",
                                          "rustdoc", "linker", "runner"), base_up=1),
    NamingFile(".cargo/config", _keys("rustc", "rustc-wrapper", "rustc-workspace-wrapper",
                                     "rustdoc", "linker", "runner"), base_up=1),
    NamingFile(".npmrc", _keys("script-shell", "shell", "git", "onload-script", "node-options")),
    NamingFile(".yarnrc.yml", _keys("yarnPath", "path"), path_valued=True),
    NamingFile(".yarnrc.yml", _keys("nodeOptions")),
    NamingFile(".yarnrc", _keys("yarn-path"), path_valued=True),
)  # fmt: skip


def named_program_reason(policy: Policy, reach: Reach, verdict: PathVerdict) -> Reason | None:
    """An ASK when the written file (``verdict``, a write inside a write root) is, or is
    below, what a repository's or a toolchain's config names as a program or includes."""
    spellings = tuple(dict.fromkeys((verdict.lexical, verdict.resolved)))
    roots = [r for r in policy.write_roots if any(_under(p, r) for p in spellings)]
    if verdict.decision is Decision.DENY or not roots:
        return None
    try:
        named = [
            *_git_named(reach, verdict.resolved, policy.home, roots),
            *_toolchain_named(reach, spellings, roots),
        ]
    except (OSError, ConfigSyntax, OverBudget, UnicodeDecodeError) as exc:
        return _ask(
            verdict.lexical, f"cannot tell whether {verdict.lexical} is a program config names: {exc}"
        )
    for target, why in named:
        if any(_under(p, target) for p in spellings):
            return _ask(
                f"{verdict.lexical} ~ {target}",
                f"{verdict.lexical} is {why}: the next ordinary command runs what is written there, "
                "so a person must confirm",
            )
    return None


def _git_named(reach: Reach, path: str, home: str, roots: list[str]) -> Iterator[tuple[str, str]]:
    """What the git config of the repository holding ``path`` (and the person's own), and of
    each repository beside its folders (``_nested``), names: each file it includes and each
    program a setting runs."""
    repo = discover(reach, posixpath.dirname(path))
    repos = [*([repo] if repo is not None else []), *_nested(reach, path, roots)]
    todo: list[tuple[str, int, str | None]] = [
        (f, 0, r.work_tree or r.git_dir) for r in repos for f in repository_config_files(reach, r)
    ]
    todo += [(f, 0, None) for f in global_config_files(home)]
    seen: set[str] = set()
    while todo:
        config, depth, base = todo.pop(0)
        if config in seen:
            continue
        seen.add(config)
        data = reach.read(config)
        if data is None:
            continue
        for entry in parse(data.decode("utf-8")):
            if is_include(entry):
                included, deeper = include_target(entry, config, home, depth)
                included = posixpath.normpath(included)
                yield included, f"a file {config} includes: it is git configuration"
                todo.append((included, deeper, base))
            else:
                for program in git_programs(entry, config, base):
                    yield _place(program, "", home), f"the program {entry.key} of {config} runs"


#: Folders beside the written file's own looked at for a repository, at most, per write.
_NESTED_LOOKS = 128


def _nested(reach: Reach, path: str, roots: list[str]) -> list[Repo]:
    """The repositories in the folders beside the written file's folders, up to its write
    root (``vendor/inc`` for ``vendor/inc.cfg``): a nested repository's config includes any
    file by any path (``[include] path = ../inc.cfg``; #31, suite E), and git loads it in
    that repository (``git -C vendor/inc status``). Bounded: ``_NESTED_LOOKS`` folders."""
    found: list[Repo] = []
    looks = _NESTED_LOOKS
    folder = posixpath.dirname(path)
    while looks > 0 and any(_under(folder, r) for r in roots):
        for entry in reach.listdir(folder):
            if entry.kind is not Kind.DIR or entry.name == ".git" or looks <= 0:
                continue
            looks -= 1
            dotgit = f"{folder.rstrip('/')}/{entry.name}/.git"
            if reach.kind(dotgit, follow=True) is Kind.DIR:
                found.append(Repo(dotgit, posixpath.dirname(dotgit)))
        parent = posixpath.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return found


def git_programs(entry: Entry, config: str, base: str | None) -> list[str]:
    """The files a git setting of ``config`` runs, when it runs a program: each path-like
    word, taken from the work tree (``base``) and from the config's folder."""
    if not (runs_program(entry) and entry.value):
        return []
    folders = dict.fromkeys(f for f in (base, posixpath.dirname(config)) if f)
    return [
        posixpath.join(f, w) if not w.startswith("~") else w
        for w in _program_words(entry.value)
        for f in folders
    ]


def _toolchain_named(reach: Reach, spellings: tuple[str, ...], roots: list[str]) -> Iterator[tuple[str, str]]:
    """What the toolchain files in each written spelling's folder and its parents (up to
    its write root) name."""
    for spelled in spellings:
        root = max((r for r in roots if _under(spelled, r)), key=len, default=None)
        folder = posixpath.dirname(spelled)
        while root is not None and _under(folder, root):
            for naming in NAMING_FILES:
                config = posixpath.join(folder, naming.name)
                if reach.kind(config, follow=True) is Kind.MISSING:
                    continue  # looked up once per call (cached): most folders have none
                data = reach.read(config)
                if data is None:
                    continue
                for target in toolchain_programs(naming, config, data):
                    yield target, f"the program or toolchain {config} names"
            if folder == root:
                break
            folder = posixpath.dirname(folder)


def toolchain_programs(naming: NamingFile, config: str, data: bytes) -> list[str]:
    """What the toolchain file ``config`` (of ``naming``'s kind, holding ``data``) names."""
    base = posixpath.dirname(config)
    for _ in range(naming.base_up):
        base = posixpath.dirname(base)
    out: list[str] = []
    for value in naming.keys.findall(data.decode("utf-8", "replace")):
        value = value.strip().strip("\"'")
        words = [value] if naming.path_valued and value else _program_words(value)
        out += [_place(word, base, "") for word in words]
    return out


def named_by(path: str) -> list[str]:
    """For the sandbox (``exec/protected.py``, no budget: one file of at most 1 MB read from
    disk): what the git config or toolchain file at ``path`` names as a program. A file that
    cannot be read or parsed names nothing here (the gate asks about it)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(1_000_000)
    except OSError:
        return []
    namings = [n for n in NAMING_FILES if path.endswith("/" + n.name)]
    if namings:
        return [t for n in namings for t in toolchain_programs(n, path, data)]
    try:
        entries = parse(data.decode("utf-8"))
    except (ConfigSyntax, UnicodeDecodeError):
        return []
    gitdir = posixpath.dirname(path)
    base = posixpath.dirname(gitdir) if posixpath.basename(gitdir) == ".git" else gitdir
    return [posixpath.normpath(p) for e in entries for p in git_programs(e, path, base) if p.startswith("/")]


def hg_programs(hgrc: str) -> list[str]:
    """For the sandbox: the files a repository's ``.hg/hgrc`` names as code -- an
    ``[extensions]`` path, a ``[hooks]`` command's words or ``python:FILE:function``. Each
    relative one is placed both beside the ``.hg`` folder's repository and inside ``.hg``
    (naming one too many is the safe side); what lies outside the repository is left out.
    A file that cannot be read names nothing."""
    try:
        with open(hgrc, "rb") as handle:
            text = handle.read(1_000_000).decode("utf-8", "replace")
    except OSError:
        return []
    hgdir = posixpath.dirname(hgrc)
    bases = (posixpath.dirname(hgdir), hgdir)
    section, words = "", []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
        elif "=" in stripped and not stripped.startswith(("#", ";")) and section in ("extensions", "hooks"):
            value = stripped.split("=", 1)[1].strip()
            if section == "extensions" and value and not value.startswith("!"):
                words.append(value)
            elif value.startswith("python:"):
                words.append(value[len("python:") :].rsplit(":", 1)[0])
            elif section == "hooks":
                words += _program_words(value)
    # Only what lies in the repository: nothing outside it is a contained run's to write.
    placed = (_place(w, b, "") for w in words if not w.startswith("~") for b in bases)
    return [p for p in placed if _under(p, bases[0])]


def _program_words(value: str) -> list[str]:
    """The words of a command line (an alias's ``!`` dropped, a ``sh -c`` script's own
    words too: every word split again at blanks and shell operators) that name a file by a
    path: naming one too many is the safe side."""
    text = value.strip().removeprefix("!")
    try:
        words = shlex.split(text, comments=False)
    except ValueError:
        words = text.split()
    out: list[str] = []
    for word in words:
        for part in _SEPARATORS.split(word):
            part = part.split("=", 1)[1] if part.startswith("-") and "=" in part else part
            if _PATHLIKE.match(part):
                out.append(part)
    return out


def _place(word: str, base: str, home: str) -> str:
    if home and (word == "~" or word.startswith("~/")):
        word = home + word[1:]
    return posixpath.normpath(posixpath.join(base, word))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _ask(matched: str, message: str) -> Reason:
    return Reason(Decision.ASK, "hardline.agent-config", "built-in", matched[:200], message)
