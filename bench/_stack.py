"""Benchmarks run against BENCH_DATABASE_URL when set, else a throwaway embedded PostgreSQL."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from libs.devstack.ports import free_port
from libs.devstack.postgres import EmbeddedPostgres


@contextmanager
def database() -> Iterator[str]:
    external = os.environ.get("BENCH_DATABASE_URL")
    if external:
        yield external
        return
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-"))
    server = EmbeddedPostgres(root / "pg", free_port())
    try:
        yield server.start()
    finally:
        server.stop(mode="immediate")
        shutil.rmtree(root, ignore_errors=True)
