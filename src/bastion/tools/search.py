"""In-process search tools: glob (names) and grep (contents). No shell, no subprocess.

The gate decided the directory; every file found below it is checked again against the
path policy, so a symlink or a ``.env`` inside the workspace is skipped, not read.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation
from bastion.policy.paths import OsFileSystem, check_path
from bastion.tools.base import Tool, ToolError, ToolResult
from bastion.tools.files import READ_ONLY, target_path
from bastion.tools.schema import obj

_DIR = {"type": "string", "default": ".", "description": "directory to search (default: cwd)"}
SKIP_DIRS = frozenset({".git", ".hg", ".svn"})
#: Files larger than this are not searched by grep.
MAX_GREP_FILE = 8 * 1024 * 1024


def readable(tool: Tool, path: str) -> bool:
    """May this file found under an allowed directory be shown? (policy re-check)"""
    verdict = check_path(tool.ctx.policy, path, write=False, cwd="/", fs=OsFileSystem())
    return verdict.decision is Decision.ALLOW


def _safe_pattern(pattern: str) -> str:
    if not pattern or pattern.startswith("/") or ".." in Path(pattern).parts:
        raise ToolError("pattern must be relative to the search directory, without '..'")
    return pattern


class GlobTool(Tool):
    name = "glob"
    family = Family.GLOB
    description = "Find files by name pattern ('**/*.py'), relative to a directory."
    annotations = READ_ONLY
    limit = 1000

    def build_schema(self) -> dict[str, Any]:
        return obj({"pattern": {"type": "string"}, "path": _DIR}, ("pattern",))

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        root = target_path(self, call, args["path"])
        if not os.path.isdir(root):
            raise ToolError(f"{root}: not a directory")
        pattern = _safe_pattern(args["pattern"])
        found: list[str] = []
        more = False
        for match in sorted(Path(root).glob(pattern)):
            if not readable(self, str(match)):
                continue
            if len(found) == self.limit:
                more = True
                break
            found.append(os.path.relpath(match, root))
        return ToolResult(
            ok=True,
            decision="allow",
            stdout="".join(f"{f}\n" for f in found),
            truncated=more,
            data={"root": root, "matches": found},
        )


class GrepTool(Tool):
    name = "grep"
    family = Family.GREP
    description = (
        "Search file contents with a regular expression (Python syntax). "
        "Prints path:line:text. 'include' filters file names ('*.py')."
    )
    annotations = READ_ONLY

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "pattern": {"type": "string", "maxLength": 1000},
                "path": _DIR,
                "include": {"type": "string", "default": "*"},
                "ignore_case": {"type": "boolean", "default": False},
                "max_matches": {"type": "integer", "minimum": 1, "default": 200},
            },
            ("pattern",),
        )

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        root = target_path(self, call, args["path"])
        try:
            regex = re.compile(args["pattern"], re.IGNORECASE if args["ignore_case"] else 0)
        except re.error as exc:
            raise ToolError(f"bad regular expression: {exc}") from None
        if not os.path.exists(root):
            raise ToolError(f"{root}: no such file or directory")
        limit = args["max_matches"]
        lines: list[str] = []
        matches = 0
        budget = self.ctx.config.max_output_bytes
        for path in self._files(root, args["include"]):
            shown = os.path.relpath(path, root) if path != root else os.path.basename(path)
            for number, line in _matching_lines(path, regex):
                matches += 1
                if matches > limit:
                    break
                entry = f"{shown}:{number}:{line[:500]}\n"
                budget -= len(entry)
                lines.append(entry)
            if matches > limit or budget < 0:
                break
        cut = matches > limit or budget < 0
        return ToolResult(
            ok=True,
            decision="allow",
            stdout="".join(lines),
            truncated=cut,
            exit_code=None,
            data={"root": root, "matches": min(matches, limit)},
        )

    def _files(self, root: str, include: str) -> Iterator[str]:
        if os.path.isfile(root):
            yield root
            return
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                path = os.path.join(folder, name)
                if fnmatch.fnmatch(name, include) and not os.path.islink(path) and readable(self, path):
                    yield path


def _matching_lines(path: str, regex: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    try:
        if os.path.getsize(path) > MAX_GREP_FILE:
            return
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return
    if b"\x00" in data[:8192]:
        return
    text = data.decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if regex.search(line):
            yield number, line
