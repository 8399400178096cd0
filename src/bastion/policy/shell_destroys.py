"""What a shell command destroys for good, beyond the catastrophic targets (``shell_reach``):
a credential deleted inside a folder it removes, and a shell start-up file of HOME emptied or
removed. Each is as firm as writing the credential or the start-up file would be hard: denied,
never asked (#31: ``rm -rf ~/.docker`` deletes ``config.json``, a login; ``: > ~/.bashrc``
wipes the person's shell set-up, with no way back).

Appending to a start-up file, or editing it in place, stays an ask (a person may have an agent
add or fix a line): a shell write that puts something else in its place (``ls > ~/.bashrc``,
``sort -o ~/.bashrc``, ``strace -o ~/.profile``, ``cp x ~/.zshrc``) is a destruction, and so
is the write tool's new content that keeps none of its lines (``startup_replaced``).
"""

from __future__ import annotations

import posixpath
import re

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.hardline import RC_FILES
from bastion.policy.paths import FileSystem, PathVerdict, hard_link_to_credential
from bastion.policy.shell_reach import PERSONAL_FOLDERS
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach, walk
from bastion.shell.model import Access, PathUse, SimpleCommand

#: Commands that write nothing to their standard output: ``: > f`` empties ``f``.
_SILENT = frozenset({":", "true", "false"})
#: Redirections that replace a file's content (``>>`` appends: not here).
_OVERWRITES = frozenset({"redirection >", "redirection >|", "redirection &>"})
#: Programs whose every write target loses its content (``truncate -s 0``, ``shred``).
_WIPERS = frozenset({"truncate", "shred"})


#: Redirections that keep what a file holds and add to it.
_APPENDS = frozenset({"redirection >>", "redirection &>>"})
#: sed's own writes (``w FILE``, ``s///w FILE``): the file is created empty when sed starts.
_SED_WRITES = frozenset({"sed w command", "sed W command"})
#: Programs whose write of a file is an edit in place (``sed -i``), or an append with ``-a``.
_EDITS_IN_PLACE = frozenset({"sed", "gsed", "perl", "ruby"})


def empties(cmd: SimpleCommand, use: PathUse) -> bool:
    """Does ``use`` leave nothing of the file it names: a delete, a wipe, or an overwrite by a
    command that prints nothing (``: > f``, ``> f``, ``echo -n > f``)?"""
    if use.access is Access.DELETE:
        return True
    if use.access is not Access.WRITE:
        return False
    if use.why in _OVERWRITES:
        program = cmd.program
        if not program or program in _SILENT:
            return True
        return program == "echo" and all(w in ("-n", "-e", "-E", "-ne", "-en") for w in cmd.argv[1:])
    if cmd.program in ("sed", "gsed") and any(a in _DELETE_ALL for a in cmd.argv[1:]):
        return True  # sed -i d FILE: every line deleted
    if cmd.program in ("perl", "ruby") and _prints_nothing_in_place(cmd.argv):
        return True  # perl -i -ne '' FILE: each file becomes what the program prints, nothing
    return cmd.program in _WIPERS


def _prints_nothing_in_place(argv: tuple[str, ...]) -> bool:
    """``perl -i -n -e CODE`` (ruby's too) whose code prints nothing: ``-i`` makes each file
    what the program prints, and ``-n`` (unlike ``-p``) prints no line by itself."""
    letters: set[str] = set()
    code: list[str] = []
    for i, word in enumerate(argv[1:], start=1):
        if not word.startswith("-") or word.startswith("--") or word == "-":
            break
        cluster = re.match(r"-([a-zA-Z]*)", word)
        letters.update(cluster[1] if cluster else "")
        if word.endswith("e") and i + 1 < len(argv):
            code.append(argv[i + 1])
    return (
        {"i", "n"} <= letters
        and "p" not in letters
        and bool(code)
        and not any(re.search(r"print|say|write|puts|\$_\b|`|system|exec", c) for c in code)
    )


#: sed scripts that delete every line.
_DELETE_ALL = frozenset({"d", "1,$d", ",$d", "/^/d", "/.*/d", "/$/d"})


def replaces(cmd: SimpleCommand, use: PathUse) -> bool:
    """Does ``use`` put something else in place of what the file holds: ``ls > f``, ``sort -o
    f``, ``strace -o f``, ``cp x f``, ``tee f``, ``gzip f``, or anything :func:`empties`? An
    append (``>>``, ``tee -a``) or an edit in place (``sed -i``) keeps its lines."""
    if empties(cmd, use):
        return True
    if use.access is not Access.WRITE:
        return False
    if use.why.startswith("redirection"):  # the shell's, whatever the program: `perl … > f` replaces
        return use.why not in _APPENDS
    if use.why in _SED_WRITES:  # sed opens (truncates) each w file before its first line
        return True
    if cmd.program in _EDITS_IN_PLACE:
        return False
    return not (cmd.program == "tee" and any(a in ("-a", "--append") for a in cmd.argv[1:]))


