"""The one clock every service reads, so tests can move time without sleeping.

In production it is the system clock. When ``ARCANA_CLOCK_FILE`` names a file, the number of
seconds written in it is added to the system time: an end-to-end test writes ``61`` there and every
process of the stack (gunicorn workers, Celery) sees a turn deadline pass at once. In-process tests
can also call ``set_offset``. The offset only ever moves time forward.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from libs import config

_local_offset = 0.0


_file_cache: tuple[str, tuple[int, int, int], float] | None = None


def _file_offset() -> float:
    """The offset in ``ARCANA_CLOCK_FILE``, read again only when the file changed (one ``stat``
    per call instead of open, read and close; ``write_offset_file`` replaces the file)."""
    global _file_cache
    path = config.CLOCK_FILE.get()
    if not path:
        return 0.0
    try:
        st = os.stat(path)
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
        cached = _file_cache
        if cached is not None and cached[0] == path and cached[1] == key:
            return cached[2]
        value = max(0.0, float(Path(path).read_text().strip() or 0))
    except (FileNotFoundError, ValueError):
        return 0.0
    _file_cache = (path, key, value)
    return value


def offset_seconds() -> float:
    return _local_offset + _file_offset()


def now() -> datetime:
    """The current UTC time, plus any test offset."""
    return datetime.now(UTC) + timedelta(seconds=offset_seconds())


def set_offset(seconds: float) -> None:
    """In-process tests: move this process's clock ``seconds`` ahead of the system clock."""
    global _local_offset
    _local_offset = max(0.0, float(seconds))


def advance(seconds: float) -> None:
    set_offset(_local_offset + seconds)


def write_offset_file(path: Path, seconds: float) -> None:
    """End-to-end tests: move the clock of every process started with ``ARCANA_CLOCK_FILE=path``."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(str(float(seconds)))
    os.replace(tmp, path)
