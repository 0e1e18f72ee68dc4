"""gunicorn settings shared by ``make run``, the e2e tests and the Kubernetes Deployments.

Waiting players: a match client keeps a long-poll open on ``/events`` (up to 25 s) while it is not
its turn, and a gthread worker serves each request in a thread of its own. So each worker runs
``THREADS`` threads (created only as they are needed) and each thread gets a ``STACK_BYTES`` stack
instead of the default 8 MiB: a waiting long-poll then costs one sleeping thread (its stack pages
touched so far and its Python state; docs/capacity.md has the figures) and no database connection.
The command lines (``libs/devstack/processes.py``, ``deploy/k8s/base/*.yaml``) pass the same
numbers: ``--threads THREADS --worker-connections WORKER_CONNECTIONS``.

``/metrics`` must count every worker's requests: with ``PROMETHEUS_MULTIPROC_DIR`` set, each worker
writes its metrics there and a dead worker's live gauges are dropped when it exits.
"""

from __future__ import annotations

import os
import shutil
import threading
from typing import Any

from libs.config import PROMETHEUS_MULTIPROC_DIR  # not "config": gunicorn reads every name here as a setting

THREADS = 2000  # per worker: requests served at once, waiting long-polls included
WORKER_CONNECTIONS = 2500  # per worker: open connections (the rest of THREADS: idle keep-alives)
STACK_BYTES = 1024 * 1024  # each request thread's stack (Python frames live on the heap)


def on_starting(server: Any) -> None:
    """In the master, before any worker: start every run with an empty metrics folder."""
    threading.stack_size(STACK_BYTES)
    folder = PROMETHEUS_MULTIPROC_DIR.get()
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def post_fork(server: Any, worker: Any) -> None:
    threading.stack_size(STACK_BYTES)  # in the worker too, whatever the master did since


def child_exit(server: Any, worker: Any) -> None:
    if PROMETHEUS_MULTIPROC_DIR.get():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
