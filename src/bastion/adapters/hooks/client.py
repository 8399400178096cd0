"""The hook's fast path: hand the call to a running ``bastion serve`` over its local socket.

Imports only ``sys`` and the C modules ``posix`` (already loaded by start-up) and ``_socket``,
so a hook answered by the daemon costs little more than starting Python: under ``python -S``
(the installed launcher, ``fastpath``) ``import os`` alone would cost ≈2.5 ms, about the
daemon's whole answer; ``os`` is imported only off the fast path (an unusual state-dir
spelling, spawning the daemon). No daemon listening → ``None``, and the caller
decides in process. A daemon that accepted the call but fails to answer → a deny (exit 2),
never a silent allow.

Wire format (both ways length-prefixed, so nothing needs parsing here):
request  = b"BH1\\n" + frame(args joined by NUL) + frame(env as NAME=VALUE joined by NUL) + frame(stdin)
response = b"BH1\\n" + frame(exit code) + frame(stdout) + frame(stderr)
frame(x) = decimal length + b"\\n" + x
"""

from __future__ import annotations

import _socket
import posix
import sys

TYPE_CHECKING = False  # not ``typing``'s: importing typing costs a hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

SOCKET_NAME = "hooks.sock"
#: Tells a spawned daemon which socket to serve (see ``autostart``).
SOCKET_ENV = "BASTION_HOOK_SOCKET"
AUTOSTART_FLAG = "--autostart"
MAGIC = b"BH1\n"
#: Variables that change a hook's meaning; everything else stays with the hook process.
#: ``registry.hook_env_prefixes()`` spelled out: importing the registry here would cost every
#: hook its import time (tests/agents/test_registry.py holds the two equal).
FORWARDED_PREFIXES = ("BASTION_", "CLAUDE_", "CODEX_", "GEMINI_", "QWEN_", "COPILOT_")
MAX_INPUT = 8 * 1024 * 1024


def environ() -> Mapping[str, str]:
    """``os.environ``, without importing ``os`` when nothing has (the launcher): nothing can
    have changed the environment since start-up then, so ``posix.environ`` decoded as
    ``os.environ`` decodes it is the same."""
    loaded = sys.modules.get("os")
    if loaded is not None:
        return loaded.environ  # type: ignore[no-any-return]
    encoding, errors = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()
    return {k.decode(encoding, errors): v.decode(encoding, errors) for k, v in posix.environ.items()}


def socket_path(env: Mapping[str, str]) -> str:
    """``<state dir>/hooks.sock``: the state dir made absolute, ``~`` expanded, normalised;
    ``BASTION_HOOK_SOCKET`` when set (an agent contained by ``bastion launch`` sees only the
    launcher's socket, not the state dir)."""
    explicit = env.get(SOCKET_ENV, "")
    if _plain_absolute(explicit):
        return explicit
    home = env.get("HOME")
    state = env.get("BASTION_STATE_DIR") or (f"{home}/.local/state/bastion" if home else "")
    if _plain_absolute(state):  # what abspath and expanduser leave as it is
        return f"{state}/{SOCKET_NAME}"
    import os

    state = env.get("BASTION_STATE_DIR") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".local", "state", "bastion"
    )
    return os.path.join(os.path.abspath(os.path.expanduser(state)), SOCKET_NAME)


def _plain_absolute(path: str) -> bool:
    """Absolute, and nothing for ``normpath`` to fold: no empty, ``.`` or ``..`` part (so no
    ``//``, which POSIX keeps at the start) and no trailing ``/``."""
    if not path.startswith("/") or path == "/":
        return False
    return all(part not in ("", ".", "..") for part in path[1:].split("/"))


def forwarded_env(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(FORWARDED_PREFIXES) or k in ("HOME", "PWD")}


def frame(data: bytes) -> bytes:
    return str(len(data)).encode() + b"\n" + data


def unframe(data: bytes, count: int) -> list[bytes]:
    """Split ``count`` frames after the magic line; raises ValueError on anything malformed."""
    if not data.startswith(MAGIC):
        raise ValueError("not a Bastion hook message")
    out, at = [], len(MAGIC)
    for _ in range(count):
        end = data.index(b"\n", at)
        size = int(data[at:end])
        if size < 0 or end + 1 + size > len(data):
            raise ValueError("truncated frame")
        out.append(data[end + 1 : end + 1 + size])
        at = end + 1 + size
    return out


