"""glob and grep: in-process, re-checking every file found against the path policy."""

from __future__ import annotations

import os
from pathlib import Path

from tests.tools.conftest import ToolsFactory, run


def test_glob_finds_files_by_pattern(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "src" / "b.py").write_text("")
    result = run(make_tools()["glob"], {"pattern": "**/*.py"})
    assert (result["ok"], result["stdout"]) == (True, "src/app.py\nsrc/b.py\n")


def test_glob_refuses_a_pattern_that_climbs_out(make_tools: ToolsFactory, home: Path) -> None:
    # The gate judges the folder the pattern lists (HOME, outside every root); the tool
    # refuses any '..' besides, even one that stays inside.
    out = run(make_tools()["glob"], {"pattern": "../**/id_rsa"})
    inside = run(make_tools()["glob"], {"pattern": "src/../**/app.py"})
    assert (out["ok"], out["message"]) == (
        False,
        f"{home} is outside every readable root; nobody can be asked here, so the call is denied",
    )
    assert (inside["ok"], inside["message"]) == (
        False,
        "pattern must be relative to the search directory, without '..'",
    )


def test_grep_prints_path_line_and_text(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "src" / "b.py").write_text("x = 1\nprint(x)\n")
    result = run(make_tools()["grep"], {"pattern": r"print\("})
    assert (result["ok"], result["stdout"]) == (True, "src/app.py:1:print(1)\nsrc/b.py:2:print(x)\n")
    assert result["data"]["matches"] == 2


def test_grep_filters_by_file_name_and_ignores_case(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "notes.txt").write_text("PRINT me\n")
    result = run(make_tools()["grep"], {"pattern": "print", "include": "*.txt", "ignore_case": True})
    assert result["stdout"] == "notes.txt:1:PRINT me\n"


def test_grep_skips_denied_files_and_symlinks_out_of_the_workspace(
    make_tools: ToolsFactory, workspace: Path, home: Path
) -> None:
    (workspace / ".env").write_text("API_KEY=needle\n")
    os.symlink(home / "notes.txt", workspace / "notes-link")
    (workspace / "ok.txt").write_text("needle\n")
    (home / "notes.txt").write_text("needle outside\n")
    result = run(make_tools()["grep"], {"pattern": "needle"})
    assert result["stdout"] == "ok.txt:1:needle\n"


def test_grep_over_a_folder_holding_a_link_to_a_credential_is_refused(
    make_tools: ToolsFactory, workspace: Path, home: Path
) -> None:
    os.symlink(home / ".ssh" / "id_rsa", workspace / "key-link")
    (workspace / "ok.txt").write_text("needle\n")
    (home / ".ssh" / "id_rsa").write_text("needle PRIVATE\n")
    result = run(make_tools()["grep"], {"pattern": "needle"})
    assert (result["ok"], result["decision"]) == (False, "deny")


def test_grep_stops_at_max_matches_and_says_so(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "many.txt").write_text("hit\n" * 10)
    result = run(make_tools()["grep"], {"pattern": "hit", "max_matches": 3})
    assert (result["stdout"], result["truncated"]) == (
        "many.txt:1:hit\nmany.txt:2:hit\nmany.txt:3:hit\n",
        True,
    )


def test_a_bad_regular_expression_is_reported(make_tools: ToolsFactory) -> None:
    result = run(make_tools()["grep"], {"pattern": "("})
    assert result["ok"] is False
    assert result["message"].startswith("bad regular expression: missing ), unterminated")
