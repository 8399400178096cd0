"""ssh for a contained run: the person's ssh agent usable, never a key file readable, and the
egress proxy the only way out.

A run whose profile names an ssh destination (a host with a port, ``github.com:22``: an
approved ``git push`` to an ssh remote) gets, beside the proxy:

* the agent's socket (``SSH_AUTH_SOCK`` of whoever started the run), bound alone at
  ``/run/bastion-ssh/agent.sock`` - only when it is a socket: a variable naming a key file,
  or anything else, binds nothing. ``~/.ssh`` stays hidden as in every profile;
* ``GIT_SSH_COMMAND``: ``ssh.sh`` in the run's public directory, which runs ssh with no
  configuration of its own (``-F /dev/null``), that agent, the known host keys of the named
  hosts (copied from the person's ``known_hosts``, strict checking), and as ProxyCommand
  ``connect.py``: a ``CONNECT host:port`` through the proxy, decided by the gate like any
  other connection. Without an agent it stops with a message saying so, before any
  connection;
* ``GIT_SSH_VARIANT=ssh`` (git would otherwise probe the wrapper with ``-G``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from bastion.exec.egress.binding import SANDBOX_AGENT, SANDBOX_DIR, SOCKET

CONNECT = "connect.py"
SCRIPT = "ssh.sh"
KNOWN_HOSTS = "known_hosts"
SYSTEM_KNOWN_HOSTS = "/etc/ssh/ssh_known_hosts"
NO_AGENT = (
    "bastion: this contained run has no ssh agent to sign with (SSH_AUTH_SOCK names no socket "
    "where the run was started), and key files are never mounted into the sandbox: start "
    "ssh-agent, ssh-add your key, and run it again"
)


def agent_socket(environ: Mapping[str, str]) -> str | None:
    """The agent's socket named by ``SSH_AUTH_SOCK``, resolved; None unless it is a socket."""
    named = environ.get("SSH_AUTH_SOCK", "")
    if not named.startswith("/"):
        return None
    real = os.path.realpath(named)
    try:
        return real if stat.S_ISSOCK(os.stat(real).st_mode) else None
    except OSError:
        return None


def script(python: str, *, agent: bool) -> str:
    """``ssh.sh``: git runs it as ``sh ssh.sh [-p PORT] [user@]host COMMAND``."""
    if not agent:
        return f"#!/bin/sh\necho {shlex.quote(NO_AGENT)} >&2\nexit 255\n"
    proxy = f"{python} -I -S {SANDBOX_DIR}/{CONNECT} {SANDBOX_DIR}/{SOCKET} %h %p"
    options = [
        "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
        "-o", f"UserKnownHostsFile={SANDBOX_DIR}/{KNOWN_HOSTS}", "-o", "GlobalKnownHostsFile=/dev/null",
        "-o", f"IdentityAgent={SANDBOX_AGENT}", "-o", "IdentityFile=none", "-o", f"ProxyCommand={proxy}",
    ]  # fmt: skip
    return f'#!/bin/sh\nexec ssh {" ".join(shlex.quote(o) for o in options)} "$@"\n'


def known_hosts(hosts: Sequence[str], files: Sequence[str]) -> str:
    """The lines of ``files`` that hold the keys of ``hosts`` (``h:22`` is ``h``, ``h:p`` is
    ``[h]:p`` as ssh writes them), found by ``ssh-keygen -F`` (hashed lines too)."""
    keygen = shutil.which("ssh-keygen")
    if keygen is None:
        return ""
    lines: list[str] = []
    for host in hosts:
        name, _, port = host.rpartition(":")
        key = name if port == "22" else f"[{name.strip('[]')}]:{port}"
        for path in files:
            if not os.path.isfile(path):
                continue
            found = subprocess.run(
                [keygen, "-F", key, "-f", path], capture_output=True, text=True, timeout=30, check=False
            )
            lines += [line for line in found.stdout.splitlines() if line and not line.startswith("#")]
    return "".join(f"{line}\n" for line in dict.fromkeys(lines))


def prepare(public: str, python: str, hosts: Sequence[str], agent: str | None, home: str) -> dict[str, str]:
    """Put ``ssh.sh``, ``connect.py`` and ``known_hosts`` in the run's public directory;
    the variables the run gets."""
    Path(public, CONNECT).write_bytes(Path(__file__).with_name(CONNECT).read_bytes())
    Path(public, SCRIPT).write_text(script(python, agent=agent is not None))
    files = [os.path.join(home, ".ssh", "known_hosts"), SYSTEM_KNOWN_HOSTS]
    Path(public, KNOWN_HOSTS).write_text(known_hosts(hosts, files))
    env = {"GIT_SSH_COMMAND": f"sh {SANDBOX_DIR}/{SCRIPT}", "GIT_SSH_VARIANT": "ssh"}
    return env | ({"SSH_AUTH_SOCK": SANDBOX_AGENT} if agent is not None else {})
