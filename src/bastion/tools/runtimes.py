"""The language runtimes the code tool offers: found on the host, run inside the sandbox.

A runtime is offered only when its interpreter exists. One installed outside the system
directories (pyenv, rustup, nvm) has its own install prefix mounted read-only - that
directory only, never the HOME around it.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

from bastion.exec.limits import SYSTEM_PATH

_SYSTEM_PREFIXES = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/")


@dataclass(frozen=True, slots=True)
class Runtime:
    language: str
    filename: str  # the source file's name in the temp dir
    command: tuple[str, ...]  # "{dir}" and "{file}" are replaced
    readonly: tuple[str, ...] = ()  # install prefixes to mount (outside the system dirs)
    fix: str = ""

    def argv(self, directory: str) -> list[str]:
        file = os.path.join(directory, self.filename)
        return [part.replace("{dir}", directory).replace("{file}", file) for part in self.command]


#: How to install each runtime when it is missing (for doctor).
INSTALL_HINTS = {
    "python": "apt-get install python3",
    "bash": "apt-get install bash",
    "node": "apt-get install nodejs",
    "rust": "install a Rust toolchain with cargo (rustup.rs or apt-get install cargo)",
}


def _prefix_of(executable: str) -> tuple[str, ...]:
    """The install prefix to mount for an executable outside the system dirs."""
    real = os.path.realpath(executable)
    if real.startswith(_SYSTEM_PREFIXES):
        return ()
    return (os.path.dirname(os.path.dirname(real)),)  # …/bin/x → …


def _python() -> Runtime | None:
    found = shutil.which("python3", path=SYSTEM_PATH)
    if found is not None:
        return Runtime("python", "main.py", (found, "{file}"))
    real = os.path.realpath(sys.executable)
    return Runtime("python", "main.py", (real, "{file}"), (sys.base_prefix,))


def _simple(language: str, program: str, filename: str) -> Runtime | None:
    found = shutil.which(program, path=SYSTEM_PATH) or shutil.which(program)
    if found is None:
        return None
    return Runtime(language, filename, (os.path.realpath(found), "{file}"), _prefix_of(found))


def _rust() -> Runtime | None:
    """Offered where cargo exists; compiled with that toolchain's rustc, then run."""
    if shutil.which("cargo") is None:
        return None
    rustc = shutil.which("rustc")
    if rustc is None:
        return None
    try:
        done = subprocess.run(
            [rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=20, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    sysroot = done.stdout.strip()
    real_rustc = os.path.join(sysroot, "bin", "rustc")
    if not sysroot or not os.path.isfile(real_rustc):
        return None
    script = 'rustc --edition 2021 -o "$1/main" "$1/main.rs" && exec "$1/main"'
    readonly = () if sysroot.startswith(_SYSTEM_PREFIXES) else (sysroot,)
    return Runtime(
        "rust",
        "main.rs",
        ("bash", "-c", script.replace("rustc", real_rustc, 1), "bastion-rust", "{dir}"),
        readonly,
    )


@functools.cache
def detect_runtimes() -> dict[str, Runtime]:
    """language → Runtime for every runtime present on this host (cached per process)."""
    found = {
        "python": _python(),
        "bash": _simple("bash", "bash", "main.sh"),
        "node": _simple("node", "node", "main.js"),
        "rust": _rust(),
    }
    return {name: runtime for name, runtime in found.items() if runtime is not None}
