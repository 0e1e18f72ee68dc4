"""The command lines of every process of the stack, shared by ``make run`` and the e2e tests, so
the tests start things exactly as the product does."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from libs.config import PROJECT_ROOT

PY = sys.executable


@dataclass(frozen=True)
class Component:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)


def services_present() -> list[str]:
    """The services (``libs.kit.service_names()``; each owns a schema of the same name)."""
    from libs.kit import service_names

    return service_names()


def _consuming_services() -> list[str]:
    from libs.kit import discover

    return [svc.name for svc in discover() if svc.subscriptions]


def base_env(database_url: str, kafka: str, celery_broker: str | None, data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        KAFKA_BOOTSTRAP_SERVERS=kafka,
        ARCANA_DATA_DIR=str(data_dir),
        PYTHONPATH=str(PROJECT_ROOT),
        PYTHONUNBUFFERED="1",
    )
    if celery_broker:
        env["CELERY_BROKER_URL"] = celery_broker
    return env


def gunicorn(port: int, data_dir: Path, workers: int | None = None, threads: int | None = None) -> Component:
    """gunicorn with ``workers`` processes (``ARCANA_WEB_WORKERS``, default 2) of ``threads`` threads
    (``ARCANA_WEB_THREADS``, default ``gunicorn_conf.THREADS``)."""
    from libs.web import gunicorn_conf as conf

    workers = workers or int(os.environ.get("ARCANA_WEB_WORKERS", "2"))
    # Many cheap threads: each waiting long-poll (up to 25 s) holds one (libs/web/gunicorn_conf.py).
    threads = threads or int(os.environ.get("ARCANA_WEB_THREADS", str(conf.THREADS)))
    connections = threads + (conf.WORKER_CONNECTIONS - conf.THREADS)
    options = (
        f"--config python:libs.web.gunicorn_conf --bind 127.0.0.1:{port} --workers {workers} "
        f"--worker-class gthread --threads {threads} --worker-connections {connections} "
        "--timeout 60 --graceful-timeout 5 --keep-alive 5"
    )
    return Component(
        "web",
        [PY, "-m", "gunicorn", "services.wsgi:app", *options.split()],
        {"PROMETHEUS_MULTIPROC_DIR": str(data_dir / "metrics")},
    )


def celery_worker(concurrency: int = 2) -> Component:
    return Component(
        "celery-worker",
        [
            PY,
            "-m",
            "celery",
            "-A",
            "services.worker",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            str(concurrency),
            "--without-gossip",
            "--without-mingle",
        ],
    )


def celery_beat(data_dir: Path) -> Component:
    return Component(
        "celery-beat",
        [
            PY,
            "-m",
            "celery",
            "-A",
            "services.worker",
            "beat",
            "--loglevel",
            "INFO",
            "--schedule",
            str(data_dir / "celery" / "beat-schedule"),
        ],
    )


def relays() -> list[Component]:
    return [
        Component(f"relay-{svc}", [PY, "-m", "libs.kit.relay", "--service", svc, "--schema", svc])
        for svc in services_present()
    ]


def consumers() -> list[Component]:
    return [
        Component(f"consumers-{svc}", [PY, "-m", "libs.kit.consume", svc]) for svc in _consuming_services()
    ]


def all_components(port: int, data_dir: Path) -> list[Component]:
    return [gunicorn(port, data_dir), celery_worker(), celery_beat(data_dir), *relays(), *consumers()]
