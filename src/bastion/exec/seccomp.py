"""The seccomp filter every sandboxed run gets, compiled with libseccomp (``pyseccomp``).

Denied (EPERM): the system calls a confined program has no business with and that are
the usual first step out of a container - debugging other processes, the kernel keyring,
mounting, loading kernel code or BPF, performance counters, joining or making namespaces.
``clone``/``unshare`` are refused only with ``CLONE_NEWUSER``; ``clone3`` (whose flags the
filter cannot see) answers ENOSYS, so libc falls back to ``clone``. Calls of another
architecture (a 32-bit binary on x86-64) kill the process: libseccomp's default.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import tempfile

from bastion.exec.runner import ExecError

DENIED_SYSCALLS: tuple[str, ...] = (
    "ptrace", "process_vm_readv", "process_vm_writev", "keyctl", "add_key", "request_key",
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fspick",
    "mount_setattr", "setns", "bpf", "perf_event_open", "userfaultfd", "kexec_load",
    "kexec_file_load", "init_module", "finit_module", "delete_module", "open_by_handle_at",
    "name_to_handle_at", "swapon", "swapoff", "reboot", "acct", "quotactl", "syslog",
    "iopl", "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "lookup_dcookie", "vhangup",
)  # fmt: skip
CLONE_NEWUSER = 0x10000000


class SeccompUnavailable(ExecError):
    hint = "pip install pyseccomp (and the libseccomp2 system library), or set [exec] seccomp = false"


@functools.cache
def filter_program() -> bytes:
    """The BPF program (cached: the same for every run)."""
    try:
        import pyseccomp as sc  # type: ignore[import-untyped]
    except (ImportError, OSError) as exc:
        raise SeccompUnavailable(f"the seccomp filter cannot be built: {exc}") from None
    try:
        rules = sc.SyscallFilter(defaction=sc.ALLOW)
        deny = sc.ERRNO(errno.EPERM)
        for name in DENIED_SYSCALLS:
            try:
                rules.add_rule(deny, name)
            except (RuntimeError, ValueError, OSError):
                continue  # not a syscall on this architecture
        for name in ("clone", "unshare"):
            rules.add_rule(deny, name, sc.Arg(0, sc.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
        rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
        with tempfile.TemporaryFile() as handle:
            rules.export_bpf(handle)
            handle.seek(0)
            return handle.read()
    except (RuntimeError, ValueError, OSError) as exc:
        raise SeccompUnavailable(f"the seccomp filter cannot be built: {exc}") from None


def filter_fd() -> int:
    """A readable fd holding the program, for ``bwrap --seccomp FD`` (caller closes it)."""
    program = filter_program()
    read, write = os.pipe()
    try:
        os.write(write, program)  # a few hundred bytes: far below the pipe's buffer
    finally:
        os.close(write)
    return read


def program_file(folder: str) -> str:
    """The program as a file in ``folder``, named by its hash (written once, read-only), for
    ``bwrap --seccomp FD`` with a shell redirection ``FD<file``: a run started by the agent's
    shell needs no Python to hand it over. A file whose content differs is replaced."""
    program = filter_program()
    path = os.path.join(folder, f"seccomp-{hashlib.sha256(program).hexdigest()[:32]}.bpf")
    try:
        with open(path, "rb") as handle:
            if handle.read(len(program) + 1) == program:
                return path
    except OSError:
        pass
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".seccomp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(program)
        os.chmod(temp, 0o444)
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return path


def available() -> str | None:
    """None when the filter can be built here, else why not."""
    try:
        filter_program()
    except SeccompUnavailable as exc:
        return str(exc)
    return None
