"""The systemd unit that runs ``bastion serve`` as a hardened service (pure: facts in, text out).

Hardening follows what the daemon needs and nothing more: it writes only its state dir
(``ReadWritePaths``), sees the rest of the file system read-only (``ProtectSystem=strict``),
gets a private ``/tmp``, can never gain privileges, and is held to ``MemoryHigh`` ≈ 80% of the
machine's RAM so a runaway sandboxed command slows down instead of taking the machine with
it (commands it runs are already at nice 10, see ``exec``). Namespaces stay allowed: the
bubblewrap sandbox is made of them.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass

UNIT_NAME = "bastion.service"
MEMORY_SHARE = 0.8


@dataclass(frozen=True, slots=True)
class ServiceFacts:
    executable: str  # the bastion executable the unit runs
    state_dir: str
    memory_bytes: int  # the machine's RAM
    user_unit: bool  # a systemd --user unit (else a system unit running as ``user``)
    user: str
    home: str
    workspace: str  # the folder it guards: its working directory and ``serve --workspace``


def memory_high(total: int) -> str:
    """``MemoryHigh`` as whole MiB, ≈ 80% of ``total`` bytes."""
    return f"{max(int(total * MEMORY_SHARE) // (1024 * 1024), 64)}M"


def unit_path(facts: ServiceFacts) -> str:
    if facts.user_unit:
        return os.path.join(facts.home, ".config", "systemd", "user", UNIT_NAME)
    return os.path.join("/etc", "systemd", "system", UNIT_NAME)


def render_unit(facts: ServiceFacts) -> str:
    exe = shlex.quote(facts.executable)
    service_user = "" if facts.user_unit else f"User={facts.user}\n"
    target = "default.target" if facts.user_unit else "multi-user.target"
    return (
        "[Unit]\n"
        "Description=Bastion: the permission gate for AI-agent tool calls\n"
        "After=network.target\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"{service_user}"
        f"WorkingDirectory={facts.workspace}\n"
        f"ExecStart={exe} serve --workspace {shlex.quote(facts.workspace)}\n"
        f"Environment=BASTION_STATE_DIR={facts.state_dir}\n"
        f"Environment=HOME={facts.home}\n"
        "Restart=on-failure\n"
        "RestartSec=2\n"
        "UMask=0077\n"
        "NoNewPrivileges=yes\n"
        "ProtectSystem=strict\n"
        "ProtectControlGroups=yes\n"
        "ProtectKernelModules=yes\n"
        "ProtectKernelTunables=yes\n"
        "PrivateTmp=yes\n"
        f"ReadWritePaths={facts.state_dir}\n"
        "RestrictSUIDSGID=yes\n"
        "RestrictRealtime=yes\n"
        "LockPersonality=yes\n"
        "SystemCallArchitectures=native\n"
        f"MemoryHigh={memory_high(facts.memory_bytes)}\n"
        "\n"
        "[Install]\n"
        f"WantedBy={target}\n"
    )


def machine_memory(meminfo: str = "/proc/meminfo") -> int:
    """Total RAM in bytes (``MemTotal``), or the page-count product where /proc is absent."""
    try:
        with open(meminfo, encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
