"""ssh's ProxyCommand inside the sandbox (runs as ``python3 -I -S connect.py SOCKET HOST PORT``).

Asks the egress proxy on its Unix socket for ``CONNECT HOST:PORT`` - decided by the gate like
any other connection - and, once it is established, relays the tunnel to stdin/stdout, where
ssh speaks its protocol. A refusal is printed (the proxy's reason) and exits 1. Standard
library only: it must not import Bastion or anything on the sandbox's path.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import sys

CHUNK = 65536
MAX_HEAD = 65536


def authority(host: str, port: str) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    """The response head and whatever of the tunnel came with it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(CHUNK)
        if not chunk or len(data) > MAX_HEAD:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def relay(sock: socket.socket, early: bytes) -> None:
    if early:
        os.write(1, early)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ)
    selector.register(sock, selectors.EVENT_READ)
    open_in = True
    while True:
        for key, _ in selector.select():
            if key.fileobj == 0:
                data = os.read(0, CHUNK)
                if not data:
                    selector.unregister(0)
                    open_in = False
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_WR)
                    continue
                sock.sendall(data)
            else:
                data = sock.recv(CHUNK)
                if not data:
                    return
                view = memoryview(data)
                while view:
                    view = view[os.write(1, view) :]
        if not open_in and not selector.get_map():
            return


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        sys.stderr.write("usage: connect.py SOCKET HOST PORT\n")
        return 2
    path, host, port = argv[1:]
    target = authority(host, port)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
        head, rest = read_head(sock)
    except OSError as exc:
        sys.stderr.write(f"bastion egress: cannot reach the egress proxy: {exc.strerror}\n")
        return 1
    status = head.split(b"\r\n", 1)[0].split(b" ")
    if len(status) < 2 or status[1] != b"200":
        body = rest
        with contextlib.suppress(OSError):
            while chunk := sock.recv(CHUNK):
                body += chunk
        shown = body.decode("utf-8", "replace").strip() or head.decode("utf-8", "replace")
        sys.stderr.write(f"{shown}\n")
        return 1
    try:
        relay(sock, rest)
    except OSError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
