"""gunicorn settings of the long-poll process (``services/match/waits_wsgi.py``), shared by ``make run``
and its Kubernetes Deployment: ``--worker-class gevent --worker-connections CONNECTIONS``.

This module must not import psycopg (nor anything that does, such as ``libs.web``): psycopg picks
its way of waiting for the database when it is first imported, and only a psycopg imported after
gevent has patched the standard library (the gevent worker does, after the fork) waits
cooperatively instead of blocking every greenlet of the worker. ``post_worker_init`` checks it.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

from libs.config import PROMETHEUS_MULTIPROC_DIR  # not "config": gunicorn reads every name here as a setting

CONNECTIONS = 5000  # per worker: waiting long-polls (greenlets) served at once
POOL_TIMEOUT = 30  # s a long-poll may wait for a database connection (ARCANA_DB_POOL_TIMEOUT)


def on_starting(server: Any) -> None:
    """In the master, before any worker: start every run with an empty metrics folder."""
    folder = PROMETHEUS_MULTIPROC_DIR.get()
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def post_worker_init(worker: Any) -> None:
    """Refuse to serve when psycopg would block the whole worker on each database wait."""
    from psycopg import waiting

    if waiting.wait is waiting.wait_c:
        raise RuntimeError("psycopg was imported before gevent patched the standard library")


def child_exit(server: Any, worker: Any) -> None:
    if PROMETHEUS_MULTIPROC_DIR.get():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
