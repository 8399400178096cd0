"""The corpus from outside the project: real command examples from man pages and community
cheatsheets (``bench/external_corpus.py`` extracts them; the file is checked in so every
machine runs the same commands)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "external.jsonl"


@dataclass(frozen=True, slots=True)
class Example:
    command: str
    source: str  # "man:git-log.1.gz", "cheat:tar", "eg:tar.md"


def examples(path: Path = CORPUS) -> list[Example]:
    with path.open(encoding="utf-8") as handle:
        return [Example(**json.loads(line)) for line in handle if line.strip()]


def commands(path: Path = CORPUS) -> list[str]:
    return [e.command for e in examples(path)]
