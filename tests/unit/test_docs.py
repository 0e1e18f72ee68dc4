"""The project carries its own documents: nothing in it points to notes outside the repository, and
every document path a text names exists."""

from __future__ import annotations

import re
import subprocess

from libs.config import PROJECT_ROOT

OUTSIDE = re.compile(r"ARCHITECTURE\.md|RULES\.md|\.\./shared|shared/seeds|seeds/0")
DOC_PATH = re.compile(r"`?\b(docs/[a-z0-9_-]+\.md)\b")


def _tracked_text_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    suffixes = (".py", ".md", ".yaml", ".toml", ".txt", ".sql", "Makefile", ".json")
    return [p for p in out if p.endswith(suffixes)]


def test_nothing_points_outside_the_repository() -> None:
    offenders = []
    for path in _tracked_text_files():
        if path == "tests/unit/test_docs.py":
            continue
        text = (PROJECT_ROOT / path).read_text(errors="replace")
        offenders += [f"{path}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
    assert not offenders, offenders


def test_every_named_document_exists() -> None:
    missing = set()
    for path in _tracked_text_files():
        for match in DOC_PATH.finditer((PROJECT_ROOT / path).read_text(errors="replace")):
            if not (PROJECT_ROOT / match.group(1)).is_file():
                missing.add(f"{path} -> {match.group(1)}")
    assert not missing, sorted(missing)
