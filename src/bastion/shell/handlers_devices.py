"""Handlers for programs that write block devices or the system: dd, mkfs and friends,
partition and encryption tools, and `hostname NAME`-style commands with arguments."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed
from bastion.shell.model import Access
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


def dd(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    for word in positionals:
        key, eq, val = (word.value or "").partition("=")
        if not eq:
            continue
        target = Word(val, val, val) if word.value is not None else Word(word.text, None, "\x00")
        if key == "if":
            ctx.path(target, Access.READ, "dd if=")
        elif key == "of":
            ctx.path(target, Access.WRITE, "dd of=")
            if word.value is not None and P.is_block_device(P.normalise(val)):
                ctx.catastrophic = f"dd to block device {val}"


def disk(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    ctx.catastrophic = f"{ctx.program} destroys a filesystem"
    for word in positionals:
        ctx.path(word, Access.WRITE, f"device for {ctx.program}")


def positional_system(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """`hostname NAME`, `mount DEV DIR`, `ifconfig eth0 up`: any argument changes the system."""
    if positionals or (parsed.flags and ctx.program == "mount"):
        ctx.add(E.SYSTEM, note=f"{ctx.program} with arguments changes the system")
    else:
        ctx.reader = True
        ctx.effects.discard(E.SYSTEM)
        ctx.effects.add(E.READ)


#: Partition / encryption tools: the forms that only print (anything else rewrites a disk).
_PARTITION_READS: dict[str, frozenset[str]] = {
    "fdisk": frozenset({"-l", "--list", "-V", "--version", "-h", "--help"}),
    "sfdisk": frozenset(
        {
            "-l",
            "--list",
            "-d",
            "--dump",
            "-J",
            "--json",
            "-s",
            "--show-size",
            "-g",
            "--show-geometry",
            "-V",
            "--verify",
            "-F",
            "--list-free",
            "--version",
            "-h",
            "--help",
        }
    ),
    "gdisk": frozenset({"-l", "--version"}),
    "sgdisk": frozenset(
        {
            "-p",
            "--print",
            "-i",
            "--info",
            "-v",
            "--verify",
            "-O",
            "--print-mbr",
            "-L",
            "--list-types",
            "-V",
            "--version",
            "-?",
            "--help",
        }
    ),
    "parted": frozenset(
        {"-l", "--list", "print", "-v", "--version", "-h", "--help", "-s", "--script", "-m", "--machine"}
    ),
    "cfdisk": frozenset({"-V", "--version", "-h", "--help"}),
    "cryptsetup": frozenset(
        {
            "status",
            "isLuks",
            "luksDump",
            "luksUUID",
            "tcryptDump",
            "benchmark",
            "--version",
            "-V",
            "--help",
            "-h",
            "-v",
            "--verbose",
            "--debug",
        }
    ),
}
#: cryptsetup verbs that destroy what a device holds.
_CRYPT_WIPE = frozenset(
    {"luksFormat", "erase", "luksErase", "luksKillSlot", "luksRemoveKey", "reencrypt", "repair", "convert"}
)


def partition(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """fdisk, sfdisk, parted, sgdisk, cryptsetup…: a print/list form only reads; any other
    form acting on a device (or on one only known at run time) is catastrophic."""
    reads = _PARTITION_READS.get(ctx.program, frozenset())
    words = [w.value for w in ctx.words[1:]]
    options = [v.partition("=")[0] if v else v for v in words]
    devices = [w for w in ctx.words[1:] if w.value is None or P.normalise(w.value).startswith("/dev/")]
    listing = (
        bool(options)
        and all(o in reads or (o is not None and o.startswith("/dev/")) for o in options)
        and any(o in reads and o not in ("-s", "--script", "-m", "--machine") for o in options)
    )
    if ctx.program == "cryptsetup":
        verb = next((v for v in words if v is None or not v.startswith("-")), "")
        if verb in reads:
            listing = True
        elif verb is None or verb in _CRYPT_WIPE:
            ctx.catastrophic = f"cryptsetup {verb or '(run-time verb)'} destroys a device's data"
            return
        else:
            listing = False
            devices = []  # open/close/resize: system control, asked
    if listing:  # still system control: it reads raw devices (asked, not catastrophic)
        ctx.effects.discard(E.DESTRUCTIVE)
        ctx.add(E.SYSTEM, note=f"{ctx.program} prints partition / device information")
        return
    for w in devices:
        ctx.catastrophic = f"{ctx.program} rewrites the partition table of {w.text}"
    if not devices and ctx.program in ("cfdisk", "gdisk", "fdisk", "parted"):
        ctx.catastrophic = f"{ctx.program} edits a partition table"


HANDLERS = {"dd": dd, "disk": disk, "partition": partition, "positional_system": positional_system}
