"""``bastion serve``: the decision service, the approval queue and the approvals page.

On its first start with no key that can approve, it creates an approver key and prints it
once with the page's URL. It reloads the policy when a policy file changes; a reload that
fails denies every call, with the load error as the reason, until the file is fixed.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import time
from typing import Annotated

import typer
import uvicorn

from bastion.adapters.cli.common import PolicyOption, configuration_or_exit, fail
from bastion.adapters.hooks.daemon import HookServer, start_hook_server, stop_hook_server
from bastion.adapters.http.app import create_app
from bastion.adapters.http.boot import BootRefused, check_boot, ensure_approver
from bastion.adapters.http.routes import route_permissions
from bastion.adapters.http.settings import ServerSettings
from bastion.adapters.http.timeouts import server_config
from bastion.errors import BastionError
from bastion.state import open_stores, state_url_for

HostOption = Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default).")]
PortOption = Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")]


def register(app: typer.Typer) -> None:
    app.command("serve", help="Run the HTTP gateway and the live approvals page.")(serve)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


WorkspaceOption = Annotated[
    str | None,
    typer.Option(
        "--workspace",
        help="The project folder agents work in: its .bastion/policy.toml applies and it is the "
        "workspace root when the policy names none (default: the current directory).",
    ),
]
ShadowOption = Annotated[
    bool,
    typer.Option(
        "--shadow", help="Shadow mode: decide and record every call, allow it (hardline still denied)."
    ),
]


def serve(
    host: HostOption = "127.0.0.1",
    port: PortOption = 8765,
    policy: PolicyOption = None,
    shadow: ShadowOption = False,
    workspace: WorkspaceOption = None,
) -> None:
    cwd = workspace_or_exit(workspace)
    env = {**os.environ, "BASTION_SHADOW": "1"} if shadow else dict(os.environ)
    loaded = configuration_or_exit(policy, cwd, env=env, boot=True)
    settings = ServerSettings(policy_path=policy, cwd=cwd, env=env, host=host, port=port)
    try:
        keys = open_stores(state_url_for(loaded.state, os.environ), loaded.policy.state_dir).keys
        check_boot(host, keys, route_permissions())
    except BootRefused as exc:
        fail(str(exc), hint=exc.hint)
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)
    # Bind before the first approver key is made: a port that is taken must not cost the key.
    sock = _bind(host, port)
    url = _url(host, sock.getsockname()[1])
    new_key: str | None = None
    try:
        new_key = ensure_approver(keys, now=time.time())
        app = create_app(settings, keys=keys)
    except BastionError as exc:
        if new_key:  # whatever happens after it was made, the key is shown
            sys.stdout.write(f"First start: a new approver key, shown once:\n{new_key}\n")
        fail(str(exc), hint=exc.hint)
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    out = sys.stdout
    out.write(banner(url, loaded.policy.workspace, loaded.policy.sources))
    if not loaded.policy.enforce:
        out.write(
            f"SHADOW MODE ({loaded.policy.enforce_source}): every call is decided and recorded, and "
            "allowed; hardline classes are still denied. 'bastion logs --would-deny' lists the rest.\n"
        )
    if new_key:
        out.write(f"First start: a new approver key, shown once. Log in at {url} with:\n{new_key}\n")
    else:
        out.write(
            f"Log in at {url} with an approver key (lost it? bastion keys create --role approver "
            "--label page)\n"
        )
    out.flush()
    config = server_config(
        app,
        head_timeout=settings.head_timeout,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=2,
        server_header=False,
        lifespan="on",
    )
    hooks = _hook_socket(os.path.abspath(policy) if policy else None)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        if hooks is not None:
            stop_hook_server(hooks)


def workspace_or_exit(workspace: str | None) -> str:
    folder = os.path.abspath(os.path.expanduser(workspace)) if workspace else os.getcwd()
    if not os.path.isdir(folder):
        fail(f"--workspace {folder} is not a folder", hint="give the project folder your agents work in")
    return folder


def banner(url: str, workspace: tuple[str, ...], sources: tuple[str, ...]) -> str:
    """What a person must know before trusting the daemon: where it listens, which folder it
    guards (calls outside it are asked or denied) and which policy files decide."""
    return (
        f"Bastion gateway listening on {url}\n"
        f"Guarding workspace: {', '.join(workspace) or '(none: every write asks)'}"
        " (serve --workspace DIR to guard another folder)\n"
        f"Policy: {', '.join(sources) or 'built-in defaults (no policy file found)'}\n"
    )


def _hook_socket(policy_path: str | None) -> HookServer | None:
    """Agent hooks hand their calls to this daemon over ``<state dir>/hooks.sock`` (0600),
    so a hook costs a socket round trip instead of loading the engine (they fall back to
    deciding in process when it is absent). ``--policy FILE`` governs them too."""
    try:
        server = start_hook_server(os.environ, policy_path=policy_path)
    except OSError as exc:
        sys.stderr.write(f"warning: no hook socket ({exc}); hooks will decide in process\n")
        return None
    sys.stdout.write(f"Agent hooks answered on {server.path}\n")
    sys.stdout.flush()
    return server
