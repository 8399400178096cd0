"""The egress proxy: a sandboxed run's only way out, and where held credentials go in.

A run with egress has no network route of its own (``--unshare-net``). A forwarder in the
sandbox (``forward.py``) relays ``127.0.0.1:PORT`` to a Unix socket Bastion serves
(``proxy.py``); every connection there is a ``fetch`` call through the run's Gatekeeper
(``decide.py``); held secrets (``held.py``) are swapped in by the proxy, over TLS with a
per-run CA (``tls.py``) - the sandbox only ever sees a placeholder; git and npm are told
to send it (``client_auth.py``). A run reaches only its profile's hosts (``only.py``); an
ssh destination gets the ssh agent's socket and ssh through a ``CONNECT`` (``ssh.py``,
``connect.py``), never a key file.
"""

from typing import Any

from bastion.exec.egress.binding import EgressBinding, bwrap_args, command_prefix

# The rest is imported on first use: the runner imports this package, and the proxy
# side needs the runtime (which imports the runner).
_LAZY = {
    "EgressGate": "decide", "ProxyGate": "decide", "Verdict": "decide",
    "PLACEHOLDER_PREFIX": "held", "HeldSecret": "held", "hold": "held", "substitute": "held",
    "Dialer": "net", "StaticDialer": "net", "SystemDialer": "net",
    "EgressSession": "session",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)


__all__ = ["EgressBinding", "bwrap_args", "command_prefix", *_LAZY]
