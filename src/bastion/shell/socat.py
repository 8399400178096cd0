"""socat's addresses that name files (its man page): what it reads and writes through them.

``socat TCP-LISTEN:9000,fork FILE:notes/aws.txt`` hands the file to whoever connects: a read
of it, judged as any (a credential is denied).
"""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.model import Access, new_path_use
from bastion.shell.words import Word

E = Effect

#: socat's file addresses (its man page): what each does to the file it names. A bare
#: address with a slash is GOPEN. Both directions by default: what the file holds is sent to
#: the other address (a listening socket: to whoever connects), what arrives is written.
_SOCAT_FILES: dict[str, tuple[Access, ...]] = {
    "file": (Access.READ, Access.WRITE),
    "open": (Access.READ, Access.WRITE),
    "gopen": (Access.READ, Access.WRITE),
    "create": (Access.WRITE,),
    "pipe": (Access.READ, Access.WRITE),
    "unix-connect": (Access.READ, Access.WRITE),
    "unix-client": (Access.READ, Access.WRITE),
    "unix-listen": (Access.WRITE,),
    "unix-recvfrom": (Access.WRITE,),
    "unix-sendto": (Access.WRITE,),
}


def socat_files(ctx: Ctx, positionals: list[Word]) -> None:
    """The files socat's two addresses name (``FILE:notes/aws.txt``, ``CREATE:out``,
    ``/dev/x``): paths it reads and writes, options after the first comma."""
    for word in positionals:
        value = word.value
        if value is None:
            ctx.add(E.UNKNOWN, note="socat: an address only known at run time")
            continue
        kind, colon, rest = value.partition(":")
        if not colon:
            kind, rest = ("gopen", value) if "/" in value.split(",", 1)[0] else ("", "")
        accesses = _SOCAT_FILES.get(kind.lower())
        path = rest.split(",", 1)[0]
        if accesses is None or not path:
            continue
        for access in accesses:
            ctx.paths.append(new_path_use(path, access, value, f"socat {kind.upper()} address"))
        if Access.WRITE in accesses:
            ctx.add(E.WRITE)