def startup_files(home: str) -> frozenset[str]:
    """HOME's shell start-up files (``hardline.RC_FILES``), by their absolute paths."""
    return frozenset(f"{home.rstrip('/')}/{name}" for name in RC_FILES)


def startup_destroyed(
    policy: Policy, cmd: SimpleCommand, use: PathUse, verdict: PathVerdict
) -> Reason | None:
    """DENY when ``use`` empties, removes or replaces a shell start-up file of HOME (by either
    spelling): what the person set up there is gone either way."""
    if not replaces(cmd, use):
        return None
    startup = startup_files(policy.home)
    for spelled in dict.fromkeys((verdict.lexical, verdict.resolved)):
        if spelled in startup:
            return Reason(
                Decision.DENY,
                "hardline.destructive",
                "built-in",
                spelled[:200],
                f"destroys the shell start-up file {spelled} ({use.why or use.access.value}): "
                "the person's own set-up, never wiped by an agent",
            )
    return None


def startup_replaced(policy: Policy, reach: Reach, verdict: PathVerdict, content: object) -> Reason | None:
    """DENY when the write tool replaces a HOME start-up file, or another file of the person's
    outside the workspace (``_persons``), that has lines of its own with ``content`` that
    keeps none of them (an edit, or a write that keeps them, stays an ask)."""
    if not isinstance(content, str):
        return None
    startup = verdict.resolved in startup_files(policy.home)
    owner = None if startup or verdict.inside_roots else _persons(policy, verdict.resolved, dot_config=True)
    if not startup and owner is None:
        return None
    try:
        old = (reach.read(verdict.resolved) or b"").decode("utf-8", "replace")
    except (OSError, OverBudget):
        return None
    lines = {line.strip() for line in old.splitlines() if line.strip() and not line.strip().startswith("#")}
    kept = {line.strip() for line in content.splitlines()}
    if not lines or lines & kept:
        return None
    what = "the shell start-up file" if startup else f"{owner}:"
    return Reason(
        Decision.DENY,
        "hardline.destructive",
        "built-in",
        verdict.resolved[:200],
        f"the write replaces {what} {verdict.resolved} and keeps none of its "
        f"{len(lines)} lines: someone's own file, never wiped by an agent",
    )


def credentials_deleted(
    policy: Policy, fs: FileSystem, reach: Reach, use: PathUse, verdict: PathVerdict
) -> Reason | None:
    """DENY when a recursive delete outside every writable root removes a credential file below
    its target (by name or by inode): deleting a credential is as hard as writing it. Inside
    the roots (``rm -rf build``) nothing is walked; a walk over budget keeps the ask the
    outside-roots write has anyway."""
    if use.access is not Access.DELETE or verdict.inside_roots:
        return None
    top = verdict.resolved
    credentials, secrets = policy.hardline.credentials, policy.hardline.secrets_read

    def flag(path: str) -> bool:
        return (
            credentials.first_match(path) is not None
            or secrets.first_match(path) is not None
            or hard_link_to_credential(policy, fs, path) is not None
        )

    try:
        found = walk(reach, top, follow_links=False, skip=lambda path, is_dir: False, flag=flag)
    except (OverBudget, OSError):
        return None
    for item in found:
        if item.target is None:
            shown = posixpath.relpath(item.path, top)
            return Reason(
                Decision.DENY,
                "hardline.credentials",
                "built-in",
                item.path[:200],
                f"deleting {verdict.lexical} deletes the credential file {shown} below it: "
                "never deleted by an agent",
            )
    return None


#: Folders whose content is scratch or a cache, made again on demand: deleting one outside the
#: roots stays an ask (``rm -rf /tmp/build``, ``rm -rf ~/.cache/pip``).
_SCRATCH = ("/tmp", "/var/tmp")
_HOME_CACHES = (".cache", ".npm/_cacache", "Library/Caches")
#: rm's recursive options (``-r``, ``-R``, ``-rf``, ``-fR``, ``--recursive``).
_RECURSIVE = re.compile(r"-[A-Za-z]*[rR][A-Za-z]*|--recursive")


def _beside_workspace(policy: Policy, path: str) -> bool:
    """Is ``path`` in a folder beside a workspace root that is no hidden one (another project
    of the person's: ``~/src/other`` beside ``~/src/proj``; not ``~/.local``, nor HOME's
    entries beside a workspace right in HOME, nor HOME beside a workspace kept elsewhere)?"""
    home = policy.home.rstrip("/")
    for root in policy.workspace:
        parent = posixpath.dirname(root.rstrip("/"))
        if parent == home or not path.startswith(parent.rstrip("/") + "/"):
            continue  # a workspace right in HOME: HOME's other entries are asked about
        first = path[len(parent.rstrip("/")) + 1 :].split("/", 1)[0]
        beside = posixpath.join(parent, first)
        if first != posixpath.basename(root.rstrip("/")) and not first.startswith(".") and beside != home:
            return True
    return False


