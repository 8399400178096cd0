"""``bastion mcp install AGENT``: rewrite an agent's MCP configuration so that every server it
already has runs behind ``bastion mcp proxy``.

* claude — ``.mcp.json`` (project scope) ``mcpServers``;
* gemini — ``.gemini/settings.json`` (the project's if present, else the user's) ``mcpServers``;
* codex  — ``$CODEX_HOME/config.toml`` (``~/.codex``) ``[mcp_servers]``.

A command server ``{command, args, env}`` becomes ``bastion mcp proxy --name NAME -- command
args…`` (its env, cwd and other keys kept); a streamable-HTTP server becomes ``… --url URL``.
Servers already wrapped are left alone (running install twice changes nothing); servers the
proxy cannot carry (SSE, or HTTP with headers or tokens) are left alone and named. The old
file is kept as ``FILE.bastion-backup``, and the diff is printed; ``--dry-run`` only prints.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bastion.errors import BastionError

AGENTS = ("claude", "gemini", "codex")
#: What the proxy checks without configuration (the proxy logs the inferred map at start).
INFERRED_NOTE = (
    "{name}: path and URL arguments are inferred from each tool's inputSchema (names, format, "
    "descriptions) and from values that look like paths, and checked by the path and network "
    "policy by default; the proxy logs what it inferred when it starts. To name more keys: "
    "[mcp.servers.{name}] paths = [...], urls = [...]"
)


class InstallError(BastionError):
    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


@dataclass
class InstallReport:
    path: str
    diff: str = ""
    wrapped: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    backup: str | None = None
    #: name -> (command, env, cwd) of each command server wrapped, for ``--show-args``.
    commands: dict[str, tuple[list[str], dict[str, str], str | None]] = field(default_factory=dict)


def bastion_command() -> str:
    return shutil.which("bastion") or "bastion"


def is_wrapped(entry: Mapping[str, Any]) -> bool:
    args = entry.get("args") or []
    command = str(entry.get("command") or "")
    return os.path.basename(command) == "bastion" and list(args[:2]) == ["mcp", "proxy"]


def proxy_args(
    name: str, *, policy: str | None, command: list[str] | None = None, url: str | None = None
) -> list[str]:
    args = ["mcp", "proxy", "--name", name]
    if policy:
        args += ["--policy", os.path.abspath(policy)]
    if url:
        return [*args, "--url", url]
    return [*args, "--", *(command or [])]


def wrap_entry(
    agent: str, name: str, entry: Mapping[str, Any], *, bastion: str, policy: str | None
) -> tuple[dict[str, Any] | None, str]:
    """(the wrapped entry, "") or (None, why it is left alone)."""
    if is_wrapped(entry):
        return None, "already behind bastion"
    out = dict(entry)
    if entry.get("command"):
        command = [str(entry["command"]), *(str(a) for a in entry.get("args") or [])]
        out["command"] = bastion
        out["args"] = proxy_args(name, policy=policy, command=command)
        return out, ""
    url, drop = _http_url(agent, entry)
    if url is None:
        return None, "not a command or a streamable-HTTP server (SSE is not supported by the proxy)"
    if entry.get("headers") or entry.get("bearer_token_env_var") or entry.get("oauth"):
        return None, "an HTTP server with headers or tokens: the proxy does not forward them yet"
    for key in drop:
        out.pop(key, None)
    out["command"] = bastion
    out["args"] = proxy_args(name, policy=policy, url=url)
    return out, ""


def _http_url(agent: str, entry: Mapping[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    if agent == "gemini":  # httpUrl is streamable HTTP; url is SSE
        return entry.get("httpUrl"), ("httpUrl",)
    if agent == "claude":
        kind = entry.get("type")
        return (entry.get("url"), ("url", "type")) if kind == "http" else (None, ())
    return entry.get("url"), ("url",)  # codex: url is streamable HTTP


def default_file(agent: str, *, cwd: str, env: Mapping[str, str]) -> str:
    home = env.get("HOME") or os.path.expanduser("~")
    if agent == "claude":
        return os.path.join(cwd, ".mcp.json")
    if agent == "gemini":
        project = os.path.join(cwd, ".gemini", "settings.json")
        return project if os.path.isfile(project) else os.path.join(home, ".gemini", "settings.json")
    return os.path.join(env.get("CODEX_HOME") or os.path.join(home, ".codex"), "config.toml")


def _rewrite_json(text: str, wrap: Callable[[str, Mapping[str, Any]], dict[str, Any] | None]) -> str:
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise InstallError(f"not valid JSON: {exc}") from exc
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return text
    new = copy.deepcopy(data)
    for name, entry in servers.items():
        if isinstance(entry, dict) and (wrapped := wrap(name, entry)) is not None:
            new["mcpServers"][name] = wrapped
    return text if new == data else json.dumps(new, indent=2, ensure_ascii=False) + "\n"


def _rewrite_toml(text: str, wrap: Callable[[str, Mapping[str, Any]], dict[str, Any] | None]) -> str:
    try:
        import tomlkit
        from tomlkit.exceptions import TOMLKitError
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise InstallError(
            "editing config.toml needs the tomlkit package", hint="pip install tomlkit"
        ) from exc
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InstallError(f"not valid TOML: {exc}") from exc
    servers = doc.get("mcp_servers")
    if servers is None:
        return text
    changed = False
    for name in list(servers.keys()):
        table = servers[name]
        entry = table.unwrap() if hasattr(table, "unwrap") else dict(table)
        wrapped = wrap(str(name), entry)
        if wrapped is None:
            continue
        for key in [k for k in entry if k not in wrapped]:
            del table[key]
        for key, value in wrapped.items():
            if entry.get(key) != value:
                table[key] = value
        changed = True
    return tomlkit.dumps(doc) if changed else text


def install_agent(
    agent: str,
    *,
    file: str | None,
    dry_run: bool,
    policy: str | None,
    cwd: str,
    env: Mapping[str, str],
    bastion: str | None = None,
) -> InstallReport:
    if agent not in AGENTS:
        raise InstallError(f"unknown agent {agent!r}", hint=f"one of: {', '.join(AGENTS)}")
    path = os.path.abspath(file or default_file(agent, cwd=cwd, env=env))
    try:
        with open(path, encoding="utf-8") as handle:
            old = handle.read()
    except FileNotFoundError:
        raise InstallError(
            f"{path}: no such file, so no MCP servers to wrap",
            hint="add your MCP servers to the agent first, or give --file",
        ) from None
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror}") from exc
    report = InstallReport(path=path)
    command = bastion or bastion_command()

    def wrap(name: str, entry: Mapping[str, Any]) -> dict[str, Any] | None:
        wrapped, why = wrap_entry(agent, name, entry, bastion=command, policy=policy)
        if wrapped is None:
            report.skipped.append(name)
            report.notes.append(f"{name}: left as it is ({why})")
        else:
            report.wrapped.append(name)
            if entry.get("command"):
                argv = [str(entry["command"]), *(str(a) for a in entry.get("args") or [])]
                raw_env = entry.get("env")
                extra: Mapping[str, Any] = raw_env if isinstance(raw_env, Mapping) else {}
                cwd_of = str(entry["cwd"]) if entry.get("cwd") else None
                report.commands[name] = (argv, {str(k): str(v) for k, v in extra.items()}, cwd_of)
        return wrapped

    new = (_rewrite_toml if path.endswith(".toml") else _rewrite_json)(old, wrap)
    if new == old:
        report.notes.append(f"{path}: nothing to change")
        return report
    report.diff = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=path,
            tofile=f"{path} (bastion)",
        )
    )
    if dry_run:
        report.notes.append("dry run: nothing written")
        return report
    report.backup = _backup(path)
    _write(path, new)
    report.notes.append(f"wrapped {', '.join(report.wrapped)} in {path}; the old file is {report.backup}")
    report.notes.extend(INFERRED_NOTE.format(name=name) for name in report.wrapped)
    return report


def _backup(path: str) -> str:
    target = f"{path}.bastion-backup"
    if os.path.exists(target):
        target = f"{path}.bastion-backup-{time.strftime('%Y%m%d-%H%M%S')}"
    shutil.copy2(path, target)
    return target


def _write(path: str, text: str) -> None:
    tmp = f"{path}.bastion-tmp"
    mode = os.stat(path).st_mode & 0o777
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


async def inferred_args(
    name: str, command: list[str], env: Mapping[str, str], cwd: str | None, *, timeout: float = 60.0
) -> list[str]:
    """Start the server once, list its tools and say which arguments the proxy will check."""
    import anyio

    from bastion.adapters.mcp.upstream import Upstream, UpstreamSpec
    from bastion.policy.mcp_infer import describe_inferred

    async def unchanged() -> None:
        return None

    upstream = Upstream(
        UpstreamSpec(command=tuple(command), env=dict(env), cwd=cwd),
        on_tools_changed=unchanged,
        timeout=timeout,
    )
    with anyio.fail_after(timeout):
        async with anyio.create_task_group() as tg:
            upstream.bind(tg)
            try:
                tools = await upstream.list_tools()
            finally:
                await upstream.aclose()
    lines = describe_inferred(name, {t.name: t.input_schema for t in tools})
    return lines or [f"{name}: no tool schema names a path or URL (path-like values are still checked)"]
