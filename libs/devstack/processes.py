"""The command lines of every process of the stack, shared by ``make run`` and the e2e tests, so
the tests start things exactly as the product does."""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from libs import config
from libs.config import PROJECT_ROOT
from libs.devstack.ports import free_port

PY = sys.executable


@dataclass(frozen=True)
class Component:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    port: int | None = None  # the HTTP port it serves, when it serves one


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
        PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])),
        PYTHONUNBUFFERED="1",
    )
    if celery_broker:
        env["CELERY_BROKER_URL"] = celery_broker
    return env


def gunicorn(
    port: int,
    data_dir: Path,
    workers: int | None = None,
    threads: int | None = None,
    long_polls: int | None = None,
    replica: int = 1,
) -> Component:
    """gunicorn with ``workers`` processes (``ARCANA_WEB_WORKERS``, default 2) of ``threads`` threads
    (``ARCANA_WEB_THREADS``, default ``gunicorn_conf.THREADS``); it passes the match long-polls on to
    the long-poll process on port ``long_polls`` when given."""
    from libs.web import gunicorn_conf as conf

    workers = workers or config.WEB_WORKERS.get()
    # Many cheap threads: each waiting long-poll (up to 25 s) holds one (libs/web/gunicorn_conf.py).
    threads = threads or config.WEB_THREADS.get() or conf.THREADS
    connections = threads + (conf.WORKER_CONNECTIONS - conf.THREADS)
    worker = f"--worker-class gthread --threads {threads} --worker-connections {connections}"
    argv = _gunicorn_argv("services.wsgi:app", "libs.web.gunicorn_conf", port, workers, worker)
    env = {"PROMETHEUS_MULTIPROC_DIR": str(data_dir / _replica_name("metrics", replica))}
    if long_polls:
        env["ARCANA_LONG_POLLS_AT"] = f"127.0.0.1:{long_polls}"
    return Component(_replica_name("web", replica), argv, env, port)


def _replica_name(name: str, replica: int) -> str:
    """``web``, ``web-2``, ``web-3``…: the first replica keeps the name it always had."""
    return name if replica == 1 else f"{name}-{replica}"


def _gunicorn_argv(app: str, config: str, port: int, workers: int, worker: str) -> list[str]:
    options = (
        f"--config python:{config} --bind 127.0.0.1:{port} --workers {workers} {worker} "
        "--timeout 60 --graceful-timeout 5 --keep-alive 5"
    )
    return [PY, "-m", "gunicorn", app, *options.split()]


def waits(port: int, data_dir: Path, replica: int = 1) -> Component:
    """The long-poll process on ``port`` (``services/match/waits_wsgi.py``): it serves the match events
    long-polls with gevent; the gthread gunicorn, the one port clients see, passes them on to it.
    Two workers, like the gthread gunicorn: a burst of new long-polls
    (their first read folds each match) uses both cores. A long-poll may wait up to
    ``conf.POOL_TIMEOUT`` s for a database connection for its first read instead of the web's 5 s:
    its client waits that long anyway, and a 503 would only send it back into the queue."""
    from libs import gevent_conf as conf

    worker = f"--worker-class gevent --worker-connections {conf.CONNECTIONS}"
    return Component(
        _replica_name("waits", replica),
        _gunicorn_argv("services.match.waits_wsgi:app", "libs.gevent_conf", port, 2, worker),
        {
            "PROMETHEUS_MULTIPROC_DIR": str(data_dir / _replica_name("metrics-waits", replica)),
            "ARCANA_DB_POOL_TIMEOUT": str(conf.POOL_TIMEOUT),
        },
        port,
    )


def cooperative_waits() -> bool:
    """Whether the long-polls get their own gevent process: ``ARCANA_WAITS=on`` (and gevent
    installed). Off by default under ``make run`` until the layout is measured on a quiet machine
    (docs/capacity.md, "Waiting players apart"): one gthread gunicorn serves everything."""
    if not config.WAITS.get():
        return False
    return importlib.util.find_spec("gevent") is not None


def web(port: int, data_dir: Path, replica: int = 1, apart: bool | None = None) -> list[Component]:
    """What serves HTTP on ``port``: the gthread gunicorn, passing the long-polls on to the long-poll
    process on a port of its own, or serving them itself (``apart``, default ``cooperative_waits``).
    ``replica`` numbers the copies of a stack with several (``web_replicas``)."""
    if not (cooperative_waits() if apart is None else apart):
        return [gunicorn(port, data_dir, replica=replica)]
    inner = (config.WAITS_PORT.get() if replica == 1 else 0) or free_port()
    return [waits(inner, data_dir, replica), gunicorn(port, data_dir, long_polls=inner, replica=replica)]


def web_replicas(ports: list[int], data_dir: Path, apart: bool | None = None) -> list[Component]:
    """``len(ports)`` copies of ``web``, the i-th on ``ports[i]``, each with its own long-poll
    process when they are apart: what several web and waits pods behind a load balancer are, on one
    machine. Every copy serves every match (they share nothing but PostgreSQL, as pods do)."""
    return [c for i, port in enumerate(ports, start=1) for c in web(port, data_dir, i, apart)]


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


def relays() -> Component:
    """Every service's outbox relay, each a thread of one process (a process each would cost a
    Python start and its imports each: docs/testing.md, "What a stack costs")."""
    services = [arg for svc in services_present() for arg in ("--service", svc)]
    return Component("relays", [PY, "-m", "libs.kit.relay", *services])


def consumers() -> Component:
    """Every consuming service's subscriptions, each a thread of one process."""
    return Component("consumers", [PY, "-m", "libs.kit.consume", *_consuming_services()])


def all_components(
    port: int, data_dir: Path, more_web_ports: tuple[int, ...] = (), waits_apart: bool | None = None
) -> list[Component]:
    """Every process of the stack: one web on ``port`` (and one more on each of ``more_web_ports``,
    see ``web_replicas``), the Celery worker and beat, the relays, the consumers."""
    front = web_replicas([port, *more_web_ports], data_dir, waits_apart)
    return [*front, celery_worker(), celery_beat(data_dir), relays(), consumers()]
