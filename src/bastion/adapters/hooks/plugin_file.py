"""Agents whose hooks are code (opencode's plugins): Bastion's plugin is one file it writes
into the folder the agent loads plugins from, rendered from a template shipped in
``plugins/`` with the hook command baked in.

The file is Bastion's alone: ``install`` writes it (and rewrites it when the command or the
timeout changed), ``uninstall`` deletes it. A file at that path that Bastion did not write
is never overwritten nor removed. Its first line names it as Bastion's; that line is how
install and uninstall tell.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from bastion.adapters.hooks.targets import hook_file
from bastion.agents.model import SettingsStyle
from bastion.agents.registry import hooked, hooks_of
from bastion.errors import BastionError

#: The first line of every plugin Bastion writes.
MARK = "// Bastion's gate for"
HOOK_SLOT = '"__BASTION_HOOK__"'
TIMEOUT_SLOT = '"__BASTION_TIMEOUT_MS__"'


class PluginFileError(BastionError, ValueError):
    pass


@dataclass(frozen=True, slots=True)
class PluginFile:
    """Where one agent's Bastion plugin goes and which template it is rendered from."""

    agent: str
    path: str
    template: str


def template(name: str) -> str:
    return (resources.files("bastion.adapters.hooks") / "plugins" / name).read_text(encoding="utf-8")


def render(plugin: PluginFile, command: Sequence[str], timeout: int) -> str:
    """The template with the hook command (a JSON array of words, itself a JS string) and
    its timeout in milliseconds filled in."""
    source = template(plugin.template)
    if not source.startswith(MARK) or HOOK_SLOT not in source or TIMEOUT_SLOT not in source:
        raise PluginFileError(f"the {plugin.template} template shipped with Bastion is damaged")
    words = json.dumps(json.dumps(list(command)))
    return source.replace(HOOK_SLOT, words).replace(TIMEOUT_SLOT, str(int(timeout) * 1000))


def read(path: str) -> str | None:
    """The file's text; None when there is none. Raises when someone else's file is there."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PluginFileError(f"cannot read {path}: {exc}") from exc
    if not text.startswith(MARK):
        raise PluginFileError(f"{path} is not Bastion's plugin; move it away first, nothing was changed")
    return text


def write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.bastion-tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


def command_of(text: str) -> list[str] | None:
    """The hook command a written plugin runs (for ``doctor``); None when it cannot be read."""
    for line in text.splitlines():
        if line.startswith("const BASTION_HOOK = "):
            literal = line[len("const BASTION_HOOK = ") :].split(" //", 1)[0].strip()
            try:
                words = json.loads(json.loads(literal))
            except (ValueError, TypeError):
                return None
            if isinstance(words, list) and words and all(isinstance(w, str) for w in words):
                return words
            return None
    return None


def plugin_agents() -> tuple[str, ...]:
    """The agents whose Bastion hook is a plugin file (their records' ``PLUGIN`` style)."""
    return tuple(a.name for a in hooked() if a.hooks is not None and a.hooks.style is SettingsStyle.PLUGIN)


def locate(agent: str, *, scope: str, cwd: str, env: Mapping[str, str]) -> PluginFile:
    """The agent's plugin file at ``scope``: where its record says, from its template."""
    template = hooks_of(agent).template
    if hooks_of(agent).style is not SettingsStyle.PLUGIN or template is None:
        raise ValueError(f"{agent!r} takes no plugin file")
    return PluginFile(agent, hook_file(agent, scope=scope, cwd=cwd, env=env), template)


def install_plugin(
    plugin: PluginFile, command: Sequence[str], *, timeout: int, dry_run: bool, out: Callable[[str], None]
) -> PluginFile:
    """Write (or refresh) Bastion's plugin; idempotent."""
    before = read(plugin.path)
    after = render(plugin, command, timeout)
    if before == after:
        out(f"{plugin.path}: Bastion's plugin is already installed; nothing to change")
    elif dry_run:
        out(f"{plugin.path}: would write Bastion's plugin (dry run: nothing written)")
    else:
        write(plugin.path, after)
        verb = "updated" if before is not None else "wrote"
        out(f"{verb} {plugin.path}")
        out(f"installed: {plugin.agent} now asks Bastion before every tool call ({' '.join(command)}).")
    for note in hooks_of(plugin.agent).install_notes:
        out(note)
    return plugin


def uninstall_plugin(plugin: PluginFile, *, dry_run: bool, out: Callable[[str], None]) -> PluginFile:
    if read(plugin.path) is None:
        out(f"{plugin.path}: no Bastion plugin to remove")
    elif dry_run:
        out(f"{plugin.path}: would be removed (dry run: nothing removed)")
    else:
        os.unlink(plugin.path)
        out(f"removed {plugin.path}")
        out(f"uninstalled: {plugin.agent} no longer asks Bastion")
    return plugin


def hook_words(agent: str, launcher: str | tuple[str, ...], timeout: int) -> list[str]:
    """The words the plugin runs: the hook launcher (``targets.hook_launcher``) and
    ``hook AGENT --timeout S --autostart``, as the settings-file agents' command has them."""
    program = [launcher] if isinstance(launcher, str) else list(launcher)
    return [*program, "hook", agent, "--timeout", str(timeout), "--autostart"]


def timeout_of(words: Sequence[str]) -> int:
    """The ``--timeout`` in a hook command's words (0 when it has none)."""
    for flag, value in itertools.pairwise(words):
        if flag == "--timeout" and value.isdigit():
            return int(value)
    return 0
