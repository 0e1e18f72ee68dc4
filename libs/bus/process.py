"""Running a bus component as its own process: environment, logging and clean stop on SIGTERM."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from types import FrameType

from libs.config import secret_from_env


def require_env(name: str) -> str:
    value = secret_from_env(name)  # NAME, or the file named by NAME_FILE (a mounted Secret)
    if not value:
        sys.exit(f"{name} must be set")
    return value


def require_database() -> str:
    """The database URL a tool uses (``libs.config.database_url()``: ``DATABASE_URL`` or the
    running embedded stack's); exits with the reason when there is none."""
    from libs.config import DatabaseNotFound, database_url

    try:
        return database_url()
    except DatabaseNotFound as exc:
        sys.exit(str(exc))


def setup_logging() -> None:
    """JSON lines on stderr (``libs.jsonlog``), or plain text with ``LOG_FORMAT=text``."""
    if os.environ.get("LOG_FORMAT", "json") == "text":
        logging.basicConfig(
            level=os.environ.get("LOG_LEVEL", "INFO"),
            format="%(asctime)s %(levelname)s %(name)s %(message)s",
            stream=sys.stderr,
        )
    else:
        from libs.jsonlog import json_handler

        logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), handlers=[json_handler(sys.stderr)])
    logging.getLogger("kafka").setLevel(logging.WARNING)


def stop_on_signals(stop: threading.Event) -> None:
    """Set ``stop`` on SIGTERM or SIGINT (the component finishes its current step, then returns)."""

    def handle(signum: int, frame: FrameType | None) -> None:
        logging.getLogger(__name__).info("signal %s: stopping", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, handle)
    signal.signal(signal.SIGINT, handle)
