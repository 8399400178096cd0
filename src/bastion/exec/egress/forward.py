"""The sandbox's side of the egress proxy (runs as ``python3 -I -S forward.py`` inside it).

Listens on 127.0.0.1:PORT in the sandbox's own network namespace - where nothing else
leads out - and relays every connection to the proxy's Unix socket bound into the
sandbox. It binds before the command starts (so the command's first connection finds
it), runs the command as its child, and exits with the command's status. Standard
library only: it must not import Bastion or anything on the sandbox's path.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading

CHUNK = 262144


def pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(CHUNK)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


def relay(conn: socket.socket, path: str) -> None:
    try:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        upstream.connect(path)
    except OSError:
        conn.close()
        return
    back = threading.Thread(target=pump, args=(upstream, conn), daemon=True)
    back.start()
    pump(conn, upstream)
    back.join()
    conn.close()
    upstream.close()


def serve(listener: socket.socket, path: str) -> None:
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=relay, args=(conn, path), daemon=True).start()


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        sys.stderr.write("usage: forward.py SOCKET PORT -- COMMAND...\n")
        return 2
    path, port, command = argv[1], int(argv[2]), argv[4:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(128)
    pid = os.fork()
    if pid == 0:
        listener.close()
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            sys.stderr.write(f"{command[0]}: {exc.strerror}\n")
            os._exit(127)
    threading.Thread(target=serve, args=(listener, path), daemon=True).start()
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    status = main(sys.argv)
    sys.stderr.flush()
    os._exit(status)  # the relay threads may sit in accept()/recv(): do not wait for them
