"""The program text a command runs from a file (#31, suite F).

``sh scripts/dump.sh`` runs what the file spells: the classifier sees only ``sh`` and a path,
and the command, not known harmless, runs contained. What the sandbox cannot hold is a denial
the text itself earns: a script that prints the project's secrets (the sandbox hides credential
files by name, not a config whose content holds a token), deletes the workspace, or writes a
start-up file through ``sed -f``'s ``w`` command. The gate reads such a file (a small one,
inside the roots: its read is judged as any other path of the command) and decides its text
as the command it spells; only denials are taken from it. A harmless text never allows the
command: the file may change before it runs (an earlier part of the same call may write it).

Which files: a shell's script (``sh F``, ``bash -x F``, ``source F``, ``. F``), a program
run by its path whose first line names a shell (``./build.sh``), ``sed -f F``, ``awk -f F``,
the package.json script ``npm run X`` runs, the recipes ``make X`` runs. Other interpreters'
scripts are not read: a string that names a file in Python (``load_dotenv(".env")``) is no
read of it for certain, and what a program does is the sandbox's to hold.

What the sandbox hides is left to it: a credential file of the workspace by its name (a
project script's ``source .env`` reads an empty file there) is no denial of the script. What
it cannot hide stays denied: a file whose content holds a secret under an ordinary name, a
credential of HOME named outright, a start-up file replaced, a catastrophic delete.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace

from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.make_recipes import recipes
from bastion.policy.metadata_words import metadata_word
from bastion.policy.paths import FileSystem, PathError, check_path
from bastion.policy.stages import Context
from bastion.policy.treewalk import OverBudget, Reach
from bastion.policy.verdict import Assembly, Subject
from bastion.shell.model import ShellAnalysis, SimpleCommand

#: Decides a shell analysis into an assembly (``shell_policy.decide_analysis``).
Decide = Callable[[Context, ToolCall, Assembly, ShellAnalysis], None]

#: A script longer than this is not read (it is decided, contained, as any other code).
MAX_SCRIPT_BYTES = 64 * 1024
#: Scripts read by one decision, and how deep a script's own scripts are followed.
MAX_SCRIPTS = 8
MAX_DEPTH = 2

#: ``#!/bin/sh``, ``#!/usr/bin/env bash``, ``#! /bin/dash -e``: a shell's script.
_SHELL_LINE = re.compile(
    rb"#![ \t]*(?:/usr)?(?:/local)?/bin/(?:env[ \t]+(?:-\S+[ \t]+)*)?(?:ba|da|z|k|mk|a)?sh\b"
)


#: ``#!/usr/bin/awk -f``, ``#!/usr/bin/env -S gawk -f``, ``#!/bin/sed -nf``: a program file
#: the interpreter reads with its ``-f`` (the option's letters end in ``f``).
_SCRIPT_LINE = re.compile(
    rb"#![ \t]*(?:/usr)?(?:/local)?/bin/(?:env[ \t]+(?:-\S+[ \t]+)*)?(?:[gmn]?awk|(sed))[ \t]+-\w*f\b"
)


@dataclass(frozen=True, slots=True)
class Script:
    """A file of program text a command runs: ``language`` is "sh" (decided as shell), "sed",
    "awk" or "sqlite" (decided as that program given the text), or "urls" (``curl -K``,
    ``wget -i``: only the addresses it names are looked at)."""

    path: str  # resolved
    raw: str  # as the command spells it
    language: str
    text: str

    def run_by(self, program: str | None) -> str:
        if program is None or program == posixpath.basename(self.raw):
            return "run as a program"
        return f"which {program} runs"

    def as_shell(self) -> str:
        """The shell command that spells the same program."""
        if self.language == "sed":
            return f"sed -n -e {shlex.quote(self.text)}"
        if self.language == "awk":
            return f"awk {shlex.quote(self.text)}"
        if self.language == "sqlite":
            return f"sqlite3 :memory: {shlex.quote(self.text)}"
        return self.text


def scripts_run(policy: Policy, fs: FileSystem, reach: Reach, cmd: SimpleCommand, cwd: str) -> list[Script]:
    """The files of program text ``cmd`` runs that can be read now (allowed reads, small,
    regular files); the others are judged as the command's other paths are."""
    found: list[Script] = []
    for use in cmd.paths:
        if use.runs is None or use.path is None or len(found) >= MAX_SCRIPTS:
            continue
        try:
            verdict = check_path(policy, use.path, write=False, cwd=cwd, fs=fs)
            if verdict.decision is not Decision.ALLOW:
                continue
            reach.spend(1, verdict.resolved)
            data = reach.tree.read(verdict.resolved, MAX_SCRIPT_BYTES + 1)
        except (OSError, OverBudget, PathError):
            continue
        if len(data) > MAX_SCRIPT_BYTES or b"\0" in data:
            continue  # too long to read, or a binary: decided as code
        language = use.runs if use.runs != "exec" else _by_first_line(data)
        text, raw = data.decode("utf-8", "surrogateescape"), use.raw
        if language is not None and language.startswith("npm:"):
            language, text, raw = "sh", _npm_script(text, language[4:]), f"{raw}'s script {language[4:]!r}"
        elif language is not None and language.startswith("args:"):  # gcc @args.rsp
            language, text, raw = "sh", _with_arguments(language[5:], text), f"{raw}'s arguments"
        elif language is not None and language.startswith("make:"):
            goals = language[5:].split()
            language, text, raw = (
                "sh",
                recipes(text, goals),
                f"{raw}'s recipes for {' '.join(goals) or 'its goal'}",
            )
        if language is not None and text:
            found.append(Script(verdict.resolved, raw, language, text))
    return found


