"""Static file servers: each hands every file below a folder to whoever connects, which is a
read of all of it, recursively, as ``grep -r`` is (#31, suite D: ``python3 -m http.server
--directory ../..`` serves HOME). The policy walks the folder: a credential below it is denied.

Each server's folder, from its own usage: an option (``--root DIR``), the first operand, or
the working directory when neither is given. ``python -m http.server`` is read in
``handlers_python``; ``php -S`` and ``ruby -run -e httpd`` are the interpreters' own servers.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx, path_use
from bastion.shell.flags import Parsed
from bastion.shell.model import Access, new_path_use, read_below
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


@dataclass(frozen=True, slots=True)
class Server:
    folder: tuple[str, ...] = ()  # options naming the folder served
    operand: bool = True  # else: the first operand names it
    valued: tuple[str, ...] = ()  # its other options that take a value
    words: tuple[str, ...] = ()  # subcommand words before its options (caddy file-server)


SERVERS: dict[str, Server] = {
    "http-server": Server(valued=("-p", "--port", "-a", "-c", "-e", "--ext", "-S", "-C", "-K", "--proxy")),
    "serve": Server(valued=("-l", "--listen", "-p", "-c", "--config", "--ssl-cert", "--ssl-key")),
    "live-server": Server(valued=()),
    "darkhttpd": Server(valued=("--port", "--addr", "--log", "--index", "--mimetypes", "--uid", "--gid")),
    "miniserve": Server(valued=("-p", "--port", "-i", "--interfaces", "-a", "--auth", "--title")),
    "static-web-server": Server(folder=("-d", "--root"), operand=False, valued=("-p", "--port", "-a")),
    "caddy": Server(
        folder=("-r", "--root"), operand=False, valued=("--listen", "-l"), words=("file-server",)
    ),
    "twistd": Server(folder=("--path",), operand=False, valued=("--port", "--listen"), words=("web",)),
}


def file_server(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """The folder a static file server hands out, read recursively."""
    server = SERVERS[ctx.program or ""]
    args = ctx.words[1:]
    operands = [w.value for w in args if w.value is not None and not w.value.startswith("-")]
    if server.words and operands[: len(server.words)] != list(server.words):
        return  # another subcommand (caddy run, twistd ftp…): the spec's effects decide
    ctx.add(E.NETWORK, note=f"{ctx.program} serves a folder to the network")
    served(ctx, args, server, skip=len(server.words))


def served(ctx: Ctx, args: list[Word], server: Server, *, skip: int = 0) -> None:
    why = f"{ctx.program} serves every file below it to the network"
    folder: Word | None = None
    i, operands = 0, 0
    while i < len(args):
        word, value = args[i], args[i].value
        i += 1
        if value is None:
            ctx.add(E.UNKNOWN, note=f"{ctx.program}: an argument only known at run time")
            return
        name, eq, inline = value.partition("=")
        if name in server.folder:
            if eq:
                ctx.paths.append(new_path_use(inline, Access.READ, value, why, None, True))
                return
            folder = args[i] if i < len(args) else None
            i += 1
        elif value.startswith("-"):
            i += 1 if name in server.valued and not eq else 0
        else:
            operands += 1
            if server.operand and folder is None and operands == skip + 1:
                folder = word
    if folder is None:
        ctx.paths.append(new_path_use(".", Access.READ, ".", why, None, True))
        return
    use = path_use(folder, Access.READ, why)
    if use is None:
        ctx.add(E.UNKNOWN, note=f"{ctx.program}: the folder it serves is only known at run time")
        return
    ctx.paths.append(read_below(use))


#: ``php -S ADDR [-t DOCROOT]``: its built-in server.
PHP_SERVER = Server(folder=("-t", "--docroot"), operand=False, valued=("-S", "-c", "-d", "-z"))
#: ``ruby -run -e httpd [DIR] [-p PORT]``: un.rb's server.
RUBY_HTTPD = Server(valued=("-p", "--port", "-b", "--bind-address"))


def interpreter_server(ctx: Ctx, family: str) -> None:
    """The built-in servers of interpreters: ``php -S`` serves its docroot (or the working
    directory), ``ruby -run -e httpd DIR`` serves DIR."""
    values = [w.value for w in ctx.words[1:]]
    if family == "php" and "-S" in values:
        ctx.add(E.NETWORK, note="php -S serves a folder to the network")
        served(ctx, ctx.words[1:], PHP_SERVER)
    elif family == "ruby" and "-run" in values and "httpd" in values:
        at = values.index("httpd") + 1
        ctx.add(E.NETWORK, note="ruby -run -e httpd serves a folder to the network")
        served(ctx, ctx.words[1 + at :], RUBY_HTTPD)


HANDLERS = {"file_server": file_server}
