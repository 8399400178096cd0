"""The daemon side of the hook fast path: a local Unix socket served by ``bastion serve``.

Each connection carries one hook invocation (its arguments, stdin and the variables that
matter) and gets back what the hook process would have printed and its exit code. The
socket lives in the state dir with mode 0600: only the user who runs the agents can use it.
Any failure answers deny in the agent's own format.
"""

from __future__ import annotations

import contextlib
import os
import socket
import socketserver
import threading
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from bastion.adapters.hooks.client import MAGIC, MAX_INPUT, frame, socket_path, unframe
from bastion.adapters.hooks.decide import Decider, LocalDecider, Options
from bastion.adapters.hooks.entry import PARK_MARGIN, hook_env, parse_args, protocol_for
from bastion.adapters.hooks.protocol import PRE_TOOL_USE, Verdict
from bastion.call import strict_json

if TYPE_CHECKING:
    from bastion.configuration import Configuration
    from bastion.construct import GateOptions
    from bastion.policy.sources import PolicySources
    from bastion.runtime import Gatekeeper


def answer_hook(
    message: Mapping[str, Any], *, decider: Decider, base_env: Mapping[str, str]
) -> dict[str, Any]:
    """One hook invocation, decided here; never raises."""
    args = message.get("args")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return {"stdout": "", "stderr": "bastion hook: malformed daemon request\n", "exit_code": 2}
    try:
        parsed = parse_args(args)
        protocol = protocol_for(parsed.agent)
    except Exception as exc:
        return {"stdout": "", "stderr": f"bastion hook: {exc}\n", "exit_code": 2}
    event = parsed.event or PRE_TOOL_USE
    try:
        sent = message.get("env") or {}
        env = hook_env(parsed, {**base_env, **{str(k): str(v) for k, v in dict(sent).items()}})
        payload = strict_json.loads(str(message.get("stdin", "")))
        request = protocol.parse(payload, env, event=parsed.event)
        event = request.event
        budget = max(parsed.timeout - PARK_MARGIN, 0.0) if parsed.timeout else 0.0
        options = Options(env=env, policy_path=parsed.policy, park_budget=budget)
        verdict = decider.decide(request, protocol, options)
    except Exception as exc:  # fail closed
        verdict = Verdict("deny", f"cannot decide safely: {type(exc).__name__}: {exc}", event)
    answer = protocol.render(verdict)
    return {"stdout": answer.stdout, "stderr": answer.stderr, "exit_code": answer.exit_code}


def decode_request(data: bytes) -> dict[str, Any]:
    args, names, stdin = unframe(data, 3)
    env = dict(item.split("=", 1) for item in names.decode("utf-8").split("\0") if "=" in item)
    return {
        "args": args.decode("utf-8").split("\0") if args else [],
        "env": env,
        "stdin": stdin.decode("utf-8", "replace"),
    }


def encode_reply(reply: Mapping[str, Any]) -> bytes:
    parts = (str(int(reply["exit_code"])), str(reply["stdout"]), str(reply["stderr"]))
    return MAGIC + b"".join(frame(p.encode("utf-8")) for p in parts)


#: Seconds a client has to send its whole request; a silent or dripping client is answered
#: with a deny and disconnected instead of holding a worker thread forever.
READ_TIMEOUT = 10.0


def read_request(sock: socket.socket, *, limit: int, timeout: float) -> bytes | None:
    """Everything up to EOF, within ``timeout`` seconds in total; None when it took longer."""
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return None
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


class _Handler(socketserver.BaseRequestHandler):
    server: HookServer

    def handle(self) -> None:
        sock: socket.socket = self.request
        data = read_request(sock, limit=MAX_INPUT * 2, timeout=self.server.read_timeout)
        reply: dict[str, Any]
        if data is None:
            reply = {
                "stdout": "",
                "exit_code": 2,
                "stderr": f"bastion hook: no complete request within {self.server.read_timeout:g} s\n",
            }
        else:
            try:
                message = decode_request(data)
            except (ValueError, UnicodeDecodeError):
                reply = {"stdout": "", "stderr": "bastion hook: bad request\n", "exit_code": 2}
            else:
                reply = answer_hook(message, decider=self.server.decider, base_env=self.server.base_env)
        sock.settimeout(self.server.read_timeout)  # a client that never reads cannot hold us either
        with contextlib.suppress(OSError):
            sock.sendall(encode_reply(reply))
            sock.shutdown(socket.SHUT_WR)  # the client reads to the end: it has it all now
        decider = self.server.decider
        if isinstance(decider, ResidentDecider):  # the answer is out: earlier runs' after-work
            decider.settle_runs()


