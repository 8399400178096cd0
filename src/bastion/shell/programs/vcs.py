"""git (handled by ``handlers_vcs`` because of its global options) and other VCS tools."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.model import Access
from bastion.shell.programs import git_options as GO
from bastion.shell.programs.spec import (
    CODE,
    DELETE,
    NET,
    READ,
    WRITE,
    FlagRule,
    Spec,
    fs,
    opts,
)

E = Effect
#: Hooks planted in a new repository: code that runs later (a hardline class, never granted).
_PLANTS_HOOKS = frozenset({Effect.CODE, Effect.SELF})
_NET_WRITE = frozenset({E.NETWORK, E.WRITE})
_R = Spec(READ, reader=True)


def _branchish(*write_flags: str, delete_flags: tuple[str, ...] = ()) -> Spec:
    """A subcommand that lists when bare and writes with a name or a write flag."""
    flags = {f: FlagRule(WRITE) for f in write_flags}
    flags.update({f: FlagRule(frozenset({E.WRITE, E.DELETE})) for f in delete_flags})
    return Spec(READ, reader=True, flags=flags, handler="git_listing")


GIT_SUBCOMMANDS: dict[str, Spec] = {
    **{
        n: _R
        for n in (
            "status",
            "log",
            "diff",
            "show",
            "blame",
            "annotate",
            "ls-files",
            "ls-tree",
            "rev-parse",
            "rev-list",
            "describe",
            "shortlog",
            "cat-file",
            "whatchanged",
            "name-rev",
            "merge-base",
            "for-each-ref",
            "show-ref",
            "count-objects",
            "check-ignore",
            "check-attr",
            "version",
            "help",
            "var",
            "cherry",
            "range-diff",
            "diff-tree",
            "diff-files",
            "diff-index",
            "show-branch",
            "verify-commit",
            "verify-tag",
            "fsck",
            "check-ref-format",
            "get-tar-commit-id",
            "--version",
            "--help",
        )
    },
    "branch": _branchish(
        "-m",
        "-M",
        "-c",
        "-C",
        "-u",
        "--set-upstream-to",
        "--unset-upstream",
        "--edit-description",
        "-f",
        delete_flags=("-d", "-D", "--delete"),
    ),
    "tag": _branchish("-a", "-s", "-m", "-f", "-F", delete_flags=("-d", "--delete")),
    "remote": Spec(
        READ,
        reader=True,
        subcommands={
            "show": Spec(NET, flags={"-n": FlagRule(note="-n: does not contact the remote")}),
            "get-url": opts(_R, "--push --all"),
            "-v": _R,
            "--verbose": _R,
            "add": Spec(WRITE),
            "remove": Spec(WRITE),
            "rm": Spec(WRITE),
            "rename": Spec(WRITE),
            "set-url": Spec(WRITE),
            "set-head": Spec(WRITE),
            "prune": Spec(_NET_WRITE),
            "update": Spec(_NET_WRITE),
        },
        other_sub=Spec(WRITE),
    ),
    "stash": Spec(
        WRITE,
        subcommands={
            "list": opts(_R, GO.REFLOG),
            "show": opts(_R, GO.STASH_SHOW),
            "push": opts(Spec(WRITE), f"{GO.STASH_PUSH} -h --help"),
            "drop": Spec(DELETE),
            "clear": Spec(DELETE),
        },
        other_sub=Spec(WRITE),
    ),
    "worktree": Spec(
        WRITE, subcommands={"list": opts(_R, GO.WORKTREE_LIST), "remove": Spec(DELETE)}, other_sub=Spec(WRITE)
    ),
    "reflog": opts(
        Spec(
            READ,
            reader=True,
            subcommands={
                "show": opts(_R, GO.REFLOG),
                "list": _R,
                "exists": _R,
                "expire": Spec(DELETE),
                "delete": Spec(DELETE),
            },
            other_sub=opts(_R, GO.REFLOG),
        ),
        GO.REFLOG,
    ),
    "submodule": Spec(
        _NET_WRITE,
        subcommands={
            "status": _R,
            "summary": _R,
            "foreach": Spec(frozenset({E.CODE}), note="git submodule foreach runs a shell command"),
        },
        other_sub=Spec(_NET_WRITE),
    ),
    "notes": Spec(WRITE, subcommands={"show": _R, "list": _R}, other_sub=Spec(WRITE)),
    "config": Spec(READ, reader=True, handler="git_config"),
    # git grep searches the whole work tree below the cwd (or the paths after the pattern)
    "grep": Spec(READ, reader=True, args=Access.READ, lead=1, lead_flags=fs("-e", "-f"), recursive=True),
    # git add copies each file it names into the object store, where git show prints it: a
    # read of each (a hard link to a credential file is that file).
    "add": Spec(WRITE, args=Access.READ),
    # git init --template copies the template's hooks into the new repository's .git/hooks:
    # code git runs on the next commit or checkout there, outside any sandbox (suite F).
    "init": Spec(
        WRITE,
        takes_value=fs("--template", "--separate-git-dir", "-b", "--initial-branch", "--object-format"),
        flags={
            "--template": FlagRule(_PLANTS_HOOKS, note="--template copies its hooks into the new repository")
        },
    ),
    **{
        n: Spec(WRITE)
        for n in (
            "commit",
            "checkout",
            "switch",
            "restore",
            "merge",
            "rebase",
            "cherry-pick",
            "revert",
            "mv",
            "apply",
            "am",
            "gc",
            "prune",
            "update-ref",
            "update-index",
            "sparse-checkout",
            "bisect",
            "format-patch",
            "repack",
            "pack-refs",
            "symbolic-ref",
            "read-tree",
            "write-tree",
            "commit-tree",
            "mktag",
            "replace",
            "maintenance",
            "rerere",
            "stage",
            "citool",
            "mergetool",
            "difftool",
        )
    },
    # Its file operands are read into the object store (git cat-file prints them back).
    "hash-object": opts(
        Spec(WRITE, args=Access.READ), "-t= -w --path= --no-filters --literally --stdin --stdin-paths!U"
    ),
    "rm": Spec(frozenset({E.WRITE, E.DELETE}), args=Access.DELETE),
    "clean": Spec(frozenset({E.DELETE}), handler="git_clean"),
    "reset": Spec(
        WRITE,
        flags={"--hard": FlagRule(frozenset({E.DELETE}), note="git reset --hard discards uncommitted work")},
    ),
    "filter-branch": Spec(frozenset({E.WRITE, E.DELETE, E.CODE})),
    "filter-repo": Spec(frozenset({E.WRITE, E.DELETE, E.CODE})),
    "push": Spec(
        frozenset({E.NETWORK, E.WRITE}),
        hosts=True,
        handler="git_push",
        aliases={
            "--force": "-f",
            "--force-with-lease": "-f",
            "--force-if-includes": "-f",
            "--delete": "-d",
            "--mirror": "-f",
        },
    ),
    "pull": Spec(_NET_WRITE, hosts=True),
    "fetch": Spec(_NET_WRITE, hosts=True),
    "clone": Spec(
        _NET_WRITE,
        hosts=True,
        handler="git_clone",
        takes_value=fs(
            "-b",
            "--branch",
            "--depth",
            "-o",
            "--origin",
            "-c",
            "--config",
            "--reference",
            "-u",
            "--upload-pack",
            "--template",
            "--separate-git-dir",
            "--filter",
            "-j",
        ),
        flags={
            "-u": FlagRule(CODE, note="--upload-pack runs a program"),
            "--template": FlagRule(_PLANTS_HOOKS, note="--template copies its hooks into the new repository"),
        },
        aliases={"--upload-pack": "-u"},
    ),
    "ls-remote": Spec(NET, hosts=True),
    "archive": Spec(
        WRITE,
        takes_value=fs("-o", "--output", "--remote", "--prefix"),
        flags={"-o": FlagRule(value=Access.WRITE), "--remote": FlagRule(NET)},
        aliases={"--output": "-o"},
    ),
    "send-email": Spec(NET),
    "request-pull": Spec(READ),
    "daemon": Spec(frozenset({E.NETWORK, E.CODE})),
    "instaweb": Spec(frozenset({E.NETWORK, E.CODE})),
}
for _name, _table in {**GO.TABLES, **GO.WRITES}.items():  # the allow-lists, parsed once
    GIT_SUBCOMMANDS[_name] = opts(GIT_SUBCOMMANDS[_name], f"{_table} -h --help")
GIT_SUBCOMMANDS["remote"] = opts(GIT_SUBCOMMANDS["remote"], GO.REMOTE)
GIT_GLOBAL = opts(Spec(), GO.GLOBAL)

#: Subcommand flags that take a value (so their values are not mistaken for paths).
GIT_SUB_VALUES = fs(
    "-m",
    "-F",
    "-C",
    "-c",
    "-b",
    "-B",
    "-n",
    "--author",
    "--date",
    "--format",
    "--pretty",
    "-S",
    "-G",
    "--grep",
    "--since",
    "--until",
    "--message",
    "--file",
    "-o",
    "--output",
    "-U",
    "--depth",
    "-X",
    "--strategy-option",
    "-s",
    "--strategy",
    "--onto",
    "--exec",
    "-x",
)
#: `git -c key=value` keys that cannot run a program (anything else is program injection).
GIT_SAFE_CONFIG_PREFIXES = (
    "color.",
    "core.quotepath",
    "core.autocrlf",
    "core.safecrlf",
    "core.abbrev",
    "core.ignorecase",
    "core.filemode",
    "user.name",
    "user.email",
    "advice.",
    "init.defaultbranch",
    "log.",
    "column.",
    "diff.noprefix",
    "diff.renames",
    "diff.algorithm",
    "diff.context",
    "diff.mnemonicprefix",
    "pull.rebase",
    "pull.ff",
    "push.default",
    "push.autosetupremote",
    "commit.gpgsign",
    "tag.gpgsign",
    "status.",
    "merge.conflictstyle",
    "rebase.autostash",
    "rebase.autosquash",
    "fetch.prune",
    "format.pretty",
    "i18n.",
    "grep.",
    "branch.sort",
    "tag.sort",
    "versionsort.",
    "protocol.version",
    "gc.auto",
    "blame.",
)
#: Config whose value is a program: safe only when the value is one of SAFE_PAGERS.
GIT_PAGER_KEYS = ("core.pager", "pager.", "core.editor", "sequence.editor")
#: Pager-like values that run nothing unexpected.
SAFE_PAGERS = frozenset({"", "cat", "less", "less -R", "less -FRX", "more", "false", "true"})

GIT_GLOBAL_VALUES = fs(
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--exec-path",
    "--super-prefix",
    "--list-cmds",
)

PROGRAMS: dict[str, Spec] = {
    "git": Spec(handler="git"),
    "hg": Spec(
        WRITE,
        subcommands={n: _R for n in ("status", "log", "diff", "show", "id", "branch", "branches", "summary")},
        other_sub=Spec(WRITE),
    ),
    "svn": Spec(
        WRITE,
        subcommands={n: _R for n in ("status", "log", "diff", "info", "cat", "list", "ls")},
        other_sub=Spec(frozenset({E.WRITE, E.NETWORK})),
    ),
    "gh": Spec(NET, handler="gh"),
}
