"""What a recursive read means by what it reaches: a credential file below its start, or a
symlink it follows out of the tree (``shell_reach`` walks; this judges each thing found)."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, check_path, hard_link_to_credential
from bastion.policy.search_lines import LineTest, Matches, always, prints_any
from bastion.policy.secret_content import HEAD
from bastion.policy.secret_shapes import key_body_lines, project_secret
from bastion.policy.treewalk import Reach


def reached_reason(
    policy: Policy, fs: FileSystem, what: str, start: str, path: str, target: str | None, *, cwd: str
) -> list[Reason]:
    """What a recursive read that reaches ``path`` means. A credential reached in the
    person's project (a ``.env`` beside the code) asks: the search may not print it. One
    reached outside every readable root (``grep -r token ~``), a hard link to a known
    credential file, or a symlink to a credential location is no accident of a project's
    layout: reading it is reading a credential, denied."""
    if target is None:
        linked = hard_link_to_credential(policy, fs, path)
        if linked is not None and linked != path:
            why = f"{path}, another name (a hard link) of the credential file {linked}"
        elif linked is not None:
            why = f"the credential file {path}"
        elif not check_path(policy, start, write=False, cwd=cwd, fs=fs).inside_roots:
            why = f"the credential file {path}, outside every readable root"
        else:
            return [
                Reason(
                    Decision.ASK,
                    "hardline.credentials",
                    "built-in",
                    path[:200],
                    f"{what} reads everything below {start}, which holds the credential file {path}: "
                    "a person must confirm (or name the files and folders to search)",
                )
            ]
        return [
            Reason(
                Decision.DENY,
                "hardline.credentials",
                "built-in",
                path[:200],
                f"{what} reads everything below {start}, which holds {why}: never read by an agent",
            )
        ]
    verdict = check_path(policy, path, write=False, cwd=cwd, fs=fs)
    if verdict.decision is Decision.ALLOW:
        return []
    if verdict.decision is Decision.DENY and Effect.CREDENTIALS in verdict.effects:
        return [
            Reason(
                Decision.DENY,
                "hardline.credentials",
                "built-in",
                f"{path} -> {target}"[:200],
                f"{what} follows the symlink {path} to {target}, a credential location: "
                "never read by an agent",
            )
        ]
    return [
        Reason(
            Decision.ASK,
            "shell.reach-outside",
            "built-in",
            f"{path} -> {target}"[:200],
            f"{what} follows the symlink {path} to {target}, which is not an allowed read: "
            "a person must confirm",
        )
    ]


def printed_credential(
    reach: Reach, what: str, reason: Reason, path: str, printed: LineTest, *, names_only: bool = False
) -> Reason:
    """A project's credential file a search reaches asks (the search may print nothing of
    it); one it would print lines of (``grep -r PASSWORD android/`` over
    ``gradle.properties``) is read, denied. A search that prints only names or counts
    (``names_only``: Claude's Grep by default) tells which credential files hold its pattern:
    denied when what it matches is part of a secret (``ghp_`` over a deploy key's file: the
    line no longer holds one without the match), the search itself hunting the secret.
    ``reason`` as it is otherwise, or when the file cannot be read (then the search cannot
    print it either)."""
    if reason.decision is not Decision.ASK or reason.rule != "hardline.credentials":
        return reason
    reach.spend(1, path)
    try:
        data = reach.tree.read(path, HEAD)
    except OSError:
        return reason
    if names_only:
        key = key_body_lines(data)  # a key's body line is part of it whatever it matches
        if not isinstance(printed, Matches) or not any(
            printed(line)
            and (
                line in key
                or (project_secret(line, path) and not project_secret(printed.without_matches(line), path))
            )
            for line in data.split(b"\n")
        ):
            return reason
        message = (
            f"{what} searches the credential file {path} for part of a secret it holds: even the "
            "names or counts it prints tell what the file holds; reading a credential, never by an agent"
        )
    elif printed is always:
        message = f"{what} prints the credential file {path} whole: reading a credential, never by an agent"
    elif prints_any(data, printed):
        message = (
            f"{what} prints lines of the credential file {path} (they match what it searches for): "
            "reading a credential, never by an agent"
        )
    else:
        return reason
    return Reason(Decision.DENY, "hardline.credentials", "built-in", path[:200], message)


def split_reason(what: str, path: str) -> Reason:
    """A listed name that reaches the command as other words: split at its blanks or quotes
    (a folder ``x `` holding ``etc/passwd`` is listed as ``x /etc/passwd``), or an option."""
    return Reason(
        Decision.ASK,
        "shell.dynamic-path",
        "built-in",
        path[:200],
        f"{what} gets {path!r} as a listed name that becomes other words (blanks, quotes, a "
        "leading '-'): other paths or options; a person must confirm",
    )
