"""JSON log lines for the web processes (the formatter is ``libs.jsonlog``'s, shared with the bus
processes and Celery)."""

from __future__ import annotations

import logging
import sys

from libs.jsonlog import JsonFormatter, json_handler

__all__ = ["JsonFormatter", "configure_logging"]


def configure_logging(level: int = logging.INFO) -> None:
    """Send the ``arcana`` loggers to stderr as JSON lines (once per process)."""
    logger = logging.getLogger("arcana")
    if any(getattr(h, "_arcana_json", False) for h in logger.handlers):
        return
    handler = json_handler(sys.stderr)
    handler._arcana_json = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
