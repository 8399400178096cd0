"""The hosts a git command reaches through a remote's name: ``git push origin`` names no host,
the repository's configuration does.

``git push|fetch|pull|ls-remote [REMOTE]`` (and ``remote update``) reach the URLs git
derives from the configuration it reads (the same files and includes the gate walks for
``check_git``): the remote named, or the default one (``branch.<current>.pushRemote``,
``remote.pushDefault``, ``branch.<current>.remote``, ``origin``); its ``pushurl`` for a push
(else its ``url`` through ``url.<base>.pushInsteadOf``), its ``url`` otherwise, both through
``url.<base>.insteadOf`` (the longest prefix wins). A word that names no configured remote is
a URL or a path, as git reads it. Each URL gives its host: ``https://h/…`` gives ``h``;
``ssh://[u@]h[:p]/…`` and ``[u@]h:path`` give ``h:22`` (``h:p``), the sign of an ssh
connection (:func:`ssh_port`). A path, ``file://``, ``git://`` (not proxied) or
``transport::address`` gives none, and so does anything that cannot be read or is only
known at run time (``-c``/``--config-env`` on remote, url or branch keys, an unreadable
configuration): no host means no network for the run, as before (fail closed). Never the
URL itself: it may carry a token.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from bastion.policy.git_config import ConfigSyntax, Entry
from bastion.policy.repositories import (
    Repo,
    config_entries,
    discover,
    global_config_files,
    repository_config_files,
)
from bastion.policy.shell_git import command_dirs, invocation
from bastion.policy.tree import OsTree, Tree
from bastion.policy.treewalk import OverBudget, Reach
from bastion.policy.urls import UrlError, parse_target
from bastion.shell.model import ShellAnalysis, SimpleCommand

#: Subcommands that reach a remote, and whether they push.
REACHING = {"push": True, "fetch": False, "pull": False, "ls-remote": False}
SYSTEM_CONFIG = "/etc/gitconfig"
SSH_PORT = 22
#: Options of those subcommands that take the next word as their value (``--x=v`` never does).
_VALUED = frozenset({
    "-o", "--push-option", "--receive-pack", "--exec", "--repo", "--upload-pack", "--depth",
    "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--server-option",
    "--negotiation-tip", "--refmap", "-s", "--strategy", "-X", "--strategy-option", "--sort",
    "--filter", "--recurse-submodules-default", "--submodule-prefix", "--gpg-sign",
})  # fmt: skip
#: Config keys that change which URL a remote name reaches.
_ROUTING = ("remote.", "url.", "branch.", "include", "includeif")
_SSH_SCHEMES = frozenset({"ssh", "git+ssh", "ssh+git"})
_HTTP_SCHEMES = frozenset({"http", "https"})
_TRANSPORT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+.-]*::")
_SCP = re.compile(r"^(?:[^@/:\s]+@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?!//)")


@dataclass(frozen=True, slots=True)
class RemoteHost:
    """A host a git command reaches: ``remote`` as named (or the default one), ``host`` as a
    profile names it (``h`` for http(s), ``h:22`` for ssh)."""

    remote: str
    host: str


@dataclass(frozen=True, slots=True)
class Routing:
    """What of the configuration decides where a remote name leads."""

    urls: dict[str, list[str]]
    pushurls: dict[str, list[str]]
    instead: list[tuple[str, str]]  # (prefix, base)
    push_instead: list[tuple[str, str]]
    values: dict[str, str]  # the last value of each plain key (lowercased name)
    remotes: set[str]

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Routing:
        routing = cls({}, {}, [], [], {}, set())
        for entry in entries:
            value = entry.value
            if entry.section == "remote" and entry.subsection is not None:
                routing.remotes.add(entry.subsection)
                if entry.name == "url" and value:
                    routing.urls.setdefault(entry.subsection, []).append(value)
                elif entry.name == "pushurl" and value:
                    routing.pushurls.setdefault(entry.subsection, []).append(value)
            elif entry.section == "url" and entry.subsection is not None and value:
                if entry.name == "insteadof":
                    routing.instead.append((value, entry.subsection))
                elif entry.name == "pushinsteadof":
                    routing.push_instead.append((value, entry.subsection))
            if value is not None:
                routing.values[_plain_key(entry)] = value
        return routing


def _plain_key(entry: Entry) -> str:
    middle = f".{entry.subsection}" if entry.subsection is not None else ""
    return f"{entry.section}{middle}.{entry.name}"


def rewrite(url: str, rules: Sequence[tuple[str, str]]) -> str | None:
    """``url`` through the longest matching ``insteadOf`` prefix; None when none matches."""
    best: tuple[str, str] | None = None
    for prefix, base in rules:
        if url.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, base)
    return None if best is None else best[1] + url[len(best[0]) :]


def remote_urls(routing: Routing, remote: str, *, push: bool) -> list[str]:
    """The URLs git uses for ``remote`` (a configured name, else the word as a URL)."""
    urls = routing.urls.get(remote, []) if remote in routing.remotes else [remote]
    if push:
        pushurls = routing.pushurls.get(remote, []) if remote in routing.remotes else []
        if pushurls:
            return [rewrite(u, routing.instead) or u for u in pushurls]
        rewritten = [rewrite(u, routing.push_instead) for u in urls]
        if any(r is not None for r in rewritten):
            return [r for r in rewritten if r is not None] + [
                rewrite(u, routing.instead) or u for u, r in zip(urls, rewritten, strict=True) if r is None
            ]
    return [rewrite(u, routing.instead) or u for u in urls]


def default_remote(routing: Routing, branch: str | None, *, push: bool) -> str:
    values = routing.values
    if push:
        for key in (f"branch.{branch}.pushremote" if branch else "", "remote.pushdefault"):
            if key and values.get(key):
                return values[key]
    remote = values.get(f"branch.{branch}.remote", "") if branch else ""
    return remote or "origin"


def url_host(url: str) -> str | None:
    """The host a URL reaches as a profile names it; None for a path or an unproxied scheme."""
    text = url.strip()
    if _TRANSPORT.match(text):
        return None  # transport::address (ext::, fd::): a helper, not a host
    if "://" in text:
        try:
            parts = urlsplit(text)
            host, port = parts.hostname, parts.port
        except ValueError:
            return None
        scheme = parts.scheme.lower()
        if scheme in _HTTP_SCHEMES:
            return _checked(host, None)
        if scheme in _SSH_SCHEMES:
            return _checked(host, port or SSH_PORT)
        return None
    if text.startswith(("/", "./", "../", "~")):
        return None
    found = _SCP.match(text)
    if found is None or "/" in text[: found.end()]:
        return None
    host = found.group(1).strip("[]")
    return _checked(host, SSH_PORT) if len(host) > 1 else None  # `C:` is a drive


def _checked(host: str | None, port: int | None) -> str | None:
    if not host:
        return None
    try:
        target = parse_target(host)
    except UrlError:
        return None
    name = target.host.lower()
    if any(c in name for c in "/@ \t\n") or target.port is not None:
        return None
    if port is None:
        return name
    return f"[{name}]:{port}" if ":" in name else f"{name}:{port}"


def named_remotes(sub: str, args: Sequence[str]) -> tuple[list[str], bool] | None:
    """The remotes ``git SUB ARGS`` names (``[]``: the default one) and whether it means all
    of them (``fetch --all``); None when it reaches none (``remote`` other than ``update``)."""
    words: list[str] = []
    everything = multiple = False
    repo: str | None = None
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            words.extend(args[i:])
            break
        if word.startswith("-") and word != "-":
            name, eq, value = word.partition("=")
            if name == "--repo":
                repo = value if eq else (args[i] if i < len(args) else None)
            everything |= name == "--all"
            multiple |= name == "--multiple"
            if name in _VALUED and not eq:
                i += 1
            continue
        words.append(word)
    if sub == "remote":
        if not words or words[0] != "update":
            return None
        return (words[1:], not words[1:])
    if repo is not None and not words:
        return ([repo], False)
    if everything and sub != "push":
        return ([], True)
    if multiple:
        return (words, False)
    return (words[:1], False)


def current_branch(reach: Reach, repo: Repo) -> str | None:
    data = reach.read(posixpath.join(repo.git_dir, "HEAD"))
    text = (data or b"").decode("utf-8", "replace").strip()
    return text[len("ref: refs/heads/") :] if text.startswith("ref: refs/heads/") else None


def remote_hosts(
    reach: Reach, dirs: Sequence[str], git_dir: str | None, sub: str, args: Sequence[str], home: str
) -> tuple[RemoteHost, ...]:
    """The hosts ``git SUB ARGS`` (run in each of ``dirs``, or on ``git_dir``) reaches through
    the configuration; () when it reaches none or they cannot be known (fail closed)."""
    named = named_remotes(sub, args) if sub in (*REACHING, "remote") else None
    if named is None:
        return ()
    words, everything = named
    push = REACHING.get(sub, False)
    found: list[RemoteHost] = []
    try:
        repos = [Repo(git_dir, None)] if git_dir is not None else [discover(reach, d) for d in dirs]
        for repo in dict.fromkeys(r for r in repos if r is not None):
            files = [(p, False) for p in repository_config_files(reach, repo)]
            files += [(p, False) for p in (*global_config_files(home), SYSTEM_CONFIG)]
            routing = Routing.of(entry for _, entry, _ in config_entries(reach, files, home))
            if everything:
                remotes = list(routing.urls)
            elif words:
                remotes = list(words)
            else:
                remotes = [default_remote(routing, current_branch(reach, repo), push=push)]
            for remote in remotes:
                for url in remote_urls(routing, remote, push=push):
                    host = url_host(url)
                    if host is not None:
                        found.append(RemoteHost(remote, host))
    except (OSError, ConfigSyntax, OverBudget):
        return ()
    return tuple(dict.fromkeys(found))


def routing_overridden(config_pairs: Iterable[str]) -> bool:
    """Does a ``-c KEY=VALUE`` / ``--config-env KEY=ENV`` change where a remote leads?"""
    return any(pair.partition("=")[0].lower().startswith(_ROUTING) for pair in config_pairs)


def command_remote_hosts(
    reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None, home: str
) -> tuple[RemoteHost, ...]:
    """:func:`remote_hosts` of one simple command: () for anything but a git command whose
    words, folders and routing configuration are all known now."""
    if cmd.program != "git" or cmd.dynamic or cmd.dynamic_words or cwds is None:
        return ()
    inv = invocation(cmd, cwds, home)
    if isinstance(inv, str) or inv.sub is None or routing_overridden(_config_pairs(cmd.argv)):
        return ()
    return remote_hosts(reach, inv.dirs, inv.git_dir, inv.sub, inv.args, home)


def _config_pairs(argv: Sequence[str]) -> list[str]:
    """The ``-c`` and ``--config-env`` values among git's global options."""
    pairs: list[str] = []
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        word = argv[i]
        if word in ("-c", "--config-env") and i + 1 < len(argv):
            pairs.append(argv[i + 1])
            i += 1
        elif word.startswith(("--config-env=", "-c")) and word not in ("-c",):
            pairs.append(word.partition("=")[2] if word.startswith("--") else word[2:])
        i += 1
    return pairs


def analysis_remote_hosts(
    analysis: ShellAnalysis, cwd: str, home: str, tree: Tree | None = None
) -> tuple[str, ...]:
    """The hosts every git command of ``analysis`` reaches through a remote's name, read from
    the file system as the gate read it (the containment stage's share of the profile)."""
    reach = Reach(tree or OsTree(), os.path.realpath)
    dirs = command_dirs(analysis.commands, cwd, home, cdpath="CDPATH" in analysis.source)
    found = (
        remote.host
        for cmd, cwds in zip(analysis.commands, dirs, strict=True)
        for remote in command_remote_hosts(reach, cmd, cwds, home)
    )
    return tuple(dict.fromkeys(found))
