"""In-process file tools: read, write, edit, list. No shell, no subprocess.

Paths are normalised exactly as the gate normalised them (``~``, cwd, ``..``), and the
tool runs only after the gate allowed that path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from typing import Any

from bastion.call.model import Family, ToolCall
from bastion.policy.decision import Evaluation
from bastion.policy.paths import normalise
from bastion.tools.base import Tool, ToolError, ToolResult, hints
from bastion.tools.schema import obj

READ_ONLY = hints(read_only=True, destructive=False, idempotent=True, open_world=False)
_PATH = {"type": "string", "description": "file path, absolute or relative to the cwd"}
#: Bytes looked at to tell a binary file from text.
_SNIFF = 8192


def target_path(tool: Tool, call: ToolCall, path: str) -> str:
    return normalise(path, cwd=call.cwd, home=tool.ctx.policy.home)


def read_text(path: str, limit: int) -> tuple[str, bool]:
    """(text, truncated); a binary or oversized-beyond-reason file is a ToolError."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise ToolError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ToolError(f"{path}: is a directory (use the list tool)") from None
    except OSError as exc:
        raise ToolError(f"{path}: {exc.strerror}") from None
    if b"\x00" in data[:_SNIFF]:
        raise ToolError(f"{path}: binary file, not shown")
    return data[:limit].decode("utf-8", errors="replace"), len(data) > limit


class ReadTool(Tool):
    name = "read"
    family = Family.READ
    description = "Read a text file. Optional 1-based start_line and max_lines select lines."
    annotations = READ_ONLY

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "path": _PATH,
                "start_line": {"type": "integer", "minimum": 1, "default": 1},
                "max_lines": {"type": "integer", "minimum": 1},
            },
            ("path",),
        )

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        path = target_path(self, call, args["path"])
        text, cut = read_text(path, self.ctx.config.max_output_bytes)
        lines = text.splitlines(keepends=True)
        start = args["start_line"] - 1
        stop = start + args["max_lines"] if "max_lines" in args else len(lines)
        return ToolResult(
            ok=True,
            decision="allow",
            stdout="".join(lines[start:stop]),
            truncated=cut,
            data={"path": path, "lines": len(lines)},
        )


class WriteTool(Tool):
    name = "write"
    family = Family.WRITE
    description = "Create or overwrite a text file with the given content (parents created)."
    annotations = hints(read_only=False, destructive=True, idempotent=True, open_world=False)

    def build_schema(self) -> dict[str, Any]:
        return obj({"path": _PATH, "content": {"type": "string"}}, ("path", "content"))

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        path = target_path(self, call, args["path"])
        existed = os.path.exists(path)
        data = args["content"].encode("utf-8")
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as exc:
            raise ToolError(f"{path}: {exc.strerror}") from None
        return ToolResult(
            ok=True, decision="allow", data={"path": path, "bytes": len(data), "created": not existed}
        )


class EditTool(Tool):
    name = "edit"
    family = Family.EDIT
    description = (
        "Replace an exact string in a text file. Fails when old_string is not found, "
        "or is found more than once and replace_all is false."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=False, open_world=False)

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "path": _PATH,
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
                "replace_all": {"type": "boolean", "default": False},
            },
            ("path", "old_string", "new_string"),
        )

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        path = target_path(self, call, args["path"])
        old, new = args["old_string"], args["new_string"]
        if not old:
            raise ToolError("old_string must not be empty")
        if old == new:
            raise ToolError("old_string and new_string are the same: nothing to change")
        text, cut = read_text(path, 64 * 1024 * 1024)
        if cut:
            raise ToolError(f"{path}: larger than 64 MiB, not edited")
        count = text.count(old)
        if count == 0:
            raise ToolError(f"{path}: old_string not found; nothing changed")
        if count > 1 and not args["replace_all"]:
            raise ToolError(
                f"{path}: old_string found {count} times; add context to make it "
                f"unique or set replace_all; nothing changed"
            )
        updated = text.replace(old, new) if args["replace_all"] else text.replace(old, new, 1)
        real = os.path.realpath(path)  # keep a symlink a symlink: edit what it points to
        mode = stat.S_IMODE(os.stat(real).st_mode)
        temp = f"{real}.bastion-edit-{os.getpid()}"
        try:
            with open(temp, "x", encoding="utf-8", newline="") as handle:
                handle.write(updated)
            os.chmod(temp, mode)
            os.replace(temp, real)
        except OSError as exc:
            raise ToolError(f"{path}: {exc.strerror}") from None
        return ToolResult(ok=True, decision="allow", data={"path": path, "replacements": count})


class ListTool(Tool):
    name = "list"
    family = Family.LIST
    description = "List a directory: one entry per line, directories end with '/'."
    annotations = READ_ONLY
    limit = 2000

    def build_schema(self) -> dict[str, Any]:
        return obj({"path": {**_PATH, "default": "."}})

    def call_args(self, args: Mapping[str, Any]) -> dict[str, Any]:
        return {"path": args["path"]}

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        path = target_path(self, call, args["path"])
        try:
            with os.scandir(path) as found:
                entries = sorted(found, key=lambda e: e.name)
        except OSError as exc:
            raise ToolError(f"{path}: {exc.strerror}") from None
        rows = []
        for entry in entries[: self.limit]:
            kind = (
                "link"
                if entry.is_symlink()
                else "dir"
                if entry.is_dir()
                else "file"
                if entry.is_file()
                else "other"
            )
            size = entry.stat(follow_symlinks=False).st_size if kind == "file" else None
            rows.append({"name": entry.name, "type": kind, "size": size})
        text = "".join(f"{r['name']}{'/' if r['type'] == 'dir' else ''}\n" for r in rows)
        return ToolResult(
            ok=True,
            decision="allow",
            stdout=text,
            truncated=len(entries) > self.limit,
            data={"path": path, "entries": rows},
        )
