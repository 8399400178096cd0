"""Arguments the knowledge base does not model as paths, named in a command anyway: a safety
net for the programs whose arguments the tables leave unread. A path-like word naming a
credential location asks a person (``pytest ~/.ssh/id_rsa``), or is a credential read when the
program reads it (an ``-in``/``--input`` option's file; a C compiler's operand, which it prints
preprocessed or quotes in its diagnostics: ``gcc -E -x c ~/.netrc``); one naming a HOME shell
start-up file, given to a program that is no recognised reader, may replace it (``openssl rand
-out ~/.bashrc``, ``git bundle create ~/.bashrc``): denied as destructive."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import PathError, hard_link_to_credential, normalise
from bastion.policy.shell_destroys import startup_files
from bastion.policy.stages import Context
from bastion.policy.verdict import Subject
from bastion.shell.model import SimpleCommand

_EXCLUDING = ("--exclude=", "--exclude-dir=")


def credential_arguments(ctx: Context, subject: Subject, cmd: SimpleCommand, cwd: str) -> None:
    """A safety net for programs whose arguments the knowledge base does not model as paths
    (``pytest ~/.ssh/id_rsa``, ``tool --key=~/.aws/credentials``): a path-like word naming a
    credential location asks a person."""
    known: set[str] | None = None  # built on the first path-like word (most commands have none)
    credentials = ctx.policy.hardline.credentials
    startup = startup_files(ctx.policy.home)
    before = ""
    for word in cmd.argv[1:]:
        option, before = before, word
        if word.startswith(_EXCLUDING):
            continue  # a pattern of what to leave out (grep/tar/rsync --exclude=.env)
        if word.startswith("-") and "=" in word:
            option, _, value = word.partition("=")
        else:
            value = word
        if not (value.startswith(("/", "~", ".")) or "/" in value):
            continue
        if known is None:
            known = {p.raw for p in cmd.paths} | {p.path for p in cmd.paths if p.path}
        if value in known:
            continue
        try:
            path = normalise(value, cwd=cwd, home=ctx.policy.home)
        except PathError:
            continue
        glob = credentials.first_match(path)
        pattern = glob.pattern if glob is not None else None
        read = option in _INPUTS or (cmd.program in OPERAND_READERS and not word.startswith("-"))
        if pattern is None and read:  # a credential by its inode, as an input
            pattern = _linked_credential(ctx, path)
        if pattern is not None:
            subject.effects.add(Effect.CREDENTIALS)
            subject.hard.append(_credential_argument(value, path, pattern, read))
        elif not cmd.pure_reader and path in startup:
            subject.effects.add(Effect.DESTRUCTIVE)
            subject.hard.append(_startup_argument(value, path))


#: Programs that read every operand and print its lines: a C compiler preprocessing it
#: (``gcc -E -x c ~/.netrc``), or quoting the lines its diagnostics are about.
OPERAND_READERS = frozenset({"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "cpp", "clang-cpp"})


def _startup_argument(value: str, path: str) -> Reason:
    """A program that is no recognised reader, given a shell start-up file of HOME where the
    tables do not say what it does with it (``openssl rand -out ~/.bashrc``, ``gcc -o
    ~/.bashrc``, ``git bundle create ~/.bashrc``): it may replace it."""
    return Reason(
        Decision.DENY,
        "hardline.destructive",
        "built-in",
        path[:200],
        f"argument {value!r} names the shell start-up file {path}, and the program is no recognised "
        "reader: it may replace the person's own set-up, never done by an agent",
    )


def _linked_credential(ctx: Context, path: str) -> str | None:
    try:
        return hard_link_to_credential(ctx.policy, ctx.fs, ctx.fs.resolve(path))
    except OSError:
        return None


#: Options that name the file a program takes as its input, to transform and print or send
#: (``openssl base64 -in F``, ``tool --input=F``): a credential named there is read.
_INPUTS = frozenset(
    {"-in", "--in", "-input", "--input", "-infile", "--infile", "--input-file", "--from-file"}
)


def _credential_argument(value: str, path: str, pattern: str, read: bool) -> Reason:
    if read:
        return Reason(
            Decision.DENY,
            "hardline.credentials",
            "built-in",
            f"{path} ~ {pattern}",
            f"{value!r} is given as the program's input, and names a credential location: "
            "the program reads it (never read by an agent)",
        )
    return Reason(
        Decision.ASK,
        "hardline.credentials",
        "built-in",
        f"{path} ~ {pattern}",
        f"argument {value!r} names a credential location: a person must confirm",
    )
