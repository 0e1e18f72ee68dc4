"""gunicorn settings shared by ``make run``, the e2e tests and the Kubernetes Deployments.

``/metrics`` must count every worker's requests: with ``PROMETHEUS_MULTIPROC_DIR`` set, each worker
writes its metrics there and a dead worker's live gauges are dropped when it exits.
"""

from __future__ import annotations

import os
import shutil
from typing import Any


def on_starting(server: Any) -> None:
    """In the master, before any worker: start every run with an empty metrics folder."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
