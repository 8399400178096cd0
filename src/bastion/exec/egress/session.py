"""One egress proxy for one sandboxed run: its directories, CA, thread and binding.

    with EgressSession(keeper, held=held) as egress:
        runner.run(dataclasses.replace(spec, egress=egress.binding))

The proxy serves on its own event loop in a background thread (the runners are
synchronous). The run directory is 0700; only its ``public`` part is mounted into the
sandbox. Leaving the block stops the proxy, cuts open connections and removes the
directory with the CA's leaf keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import ssl
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bastion.exec.egress import client_auth, ssh
from bastion.exec.egress.binding import DEFAULT_PORT, FORWARDER, SOCKET, EgressBinding, egress_env
from bastion.exec.egress.decide import EgressGate, GateOwner
from bastion.exec.egress.held import HeldSecret
from bastion.exec.egress.net import Dialer, SystemDialer
from bastion.exec.egress.proxy import EgressProxy
from bastion.exec.egress.tls import RunCA
from bastion.exec.runner import ExecError
from bastion.policy.network import Resolver, SystemResolver

_START_TIMEOUT = 30.0


def sandbox_python() -> str:
    """A python3 under /usr (visible in every sandbox) to run the forwarder."""
    for candidate in (os.path.realpath(sys.executable), "/usr/bin/python3", "/bin/python3"):
        if candidate.startswith(("/usr/", "/bin/")) and os.access(candidate, os.X_OK):
            return candidate
    raise ExecError("the egress proxy needs python3 under /usr for its in-sandbox forwarder")


class EgressSession:
    def __init__(
        self,
        keeper: GateOwner,
        *,
        held: Sequence[HeldSecret] = (),
        resolver: Resolver | None = None,
        dialer: Dialer | None = None,
        upstream_tls: ssl.SSLContext | None = None,
        cwd: str = "/",
        agent: str | None = None,
        timeout: float | None = None,
        on_parked: Callable[[Any], None] | None = None,
        port: int = DEFAULT_PORT,
        interactive: bool = True,
        ssh_hosts: Sequence[str] = (),
        ssh_agent: str | None = None,
        home: str = "/",
    ) -> None:
        # interactive=False: nobody can be asked, so a host that would ask is refused at once.
        self.gate = EgressGate(
            keeper,
            resolver or SystemResolver(),
            held=held,
            cwd=cwd,
            agent=agent,
            timeout=timeout,
            on_parked=on_parked,
            interactive=interactive,
        )
        self.dialer = dialer or SystemDialer()
        self.upstream_tls = upstream_tls
        self.held = tuple(held)
        self.port = port
        # ssh destinations of the run (egress.ssh): the agent's socket and ssh through the proxy.
        self.ssh_hosts, self.ssh_agent, self.home = tuple(ssh_hosts), ssh_agent, home
        self._root: str | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.binding: EgressBinding | None = None

    def __enter__(self) -> EgressSession:
        self._root = tempfile.mkdtemp(prefix="bastion-egress-")  # 0700
        public, private = os.path.join(self._root, "public"), os.path.join(self._root, "private")
        os.mkdir(public, 0o755)  # reachable only through the 0700 root (or inside the sandbox)
        os.mkdir(private, 0o700)
        shutil.copyfile(Path(__file__).with_name(FORWARDER), os.path.join(public, FORWARDER))
        ca = RunCA(public, private)
        proxy = EgressProxy(self.gate, self.dialer, ca, self.upstream_tls)
        sock = os.path.join(public, SOCKET)
        self._thread = threading.Thread(
            target=self._run, args=(proxy, sock), daemon=True, name="bastion-egress"
        )
        self._thread.start()
        if not self._ready.wait(_START_TIMEOUT) or self._error is not None:
            self.__exit__()
            raise ExecError(f"the egress proxy did not start: {self._error}")
        os.chmod(sock, 0o666)  # the sandbox's uid may differ; the 0700 root guards it
        placeholders = {h.name: h.placeholder for h in self.held}
        python = sandbox_python()
        env = egress_env(self.port, placeholders) | client_auth.prepare(public, self.held)
        agent = None
        if self.ssh_hosts:
            env |= ssh.prepare(public, python, self.ssh_hosts, self.ssh_agent, self.home)
            agent = self.ssh_agent
        self.binding = EgressBinding(public, python, self.port, env, agent)
        return self

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self, proxy: EgressProxy, sock: str) -> None:
        try:
            asyncio.run(self._serve(proxy, sock))
        except BaseException as exc:  # reported to __enter__, never silently lost
            self._error = exc
            self._ready.set()

    async def _serve(self, proxy: EgressProxy, sock: str) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await proxy.serve(sock)
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            server.close()
            for task in list(proxy.tasks):
                task.cancel()
            await asyncio.gather(*proxy.tasks, return_exceptions=True)

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            stop = self._stop
            with contextlib.suppress(RuntimeError):  # the loop already ended
                self._loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(_START_TIMEOUT)
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None
