"""Options a program takes from a file: the files they name are its reads and writes (#31,
suite C: ``curl -K curl.cfg`` whose ``upload-file = ~/.aws/credentials`` sends it,
``WGETRC=.wgetrc wget URL`` whose ``post_file = ~/.netrc`` posts it, ``output = ~/.bashrc``).

The classifier cannot see into the file: it asks. The gate reads it (small files, through the
call's ``Reach``), maps each setting that names a file to a read or a write by the tool's own
manual, and judges each like a path on the command line: a credential read is denied, a write
the path policy would not allow asks or is denied. Only ever stricter: the command still asks.

- curl(1) "-K, --config": one option per line, ``--`` optional, ``=``/``:``/blank between
  name and value, values in quotes; ``@file`` values of ``--data*`` and ``-F name=@file`` read.
- wget(1) "Wgetrc Commands": ``name = value``, names in any case with ``_``/``-`` ignored;
  read from ``--config=FILE`` or ``$WGETRC``; ``-e COMMAND`` gives one more.
"""

from __future__ import annotations

import re

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, PathError, check_path
from bastion.policy.secret_content import outside_secret
from bastion.policy.tree import Tree
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import SimpleCommand

R, W = "read", "write"

#: curl's settings that name a file, by long name and short letter.
_CURL: dict[str, str] = {
    "output": W, "o": W, "upload-file": R, "T": R, "netrc-file": R, "cert": R, "E": R, "key": R,
    "cookie": R, "b": R, "cookie-jar": W, "c": W, "dump-header": W, "D": W, "trace": W,
    "trace-ascii": W, "stderr": W, "output-dir": W, "libcurl": W, "etag-save": W,
    "etag-compare": R, "cacert": R, "capath": R, "proxy-cert": R, "proxy-key": R, "config": R, "K": R,
}  # fmt: skip
#: curl's settings whose ``@file`` value is read (and sent).
_CURL_AT = frozenset({"data", "d", "data-binary", "data-urlencode", "data-ascii", "json", "write-out", "w"})
_CURL_FORM = frozenset({"form", "F", "form-string"})
#: wgetrc commands that name a file (names without ``_`` / ``-``, lower case).
_WGET: dict[str, str] = {
    "postfile": R, "bodyfile": R, "input": R, "loadcookies": R, "certificate": R,
    "privatekey": R, "cacertificate": R, "outputdocument": W, "logfile": W, "savecookies": W,
    "dirprefix": W, "hsts-file": W,
}  # fmt: skip

_LINE = re.compile(r"^\s*-{0,2}([A-Za-z][\w-]*)\s*(?:[=:]\s*|\s+)(.*?)\s*$")
_WGETRC_ENV = re.compile(r"(?:^|\s)WGETRC=(\S+)\s")


def check_option_files(
    policy: Policy, fs: FileSystem, tree: Tree, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """DENY / ASK reasons for the files ``cmd``'s option files (and ``wget -e``) name."""
    if cmd.program not in ("curl", "wget") or cwds is None:
        return []
    cwd = cwds[-1]
    files, lines = _sources(cmd)
    settings = [(_setting(line), line) for line in lines]
    for name in files:
        try:
            data = reach.read(check_path(policy, name, write=False, cwd=cwd, fs=fs).resolved)
        except (OSError, OverBudget, PathError):
            continue
        settings.extend(
            (_setting(line), line) for line in (data or b"").decode("utf-8", "replace").splitlines()
        )
    reasons: list[Reason] = []
    table = _CURL if cmd.program == "curl" else _WGET
    for parsed, line in settings:
        if parsed is None:
            continue
        key, value = parsed
        access = _access(cmd.program, table, key, value)
        if access is None:
            continue
        path = value.lstrip("@").split(";")[0] if access == R else value
        if "=@" in value or "=<" in value:
            path = re.split(r"=[@<]", value, maxsplit=1)[1].split(";")[0]
        reasons.extend(_judge(policy, fs, tree, cmd.program or "", line, path, cwd=cwd, write=access == W))
    return reasons


def _sources(cmd: SimpleCommand) -> tuple[list[str], list[str]]:
    """The option files ``cmd`` reads and the option lines its own words give (``wget -e``)."""
    files: list[str] = []
    lines: list[str] = []
    argv = cmd.argv
    names = ("-K", "--config") if cmd.program == "curl" else ("--config",)
    for i, word in enumerate(argv[1:], start=1):
        head, eq, value = word.partition("=")
        if head in names:
            files.append(value if eq else (argv[i + 1] if i + 1 < len(argv) else ""))
        elif word.startswith("-K") and len(word) > 2 and cmd.program == "curl":
            files.append(word[2:])
        elif cmd.program == "wget" and head in ("-e", "--execute"):
            lines.append(value if eq else (argv[i + 1] if i + 1 < len(argv) else ""))
    if cmd.program == "wget" and (env := _WGETRC_ENV.search(cmd.text + " ")) is not None:
        files.append(env.group(1).strip("'\""))
    return [f for f in files if f], lines


def _setting(line: str) -> tuple[str, str] | None:
    if line.lstrip().startswith("#"):
        return None
    found = _LINE.match(line)
    if found is None:
        return None
    value = found.group(2)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return found.group(1), value


def _access(program: str | None, table: dict[str, str], key: str, value: str) -> str | None:
    if program == "wget":
        return table.get(key.lower().replace("_", "").replace("-", "") if key != "hsts-file" else key)
    if key in table:
        return table[key]
    if key in _CURL_AT and value.startswith("@") and value != "@-":
        return R
    if key in _CURL_FORM and ("=@" in value or "=<" in value):
        return R
    return None


def _judge(
    policy: Policy, fs: FileSystem, tree: Tree, program: str, line: str, path: str, *, cwd: str, write: bool
) -> list[Reason]:
    try:
        verdict = outside_secret(tree, check_path(policy, path, write=write, cwd=cwd, fs=fs), write=write)
    except PathError:
        return []
    if verdict.decision not in (Decision.DENY, Decision.ASK):
        return []
    setting = line.strip()[:80]
    return [
        Reason(r.decision, r.rule, r.source, r.matched, f"{program}'s option {setting!r}: {r.message}"[:400])
        for r in verdict.reasons
        if r.decision in (Decision.DENY, Decision.ASK)
    ]