def _persons(policy: Policy, path: str, *, dot_config: bool) -> str | None:
    """Whose ``path`` (outside the roots) is, when it is someone's own beyond doubt: a project
    beside the workspace, anything outside HOME that is no scratch folder, or (``dot_config``)
    the person's configuration in HOME (``~/.gitconfig``, ``~/.config/…``), or what a folder of
    their own files holds (``~/Documents/…``). None for HOME's other entries (asked) and
    scratch or cache folders."""
    home = policy.home.rstrip("/")
    if path == home or path.startswith(home + "/"):
        if _beside_workspace(policy, path):
            return "a project beside the workspace"
        top = posixpath.dirname(path) == home and posixpath.basename(path).startswith(".")
        if dot_config and (top or path.startswith(home + "/.config/")):
            return "the person's own configuration in HOME"
        if path[len(home) + 1 :].split("/", 1)[0] in PERSONAL_FOLDERS:
            return "the person's own files in HOME"  # ~/Documents/thesis.txt
        return None
    # A scratch folder that holds the workspace or HOME is where the person keeps them: its
    # other folders are theirs too (a project checked out below /tmp).
    held = (*policy.workspace, home)
    scratch = [s for s in _SCRATCH if not any(h.startswith(s + "/") for h in held)]
    scratch += [f"{home}/{c}" for c in _HOME_CACHES]
    if any(path == s or path.startswith(s + "/") for s in scratch):
        return None
    return "outside HOME and the workspace"


#: Writes that put other content in a file's place (a program's own edit of a file it keeps,
#: ``git config --global``, ``npm config set``, is none of them).
_OTHER_CONTENT = (
    "redirection", "destination of", "argument of tee", "dd of=", "rsync destination", "sort -o",
    "curl -o", "curl --output", "wget -O", "wget --output-document",
)  # fmt: skip


def file_replaced(
    policy: Policy, reach: Reach, cmd: SimpleCommand, use: PathUse, verdict: PathVerdict
) -> Reason | None:
    """DENY a shell write that replaces, empties or deletes an existing file that is someone's
    own outside the roots (``_persons``: ``echo x > ../other/notes.txt``, ``cp x
    ~/.gitconfig``, ``truncate -s0 /srv/app.conf``). An append or an edit in place stays an
    ask, as does a new file."""
    if verdict.inside_roots or not (
        empties(cmd, use) or (replaces(cmd, use) and use.why.startswith(_OTHER_CONTENT))
    ):
        return None
    path = verdict.resolved
    owner = _persons(policy, path, dot_config=True)
    if owner is None:
        return None
    try:
        if reach.kind(path, follow=False) is not Kind.FILE:
            return None
    except OverBudget:
        return None
    done = "deletes" if use.access is Access.DELETE else "replaces"
    return Reason(
        Decision.DENY,
        "hardline.destructive",
        "built-in",
        path[:200],
        f"{cmd.program or 'the command'} {done} {path} ({owner}; {use.why or use.access.value}): "
        "someone's own file, with no way back; never by an agent",
    )


def outside_folder_deleted(
    policy: Policy, reach: Reach, cmd: SimpleCommand, use: PathUse, verdict: PathVerdict
) -> Reason | None:
    """DENY a recursive delete of a folder that exists outside every writable root, outside
    HOME or in a project beside the workspace, and is no scratch or cache folder (``rm -rf
    ../other-project``, ``rm -rf ~root/.cache``): what it holds is someone's own, no
    repository gives it back, and no sandbox limits a command a person runs. HOME's other
    folders (``~/.local/share/fonts``) and an empty folder's ``rmdir`` stay asks (a file's
    delete is ``file_replaced``'s)."""
    if use.access is not Access.DELETE or verdict.inside_roots or cmd.program in ("rmdir", "unlink"):
        return None
    options = cmd.argv[1 : cmd.argv.index("--")] if "--" in cmd.argv else cmd.argv[1:]
    if cmd.program == "rm" and not any(_RECURSIVE.fullmatch(a) for a in options):
        return None
    path = verdict.resolved
    if _persons(policy, path, dot_config=False) is None:
        return None  # HOME's own folders: asked (credential stores and personal folders aside)
    try:
        if reach.kind(path, follow=False) is not Kind.DIR:
            return None
    except OverBudget:
        return None
    return Reason(
        Decision.DENY,
        "hardline.destructive",
        "built-in",
        path[:200],
        f"the recursive delete of {verdict.lexical} removes the folder {path}, outside every "
        "writable root: someone's own files, with no way back; never by an agent",
    )
