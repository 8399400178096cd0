"""``bastion mcp proxy|serve|install|trust|pins``: the MCP gateway.

``proxy`` puts any MCP server behind the policy; ``serve`` offers Bastion's own tools over
MCP; ``install`` rewrites an agent's MCP configuration to use the proxy; ``pins`` and
``trust`` show and approve tool definitions that changed since they were pinned.
"""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer
from rich.console import Console

from bastion.adapters.cli.common import JsonOption, PolicyOption, configuration_or_exit, fail, print_json
from bastion.errors import BastionError, PolicyError

NameOption = Annotated[str | None, typer.Option("--name", help="Server name in rules and pins.")]
UrlOption = Annotated[str | None, typer.Option("--url", help="Wrap a streamable-HTTP server at this URL.")]
CommandArg = Annotated[list[str] | None, typer.Argument(help="After --: the MCP server command and args.")]
ServerArg = Annotated[str, typer.Argument(help="The server name (the proxy's --name).")]


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="The MCP gateway: proxy MCP servers, serve Bastion's tools over MCP.", no_args_is_help=True
    )
    group.command("proxy", help="Serve an MCP server's tools to an agent on stdio, every call gated.")(proxy)
    group.command("serve", help="Serve Bastion's own tools over MCP on stdio, every call gated.")(serve)
    group.command("install", help="Make an agent (claude, gemini, codex) use the proxy for its MCP servers.")(
        install
    )
    group.command("pins", help="Show pinned MCP tools and changes waiting for review.")(pins)
    group.command("trust", help="Trust the changed tool definitions of an MCP server.")(trust)
    app.add_typer(group, name="mcp")


def proxy(
    command: CommandArg = None,
    policy: PolicyOption = None,
    name: NameOption = None,
    url: UrlOption = None,
    max_result_bytes: Annotated[
        int, typer.Option("--max-result-bytes", min=1024, help="Cut each result at this many bytes.")
    ] = 1_000_000,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1, help="Seconds one upstream call may take.")
    ] = 600.0,
) -> None:
    import anyio

    from bastion.adapters.mcp.proxy import ProxyOptions, run_proxy
    from bastion.adapters.mcp.upstream import UpstreamSpec, default_name
    from bastion.lifecycle import PolicyWatch

    if bool(command) == bool(url):
        fail(
            "give the MCP server to wrap: either --url URL or -- COMMAND [ARGS…]",
            hint="e.g. bastion mcp proxy --name files -- npx -y @modelcontextprotocol/server-filesystem .",
        )
    cwd = os.getcwd()
    env = dict(os.environ)
    spec = UpstreamSpec(command=tuple(command or ()), url=url, env=env, cwd=cwd)
    server = name or default_name(spec)
    if "/" in server or not server.strip():
        fail(f"--name {server!r} must be a non-empty name without '/'")
    try:
        watch = PolicyWatch(policy, cwd=cwd, env=env)
    except PolicyError as exc:
        fail(str(exc), hint="fix the file, then run 'bastion policy test' to check it")
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)
    options = ProxyOptions(
        name=server,
        upstream=spec,
        policy_path=policy,
        cwd=cwd,
        env=env,
        max_result_bytes=max_result_bytes,
        call_timeout=timeout,
    )
    anyio.run(lambda: run_proxy(options, watch=watch), backend_options=_loop_options())


def _loop_options() -> dict[str, bool]:
    """uvloop when it is installed (it comes with uvicorn[standard]): a proxied call's
    task switches and pipe I/O cost 5-10% less of the proxy's CPU; asyncio's loop otherwise."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return {}
    return {"use_uvloop": True}


def serve(policy: PolicyOption = None) -> None:
    import anyio

    from bastion.adapters.mcp.server import run_serve

    cwd = os.getcwd()
    loaded = configuration_or_exit(policy, cwd, boot=True)
    try:
        anyio.run(lambda: run_serve(loaded, policy_path=policy, cwd=cwd), backend_options=_loop_options())
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)


def install(
    agent: Annotated[str, typer.Argument(help="claude, gemini or codex.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the change; write nothing.")] = False,
    file: Annotated[
        str | None, typer.Option("--file", help="The agent's config file (default: the usual place).")
    ] = None,
    policy: PolicyOption = None,
    show_args: Annotated[
        bool,
        typer.Option(
            "--show-args",
            help="Start each wrapped command server once and show which arguments are checked as paths/URLs.",
        ),
    ] = False,
) -> None:
    from bastion.adapters.mcp.install import InstallError, inferred_args, install_agent

    try:
        report = install_agent(
            agent, file=file, dry_run=dry_run, policy=policy, cwd=os.getcwd(), env=os.environ
        )
    except InstallError as exc:
        fail(str(exc), hint=exc.hint)
    console = Console(highlight=False)
    if report.diff:
        typer.echo(report.diff, nl=False)
    for line in report.notes:
        console.print(line, soft_wrap=True)
    if show_args:
        import anyio

        for name, (command, extra, where) in report.commands.items():
            try:
                lines = anyio.run(inferred_args, name, command, {**os.environ, **extra}, where or os.getcwd())
            except Exception as exc:  # a server that does not start: say so, install stands
                lines = [f"{name}: could not list its tools ({type(exc).__name__}: {exc})"]
            for line in lines:
                console.print(line, soft_wrap=True, markup=False)


def pins(
    server: Annotated[str | None, typer.Argument(help="Only this server.")] = None,
    json_out: JsonOption = False,
) -> None:
    from bastion.state import open_stores_from_env
    from bastion.state.pins import describe_change

    store = open_stores_from_env().pins
    try:
        names = [server] if server else store.servers()
        data = {n: [describe_change(p) for p in store.pins(n).values()] for n in names}
    finally:
        store.close()
    if json_out:
        print_json(data)
        return
    console = Console(highlight=False)
    for name, tools in data.items():
        waiting = [t for t in tools if t["state"] == "pending"]
        console.print(f"[bold]{name}[/]: {len(tools)} tools, {len(waiting)} waiting for review")
        for tool in waiting:
            console.print(f"  {tool['tool']}: was", soft_wrap=True)
            console.print(json.dumps(tool["trusted"], indent=2, ensure_ascii=False), markup=False)
            console.print("  now:", soft_wrap=True)
            console.print(json.dumps(tool["pending"], indent=2, ensure_ascii=False), markup=False)
        if waiting:
            console.print(f"  run 'bastion mcp trust {name}' to trust these versions")


def trust(
    server: ServerArg,
    tool: Annotated[list[str] | None, typer.Option("--tool", help="Only this tool (repeatable).")] = None,
) -> None:
    from bastion.state import open_stores_from_env

    store = open_stores_from_env().pins
    try:
        if not store.known(server):
            fail(f"no MCP server {server!r} has been seen", hint="run 'bastion mcp pins' to list servers")
        done = store.trust(server, tool or None)
    finally:
        store.close()
    if not done:
        typer.echo(f"{server}: nothing waits for review")
        return
    typer.echo(f"{server}: trusted the new version of {', '.join(done)}")
