"""The Celery application shared by every service's ``tasks.py`` (timers, sweeps, daily jobs).

The broker comes from ``CELERY_BROKER_URL`` (Redis or RabbitMQ in production). When it is unset,
kombu's ``filesystem://`` transport is used with folders in the data directory, so the embedded
stack needs no broker server. Results are not stored: tasks act through commands and events.
"""

from __future__ import annotations

from celery import Celery

from libs.config import data_dir, export_file_secrets, secret_from_env

# Tasks read DATABASE_URL from the environment; a Deployment may mount it as a file instead.
export_file_secrets(("DATABASE_URL",))


def _filesystem_options() -> dict[str, object]:
    queue = data_dir() / "celery" / "queue"
    processed = data_dir() / "celery" / "processed"
    control = data_dir() / "celery" / "control"
    for folder in (queue, processed, control):
        folder.mkdir(parents=True, exist_ok=True)
    # One folder for in and out: producers and the worker share the same queue files.
    return {
        "data_folder_in": str(queue),
        "data_folder_out": str(queue),
        "processed_folder": str(processed),
        "control_folder": str(control),
        "store_processed": False,
        "polling_interval": 0.1,
    }


def make_celery() -> Celery:
    broker = secret_from_env("CELERY_BROKER_URL") or "filesystem://"
    schedule = data_dir() / "celery" / "beat-schedule"
    schedule.parent.mkdir(parents=True, exist_ok=True)  # beat opens the file but makes no folder
    celery = Celery("arcana", broker=broker)
    celery.conf.update(
        task_ignore_result=True,
        task_acks_late=True,  # a task lost with its worker is redelivered; tasks are idempotent
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        timezone="UTC",
        enable_utc=True,
        beat_schedule_filename=str(schedule),
    )
    if broker.startswith("filesystem://"):
        celery.conf.broker_transport_options = _filesystem_options()
        # kombu's own filesystem channel can hand a worker a half-written message, which stops the
        # worker; this one writes each message atomically (see libs/celery_fs.py).
        celery.conf.broker_transport = "libs.celery_fs:Transport"
    from libs import celery_metrics
    from libs.celery_liveness import install

    install(celery)  # heartbeat file for the liveness probe, JSON logs
    celery_metrics.install()  # tasks by state and duration, on ARCANA_METRICS_PORT
    return celery


app = make_celery()
