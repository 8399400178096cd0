"""In-process file tools: read, write, edit, multi_edit, list. No shell, no subprocess.

Paths are normalised exactly as the gate normalised them (``~``, cwd, ``..``), and the
tool runs only after the gate allowed that path. Read, write and edit pin the path's
directory before the decision and do their I/O through it (``bastion.tools.pinned``), so
a symlink swapped in while a call waits for a person is never followed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.policy.decision import Evaluation
from bastion.policy.paths import normalise
from bastion.tools.base import Prepared, Tool, ToolError, ToolResult, hints
from bastion.tools.pinned import PinFailure, Pinned, pin, read_pinned, write_pinned
from bastion.tools.schema import obj

READ_ONLY = hints(read_only=True, destructive=False, idempotent=True, open_world=False)
_PATH = {"type": "string", "description": "file path, absolute or relative to the cwd"}
#: Bytes looked at to tell a binary file from text.
_SNIFF = 8192


def target_path(tool: Tool, call: ToolCall, path: str) -> str:
    return normalise(path, cwd=call.cwd, home=tool.ctx.policy.home)


def read_text(target: Pinned, limit: int) -> tuple[str, bool]:
    """(text, truncated); a binary file is a ToolError."""
    data = read_pinned(target, limit)
    if b"\x00" in data[:_SNIFF]:
        raise ToolError(f"{target.path}: binary file, not shown")
    return data[:limit].decode("utf-8", errors="replace"), len(data) > limit


class PinnedFileTool(Tool):
    """A file tool whose path's directory is pinned before the decision."""

    def prepare(self, args: Mapping[str, Any], call: ToolCall) -> Prepared:
        try:
            return pin(target_path(self, call, args["path"]))
        except ToolError as exc:
            return PinFailure(str(exc))
        except Exception as exc:  # reported after ALLOW only; never allows by itself
            return PinFailure(f"{args.get('path')}: cannot be opened safely ({type(exc).__name__})")

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        prepared = self.prepare(args, call)
        try:
            return await self.execute_prepared(args, call, evaluation, prepared)
        finally:
            prepared.close()

    async def execute_prepared(
        self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation, prepared: Prepared | None
    ) -> ToolResult:
        if isinstance(prepared, PinFailure):
            raise ToolError(prepared.message)
        if not isinstance(prepared, Pinned):
            raise ToolError(f"{args.get('path')}: the path was not pinned before the decision")
        return await self.pinned(args, prepared)

    async def pinned(self, args: Mapping[str, Any], target: Pinned) -> ToolResult:
        raise NotImplementedError


class ReadTool(PinnedFileTool):
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

    async def pinned(self, args: Mapping[str, Any], target: Pinned) -> ToolResult:
        path = target.path
        text, cut = read_text(target, self.ctx.config.max_output_bytes)
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


class WriteTool(PinnedFileTool):
    name = "write"
    family = Family.WRITE
    description = "Create or overwrite a text file with the given content (parents created)."
    annotations = hints(read_only=False, destructive=True, idempotent=True, open_world=False)

    def build_schema(self) -> dict[str, Any]:
        return obj({"path": _PATH, "content": {"type": "string"}}, ("path", "content"))

    async def pinned(self, args: Mapping[str, Any], target: Pinned) -> ToolResult:
        data = args["content"].encode("utf-8")
        created = write_pinned(target, data, create_parents=True)
        return ToolResult(
            ok=True, decision="allow", data={"path": target.path, "bytes": len(data), "created": created}
        )


class EditTool(PinnedFileTool):
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

    async def pinned(self, args: Mapping[str, Any], target: Pinned) -> ToolResult:
        text = read_for_edit(target)
        updated, count = replace_once(target.path, text, args)
        write_edited(target, updated)
        return ToolResult(ok=True, decision="allow", data={"path": target.path, "replacements": count})


_EDIT_LIMIT = 64 * 1024 * 1024


def read_for_edit(target: Pinned) -> str:
    text, cut = read_text(target, _EDIT_LIMIT)
    if cut:
        raise ToolError(f"{target.path}: larger than 64 MiB, not edited")
    return text


def replace_once(path: str, text: str, edit: Mapping[str, Any], where: str = "") -> tuple[str, int]:
    """``text`` with one edit applied (in memory) and the number of replacements; a
    ToolError when ``old_string`` is empty, unchanged, missing, or ambiguous."""
    old, new, every = edit["old_string"], edit["new_string"], edit.get("replace_all", False)
    if not old:
        raise ToolError(f"{where}old_string must not be empty")
    if old == new:
        raise ToolError(f"{where}old_string and new_string are the same: nothing to change")
    count = text.count(old)
    if count == 0:
        raise ToolError(f"{path}: {where}old_string not found; nothing changed")
    if count > 1 and not every:
        raise ToolError(
            f"{path}: {where}old_string found {count} times; add context to make it "
            f"unique or set replace_all; nothing changed"
        )
    return (text.replace(old, new) if every else text.replace(old, new, 1)), count


def write_edited(target: Pinned, text: str) -> None:
    # A symlink stays a symlink: the pin followed it at decision time (the gate checked
    # that resolved spelling) and the atomic rename replaces what it points to.
    write_pinned(target, text.encode("utf-8"), create_parents=False)


class MultiEditTool(PinnedFileTool):
    """Several edits to one file, applied in order in memory, then one atomic write: all of
    them or none. Decided exactly as an ``edit`` of that path."""

    name = "multi_edit"
    family = Family.EDIT
    description = (
        "Apply several exact-string edits to one text file in one call, in order, each on the "
        "result of the previous. All or nothing: when any old_string is not found (or is found "
        "more than once without replace_all), the file is left unchanged."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=False, open_world=False)
    max_edits = 100

    def build_schema(self) -> dict[str, Any]:
        edit = obj(
            {
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
                "replace_all": {"type": "boolean", "default": False},
            },
            ("old_string", "new_string"),
        )
        edits = {"type": "array", "items": edit, "minItems": 1, "maxItems": self.max_edits}
        return obj({"path": _PATH, "edits": edits}, ("path", "edits"))

    async def pinned(self, args: Mapping[str, Any], target: Pinned) -> ToolResult:
        text = read_for_edit(target)
        counts = []
        for number, edit in enumerate(args["edits"], 1):
            text, count = replace_once(target.path, text, edit, where=f"edit {number}: ")
            counts.append(count)
        write_edited(target, text)
        data = {"path": target.path, "edits": len(counts), "replacements": counts}
        return ToolResult(ok=True, decision="allow", data=data)


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