class ResidentDecider(LocalDecider):
    """The daemon's decider: keeps the compiled policy and an open gatekeeper per policy
    (keyed by the policy sources' digest, so an edit or a trust change is seen on the next
    call). Calls that may park in the queue get a gatekeeper of their own, so a wait never
    holds up other hooks; the rest share one, one decision at a time. A policy that does not
    load is not cached: it is tried again on the next call."""

    def __init__(self, *, policy_path: str | None = None, options: GateOptions | None = None) -> None:
        from bastion.construct import HOOK_OPTIONS

        # Settled once: one resolver cache and one sandbox probe for the daemon's life.
        super().__init__(policy_path=policy_path, options=(options or HOOK_OPTIONS).settled())
        from bastion.adapters.hooks.policy_cache import source_stamp

        self._lock = threading.Lock()
        self._stamp = source_stamp()  # of the code loaded now, which builds every policy here
        self._policies: dict[str, Configuration] = {}
        self._keepers: dict[str, tuple[Gatekeeper, threading.Lock]] = {}

    def load(self, sources: PolicySources, env: Mapping[str, str]) -> Configuration | Exception:
        from bastion.adapters.hooks.policy_cache import sources_key

        key = sources_key(sources, env, stamp=self._stamp)
        with self._lock:
            cached = self._policies.get(key)
        if cached is not None:
            return cached
        loaded = super().load(sources, env)
        if not isinstance(loaded, Exception):
            with self._lock:
                if len(self._policies) > 64:
                    self._policies.clear()
                self._policies[key] = loaded
        return loaded

    @contextlib.contextmanager
    def keeper(
        self,
        sources: PolicySources,
        env: Mapping[str, str],
        loaded: Configuration | Exception,
        *,
        parks: bool,
    ) -> Iterator[Gatekeeper]:
        if parks or isinstance(loaded, Exception):
            with super().keeper(sources, env, loaded, parks=parks) as own:
                yield own
            return
        policy = loaded.policy
        key = f"{id(policy)}:{env.get('BASTION_STATE_DIR', '')}:{env.get('BASTION_STATE_URL', '')}"
        with self._lock:
            entry = self._keepers.get(key)
            # The entry holds the policy it was opened for, so its id cannot be reused.
            if entry is None or entry[0].gate.policy is not policy:
                for stale, stale_busy in self._keepers.values():
                    with stale_busy:  # never close a gatekeeper a decision is still using
                        stale.close()
                self._keepers = {key: (self._open(sources, env, loaded), threading.Lock())}
                entry = self._keepers[key]
        keeper, busy = entry
        with busy:
            yield keeper

    def _open(self, sources: PolicySources, env: Mapping[str, str], config: Configuration) -> Gatekeeper:
        from bastion.construct import keeper_for

        return keeper_for(sources, env, options=self.gate_options, config=config)

    settles_inline = False  # after the reply (settle_runs), never before it

    def settle_runs(self) -> None:
        """Finish the contained runs that ended and record their exits, through each open
        gatekeeper (the one whose policy's state dir holds them). The files are looked at
        without the gatekeeper's lock; only a record to write takes it."""
        from bastion.runtime.contain import finished_runs, record_runs

        with self._lock:
            entries = list(self._keepers.values())
        for keeper, busy in entries:
            with contextlib.suppress(Exception):  # what is left stays for the next look
                runs = finished_runs(keeper)
                if runs:
                    with busy:
                        record_runs(keeper, runs)

    def close(self) -> None:
        with self._lock:
            for keeper, _ in self._keepers.values():
                keeper.close()
            self._keepers.clear()


class HookServer(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True

    def __init__(
        self,
        path: str,
        *,
        decider: Decider | None = None,
        base_env: Mapping[str, str] | None = None,
        read_timeout: float = READ_TIMEOUT,
    ):
        self.read_timeout = read_timeout
        self.decider = decider or ResidentDecider()
        self.base_env = dict(os.environ if base_env is None else base_env)
        folder = os.path.dirname(path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if os.path.exists(path):
            os.unlink(path)  # a stale socket from a daemon that died
        old = os.umask(0o177)
        try:
            super().__init__(path, _Handler)
        finally:
            os.umask(old)
        os.chmod(path, 0o600)
        self.path = path


def start_hook_server(
    env: Mapping[str, str] | None = None,
    *,
    policy_path: str | None = None,
    options: GateOptions | None = None,
) -> HookServer:
    """Listen on ``<state_dir>/hooks.sock`` in a background thread; ``shutdown()`` stops it.
    ``policy_path`` (``bastion serve --policy FILE``) governs every hook it answers."""
    environ = dict(os.environ if env is None else env)
    decider = ResidentDecider(policy_path=policy_path, options=options)
    server = HookServer(socket_path(environ), decider=decider, base_env=environ)
    threading.Thread(target=server.serve_forever, name="bastion-hook-socket", daemon=True).start()
    return server


def stop_hook_server(server: HookServer) -> None:
    server.shutdown()
    server.server_close()
    if isinstance(server.decider, ResidentDecider):
        server.decider.close()
    with contextlib.suppress(OSError):
        os.unlink(server.path)