def encode_request(args: list[str], env: dict[str, str], stdin: bytes) -> bytes:
    names = "\0".join(f"{k}={v}" for k, v in env.items())
    return MAGIC + frame("\0".join(args).encode()) + frame(names.encode()) + frame(stdin)


def hook_main(args: list[str], *, before_in_process: Callable[[], object] | None = None) -> int:
    """``bastion hook AGENT …``: the daemon's answer when one is listening, else the hook
    decided in this process. ``before_in_process`` runs first in that case: the installed
    launcher, started without ``site`` (``fastpath``), adds the site-packages there."""
    try:
        answered = try_daemon(args)
        if answered is not None:
            return answered
        if before_in_process is not None:
            before_in_process()
        from bastion.adapters.hooks.entry import run_hook
    except ImportError as exc:  # a broken install must still block, never allow
        sys.stderr.write(f"bastion hook: cannot start: {exc}\n")
        return 2
    return run_hook(args)


def try_daemon(args: list[str], deadline: float = 5.0) -> int | None:
    """Answer through the daemon and return the exit code, or None when no daemon listens."""
    env = environ()
    if env.get("BASTION_HOOK_NO_DAEMON") == "1":
        return None
    path = socket_path(env)
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        conn.settimeout(0.5)
        conn.connect(path)
    except OSError:
        conn.close()
        if AUTOSTART_FLAG in args:
            spawn_daemon(path, env)
        return None  # nobody listening: decide in process
    stdin = sys.stdin.buffer.read(MAX_INPUT + 1)
    try:
        conn.settimeout(_wait_for(args, deadline))
        conn.sendall(encode_request(args, forwarded_env(env), stdin))
        conn.shutdown(_socket.SHUT_WR)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
        code, stdout, stderr = unframe(b"".join(chunks), 3)
        exit_code = int(code)
    except (OSError, ValueError) as exc:
        return _deny(args, f"the Bastion daemon failed to answer ({type(exc).__name__}: {exc})")
    finally:
        conn.close()
    sys.stdout.buffer.write(stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(stderr)
    return exit_code


def spawn_daemon(path: str, env: Mapping[str, str]) -> bool:
    """Start a detached hook daemon for ``path`` (``autostart``); False when it is turned off
    (``BASTION_HOOK_AUTOSTART=0``) or could not be spawned. Its standard streams are
    ``/dev/null`` and it runs in its own session, so the agent never waits for it."""
    if env.get("BASTION_HOOK_AUTOSTART") == "0":
        return False
    import os

    null = os.devnull
    actions = [(os.POSIX_SPAWN_OPEN, fd, null, os.O_RDWR, 0) for fd in (0, 1, 2)]
    child_env = {**env, SOCKET_ENV: path}
    # -P: ``-m`` would put the cwd (the agent's workspace) first on sys.path, and a planted
    # ``json.py`` there would run in the daemon, uncontained.
    argv = [sys.executable, "-P", "-m", "bastion.adapters.hooks.autostart"]
    try:
        os.posix_spawn(sys.executable, argv, child_env, file_actions=actions, setsid=True)
    except OSError:
        return False
    return True


def _wait_for(args: list[str], deadline: float) -> float:
    """The daemon may park an ASK up to the hook timeout minus a margin: wait that long."""
    for i, word in enumerate(args):
        value = ""
        if word.startswith("--timeout="):
            value = word.partition("=")[2]
        elif word == "--timeout" and i + 1 < len(args):
            value = args[i + 1]
        try:
            if value and float(value) > deadline:
                return float(value) - 1.0
        except ValueError:
            break
    return deadline


def _deny(args: list[str], reason: str) -> int:
    """Render a deny in the agent's own format (this is the rare path: imports are fine)."""
    from bastion.adapters.hooks.entry import protocol_for
    from bastion.adapters.hooks.protocol import PRE_TOOL_USE, Verdict

    try:
        event = args[args.index("--event") + 1] if "--event" in args[:-1] else PRE_TOOL_USE
        answer = protocol_for(args[0]).render(Verdict("deny", reason, event))
        sys.stdout.write(answer.stdout)
        sys.stderr.write(answer.stderr)
    except Exception:
        sys.stderr.write(f"bastion hook: {reason}\n")
        return 2
    return answer.exit_code  # 2, or 0 for a report (a PostToolUse or Stop: nothing to block)
