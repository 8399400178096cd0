"""System control and disk-destroying programs (hardline: system / destructive)."""

from __future__ import annotations

from dataclasses import replace

from bastion.call.effects import Effect
from bastion.shell.programs.spec import READ, SYSTEM, FlagRule, Spec, fs

E = Effect
_R = Spec(READ, reader=True)
_SYS = Spec(SYSTEM)
_DISK = frozenset({E.SYSTEM, E.DESTRUCTIVE})


_DBUS = frozenset({E.UNKNOWN})


def _verbs(readers: tuple[str, ...], default: Spec = _SYS, bare_reader: bool = True) -> Spec:
    """A program whose listed verbs only read; any other verb is system control."""
    return Spec(
        READ if bare_reader else SYSTEM,
        reader=bare_reader,
        subcommands={v: _R for v in readers},
        other_sub=default,
    )


PROGRAMS: dict[str, Spec] = {
    # They end the session or run outside the sandbox: denied (``handlers_escape``).
    **{n: Spec(SYSTEM, handler="power") for n in ("shutdown", "reboot", "halt", "poweroff")},
    **{n: Spec(SYSTEM, handler="escape") for n in ("nsenter", "systemd-run")},
    # A terminal multiplexer's server or the session bus runs what it is handed: outside. Even
    # a listing talks to it over its socket (tmux ls makes /tmp/tmux-UID): no pure reader.
    **{
        n: Spec(frozenset({E.UNKNOWN}), handler="session_escape", open_args=True)
        for n in ("tmux", "screen", "busctl", "dbus-send", "gdbus", "qdbus", "qdbus6")
    },
    "gdb": Spec(frozenset({E.CODE}), handler="gdb", open_args=True, note="gdb runs the program it debugs"),
    **{
        n: _SYS
        for n in (
            "init",
            "telinit",
            "killall",
            "pkill",
            "killall5",
            "useradd",
            "userdel",
            "usermod",
            "passwd",
            "groupadd",
            "groupdel",
            "groupmod",
            "chpasswd",
            "adduser",
            "deluser",
            "addgroup",
            "delgroup",
            "visudo",
            "modprobe",
            "insmod",
            "rmmod",
            "swapoff",
            "swapon",
            "update-grub",
            "grub-install",
            "setenforce",
            "chsh",
            "chfn",
            "vipw",
            "pam-auth-update",
            "update-alternatives",
            "sysrq",
            "kexec",
            "pivot_root",
            "chroot",
            "unshare",
            "ldconfig",
            "ifdown",
            "ifup",
            "nmcli",
            "iwconfig",
            "at",
            "batch",
            "loginctl",
            "rfkill",
            "tc",
            "ethtool",
            "depmod",
            "update-rc.d",
            "chkconfig",
            "rc-service",
            "csrutil",
            "spctl",
            "pmset",
            "scutil",
            "networksetup",
            "defaults",
            "dscl",
        )
    },
    **{
        n: Spec(_DISK, handler="disk")
        for n in (
            "mkfs",
            "mke2fs",
            "mkswap",
            "wipefs",
            "blkdiscard",
            "mkntfs",
            "mkdosfs",
            "newfs",
        )
    },
    **{
        n: Spec(_DISK, flags={"-l": FlagRule(note="list only")})
        for n in (
            "fdisk",
            "sfdisk",
            "parted",
            "gdisk",
            "sgdisk",
            "cfdisk",
            "cryptsetup",
            "lvremove",
            "vgremove",
            "pvremove",
            "mdadm",
            "zpool",
            "diskutil",
            "hdparm",
            "badblocks",
        )
    },
    "systemctl": replace(
        _verbs(
            (
                "status",
                "list-units",
                "list-unit-files",
                "is-active",
                "is-enabled",
                "is-failed",
                "show",
                "cat",
                "list-timers",
                "list-sockets",
                "list-dependencies",
                "list-jobs",
                "--version",
                "help",
                "get-default",
                "is-system-running",
                "list-machines",
            )
        ),
        handler="systemctl",
    ),
    "service": Spec(SYSTEM, handler="service"),
    "journalctl": Spec(
        READ,
        reader=True,
        flags={
            "--vacuum-size": FlagRule(frozenset({E.SYSTEM, E.DELETE})),
            "--vacuum-time": FlagRule(frozenset({E.SYSTEM, E.DELETE})),
            "--vacuum-files": FlagRule(frozenset({E.SYSTEM, E.DELETE})),
            "--rotate": FlagRule(SYSTEM),
            "--flush": FlagRule(SYSTEM),
        },
        takes_value=fs("-u", "-n", "--since", "--until", "-p", "-t", "-o", "--unit"),
    ),
    "kill": Spec(frozenset({E.CODE}), handler="kill", note="signals a process"),
    "mount": Spec(SYSTEM, handler="positional_system"),
    "umount": _SYS,
    "sysctl": Spec(
        READ,
        reader=True,
        handler="sysctl",
        flags={
            "-w": FlagRule(SYSTEM, note="sysctl -w changes the kernel"),
            "-p": FlagRule(SYSTEM),
            "-f": FlagRule(SYSTEM, note="sysctl -f FILE loads settings from a file"),
            "--system": FlagRule(SYSTEM),
        },
        aliases={"--write": "-w", "--load": "-p"},
    ),
    **{
        n: Spec(SYSTEM, handler="firewall")
        for n in (
            "iptables",
            "ip6tables",
            "nft",
            "ufw",
            "firewall-cmd",
            "iptables-restore",
            "ip6tables-restore",
            "pfctl",
            "ipset",
            "ebtables",
        )
    },
    "crontab": Spec(SYSTEM, handler="crontab"),
    "ip": Spec(SYSTEM, handler="ip"),
    "ifconfig": Spec(READ, reader=True, handler="positional_system"),
    "route": Spec(READ, reader=True, handler="positional_system"),
    # They ask systemd over D-Bus (a root service): even their reading verbs are no pure reads.
    **{
        n: Spec(
            _DBUS,
            subcommands={v: Spec(_DBUS) for v in ("status", "show", "list", "--help", "-h")},
            other_sub=_SYS,
            note=f"{n} talks to systemd over D-Bus",
        )
        for n in (
            "hostnamectl",
            "timedatectl",
            "localectl",
            "resolvectl",
            "networkctl",
        )
    },
    "launchctl": _verbs(("list", "print", "print-disabled", "help", "version")),
    "sudo": Spec(frozenset({E.PRIVILEGE})),
    "doas": Spec(frozenset({E.PRIVILEGE})),
    "su": Spec(frozenset({E.PRIVILEGE, E.CODE}), handler="su"),
    "pkexec": Spec(frozenset({E.PRIVILEGE})),
    "runuser": Spec(frozenset({E.PRIVILEGE})),
}
# Partition and encryption tools: catastrophic on a device unless they only print
# (handler ``partition``). Added at the end so the table above stays as it is.
for _name in ("fdisk", "sfdisk", "parted", "gdisk", "sgdisk", "cfdisk", "cryptsetup"):
    PROGRAMS[_name] = Spec(_DISK, handler="partition")
