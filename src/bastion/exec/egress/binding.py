"""What the runner needs to put a run behind the egress proxy (kept free of runner imports).

Inside the sandbox, ``/run/bastion-egress`` is the run's public directory, read-only:
the proxy's socket, the forwarder script, the run's CA and the trust bundle. The
command runs under the forwarder; its environment points every usual proxy and
trust-store variable there, and held secrets' variables carry their placeholders.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

SANDBOX_DIR = "/run/bastion-egress"
SOCKET = "proxy.sock"
FORWARDER = "forward.py"
DEFAULT_PORT = 3128
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")
#: Each names a file of trusted roots: the system's plus the run's CA.
BUNDLE_VARS = ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO")
#: Node adds this file to its built-in roots, so it gets the run's CA alone.
EXTRA_CA_VARS = ("NODE_EXTRA_CA_CERTS",)


def egress_env(port: int, placeholders: Mapping[str, str]) -> dict[str, str]:
    proxy = f"http://127.0.0.1:{port}"
    env = {name: proxy for name in PROXY_VARS}
    env |= {name: f"{SANDBOX_DIR}/bundle.crt" for name in BUNDLE_VARS}
    env |= {name: f"{SANDBOX_DIR}/ca.crt" for name in EXTRA_CA_VARS}
    env |= {"NO_PROXY": "", "no_proxy": ""}
    return {**env, **placeholders}


@dataclass(frozen=True, slots=True)
class EgressBinding:
    #: The host directory mounted read-only at SANDBOX_DIR.
    public_dir: str
    #: A python3 the sandbox can run (under /usr), for the forwarder.
    python: str
    port: int = DEFAULT_PORT
    env: Mapping[str, str] = field(default_factory=dict)
    #: The ssh agent's socket on the host, bound alone into the sandbox (``egress.ssh``).
    ssh_agent: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "env", MappingProxyType(dict(self.env)))


#: Where the ssh agent's socket is in the sandbox (the socket only: never ``~/.ssh``).
SANDBOX_AGENT = "/run/bastion-ssh/agent.sock"


def bwrap_args(binding: EgressBinding | None) -> list[str]:
    """The mounts bwrap adds for the proxy (before ``--remount-ro /``)."""
    if binding is None:
        return []
    agent = ["--ro-bind", binding.ssh_agent, SANDBOX_AGENT] if binding.ssh_agent else []
    return ["--ro-bind", binding.public_dir, SANDBOX_DIR, *agent]


def command_prefix(binding: EgressBinding | None) -> list[str]:
    """The forwarder in front of the command."""
    if binding is None:
        return []
    return [
        binding.python,
        "-I",
        "-S",
        f"{SANDBOX_DIR}/{FORWARDER}",
        f"{SANDBOX_DIR}/{SOCKET}",
        str(binding.port),
        "--",
    ]