def _with_arguments(program: str, text: str) -> str:
    """The command a response file's words make of ``program`` (words split as a shell
    would: GCC quotes and escapes them the same way); empty when they do not split."""
    try:
        words = shlex.split(text, comments=False)
    except ValueError:
        return ""
    return shlex.join([program, *words]) if words else ""


def _npm_script(package: str, name: str) -> str:
    """The shell text ``npm run NAME`` runs from a package.json: its pre- and post- scripts
    around it (npm 11 `npm help scripts`); empty when it has none or is no JSON object."""
    try:
        scripts = json.loads(package).get("scripts")
    except (ValueError, AttributeError):
        return ""
    if not isinstance(scripts, dict):
        return ""
    texts = (scripts.get(key) for key in (f"pre{name}", name, f"post{name}"))
    return "\n".join(text for text in texts if isinstance(text, str))


def _by_first_line(data: bytes) -> str | None:
    """The language a program run by its path is written in, by its ``#!`` line: a shell's,
    or awk's or sed's program file (``#!/usr/bin/awk -f``, ``#!/usr/bin/env -S gawk -f``,
    ``#!/bin/sed -nf``: the kernel runs ``awk -f FILE``, whose first line awk and sed read
    as a comment)."""
    line = data.split(b"\n", 1)[0]
    if _SHELL_LINE.match(line):
        return "sh"
    found = _SCRIPT_LINE.match(line)
    return None if found is None else ("sed" if found.group(1) == b"sed" else "awk")


#: The words of a curl config or a wget input list (``url = "http://…"``, ``--url=…``).
_URL_WORDS = re.compile(r"[^\s\"'=]+")


def _metadata(script: Script, cmd: SimpleCommand, endpoint: str) -> Reason:
    return Reason(
        Decision.DENY,
        "hardline.metadata",
        "built-in",
        f"{script.raw}: {endpoint}"[:200],
        f"{script.raw}, which {cmd.program} reads its addresses from, names the cloud metadata endpoint "
        f"{endpoint}: never reached by an agent",
    )


def _hidden(policy: Policy, reason: Reason) -> bool:
    """Is ``reason`` a read or write of a workspace file the sandbox hides by its name (a
    project's own ``.env`` its scripts source)? Not another name of a credential elsewhere
    (``fixtures/sample.txt = ~/.aws/credentials``, suite H's ``make test``): no project's
    build reads that, so it is denied although the sandbox would hide it too."""
    path = reason.matched
    if " = " in path:
        return False
    return (
        reason.rule in ("hardline.credentials", "paths.deny_read")
        and any(path == root or path.startswith(root.rstrip("/") + "/") for root in policy.workspace)
        and policy.hardline.credentials.first_match(path) is not None
    )


def script_denials(
    ctx: Context, call: ToolCall, subject: Subject, cmd: SimpleCommand, reach: Reach, decide: Decide
) -> None:
    """The denials the program text ``cmd`` runs from files earns, each naming its script, on
    its ``subject``.

    A script's commands with words only known at run time are left out: what a heuristic
    about a run-time value denies at the agent's own command line (``rm -rf "$dir/"`` is the
    root when the variable is empty, ``echo $TOKEN`` prints a secret) is, in a script, the
    ordinary code the sandbox holds. So are its hosts (the sandbox gives it no network): only
    what it names for certain is taken."""
    if ctx.scripts_depth >= MAX_DEPTH or not any(use.runs for use in cmd.paths):
        return
    denials: list[Reason] = []
    for script in scripts_run(ctx.policy, ctx.fs, reach, cmd, call.cwd):
        if script.language == "urls":  # curl -K, wget -i: the addresses a file names
            endpoint = metadata_word(("", *_URL_WORDS.findall(script.text)))
            denials.extend(() if endpoint is None else (_metadata(script, cmd, endpoint),))
            continue
        source = script.as_shell()
        analysis = ctx.analyze_shell(source)
        certain = tuple(c for c in analysis.commands if not c.dynamic and not c.dynamic_words)
        inner = Assembly(approval_default=Reason(Decision.ASK, "approval.default", "built-in", "", ""))
        decide(replace(ctx, scripts_depth=ctx.scripts_depth + 1), call, inner, ShellAnalysis(source, certain))
        found = [
            r
            for s in inner.subjects
            for r in (*s.hard, *((s.override,) if s.override is not None else ()))
            if r.decision is Decision.DENY
            and not r.rule.startswith("network.")
            and not _hidden(ctx.policy, r)
        ]
        denials.extend(
            Reason(
                Decision.DENY,
                reason.rule,
                reason.source,
                f"{script.raw}: {reason.matched}"[:200],
                f"{script.raw}, {script.run_by(cmd.program)}, holds what is denied: {reason.message}"[:500],
            )
            for reason in dict.fromkeys(found)
        )
    subject.hard.extend(denials)
    subject.effects |= {Effect.CREDENTIALS for r in denials if r.rule == "hardline.credentials"}
