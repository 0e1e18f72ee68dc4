"""Running a bus component as its own process: environment, logging and clean stop on SIGTERM."""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from types import FrameType

from libs import config
from libs.config import secret_from_env

# How long the other loops of a process get to finish their step when one of them ended on its own.
EARLY_STOP_GRACE = 10.0


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
    if config.LOG_FORMAT.get() == "text":
        logging.basicConfig(
            level=config.LOG_LEVEL.get(),
            format="%(asctime)s %(levelname)s %(name)s %(message)s",
            stream=sys.stderr,
        )
    else:
        from libs.jsonlog import json_handler

        logging.basicConfig(level=config.LOG_LEVEL.get(), handlers=[json_handler(sys.stderr)])
    logging.getLogger("kafka").setLevel(logging.WARNING)


def stop_on_signals(stop: threading.Event) -> None:
    """Set ``stop`` on SIGTERM or SIGINT (the component finishes its current step, then returns)."""

    def handle(signum: int, frame: FrameType | None) -> None:
        logging.getLogger(__name__).info("signal %s: stopping", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, handle)
    signal.signal(signal.SIGINT, handle)


def run_in_threads(loops: Mapping[str, Callable[[threading.Event], None]], stop: threading.Event) -> None:
    """Run each loop (name -> ``loop(stop)``) in a thread of its own until ``stop`` is set (by
    ``stop_on_signals``), then wait for them all. A loop that ends before ``stop`` is set (it raised,
    or returned) stops the others, and the process ends with status 1 (``SystemExit``): its
    supervisor starts it again rather than keeping it half alive."""
    early: list[str] = []
    ended = threading.Event()
    log = logging.getLogger(__name__)

    def body(name: str, loop: Callable[[threading.Event], None]) -> None:
        try:
            loop(stop)
        except BaseException:
            log.exception("%s failed", name)
        finally:
            if not stop.is_set():
                early.append(name)
            ended.set()

    threads = [threading.Thread(target=body, args=item, name=item[0], daemon=True) for item in loops.items()]
    for t in threads:
        t.start()
    while True:
        ended.clear()
        if early or not any(t.is_alive() for t in threads):
            break
        ended.wait()
    if not early:
        for t in threads:
            t.join()
        return
    log.error("%s ended on its own: stopping the process", ", ".join(early))
    stop.set()
    deadline = time.monotonic() + EARLY_STOP_GRACE
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    sys.exit(f"{', '.join(early)} ended on its own")
