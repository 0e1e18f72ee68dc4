"""Per-request plumbing: request ids, the body guard, access logs and Prometheus metrics.

Besides requests and latency, what is open now, per service (gauges summed over a pod's live
gunicorn workers):

- ``arcana_open_long_polls``: match events long-polls waiting (``GET /v1/matches/<id>/events``),
  counted from the request's start to its teardown;
- ``arcana_open_streams``: event streams open (``GET /v1/matches/<id>/stream``): a streamed
  response outlives its view, so the stream's generator counts itself, ``with open_stream(service):``.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from libs import config
from libs.web.errors import ApiError
from libs.web.long_polls import is_long_poll

access_log = logging.getLogger("arcana.web.access")

REQUEST_ID_HEADER = "X-Request-Id"
REQUEST_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,128}$"  # a client's id is kept when it matches (documented)
_REQUEST_ID_RE = re.compile(REQUEST_ID_PATTERN)
_BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

REQUESTS = Counter(
    "arcana_http_requests_total",
    "HTTP requests handled, by service, method, endpoint (URL rule) and status.",
    ["service", "method", "endpoint", "status"],
)
LATENCY = Histogram(
    "arcana_http_request_duration_seconds",
    "HTTP request latency in seconds, by service, method, endpoint (URL rule) and status.",
    ["service", "method", "endpoint", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

OPEN_LONG_POLLS = Gauge(
    "arcana_open_long_polls",
    "Match events long-polls open now (GET /v1/matches/{id}/events), by service.",
    ["service"],
    multiprocess_mode="livesum",
)
OPEN_STREAMS = Gauge(
    "arcana_open_streams",
    "Match event streams open now (GET /v1/matches/{id}/stream), by service.",
    ["service"],
    multiprocess_mode="livesum",
)


@contextmanager
def open_stream(service: str) -> Iterator[None]:
    """Count a stream as open while the block runs (wrap the body of its response generator)."""
    OPEN_STREAMS.labels(service).inc()
    try:
        yield
    finally:
        OPEN_STREAMS.labels(service).dec()


def _count_long_polls(app: Flask, service: str) -> None:
    @app.before_request
    def _opened() -> None:
        if request.method == "GET" and is_long_poll(request.path):
            OPEN_LONG_POLLS.labels(service).inc()
            g.long_poll_open = True

    @app.teardown_request
    def _closed(_: BaseException | None) -> None:
        if g.pop("long_poll_open", False):
            OPEN_LONG_POLLS.labels(service).dec()


def metrics_response() -> Response:
    """The Prometheus exposition (all workers' when ``PROMETHEUS_MULTIPROC_DIR`` is set)."""
    if config.PROMETHEUS_MULTIPROC_DIR.get():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        data = generate_latest(registry)
    else:
        data = generate_latest(REGISTRY)
    return Response(data, mimetype=CONTENT_TYPE_LATEST)


def _has_nul(value: object) -> bool:
    """Whether a parsed JSON value holds a NUL character in any string (PostgreSQL text cannot)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _guard_text() -> None:
    """Raises ``ApiError(400, "invalid_text")`` for a NUL character in the path or query string."""
    if "\x00" in request.path:
        raise ApiError(400, "invalid_text", "The URL must not contain NUL characters.")
    if not request.query_string:  # most requests: no query string to parse
        return
    if any("\x00" in k or "\x00" in v for k, v in request.args.items(multi=True)):
        raise ApiError(400, "invalid_text", "The URL must not contain NUL characters.")


def _guard_body() -> None:
    """Reject oversize, non-JSON and malformed bodies before any view runs.

    Raises ``ApiError`` 413 ``payload_too_large``, 415 ``unsupported_media_type`` or 400
    ``malformed_json`` (also for invalid UTF-8 and pathologically deep nesting), or 400
    ``invalid_text`` for a NUL character in a string (PostgreSQL text cannot hold one).
    """
    if request.method not in _BODY_METHODS:
        return
    limit = request.max_content_length
    length = request.content_length
    if limit is not None and length is not None and length > limit:
        raise ApiError(413, "payload_too_large", f"The request body exceeds {limit} bytes.")
    raw = request.get_data(cache=True)
    if limit is not None and length is None and len(raw) >= limit:
        # A streamed (chunked) body is cut at the limit by werkzeug, not refused: refuse it here.
        raise ApiError(413, "payload_too_large", f"The request body must be under {limit} bytes.")
    if not raw:
        return
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "The request body must be application/json.")
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed_json", "The request body is not valid JSON.") from None
    if _has_nul(parsed):
        raise ApiError(400, "invalid_text", "Strings in the request body must not contain NUL characters.")
    g.parsed_json = parsed  # the arguments parser and the idempotency fingerprint reuse it


def _new_request_id() -> str:
    """32 random hex digits, as ``uuid.uuid4().hex`` (a fifth of its cost: no UUID object)."""
    return os.urandom(16).hex()


class _Series:
    """The request counter and latency histogram of one (service, method, endpoint, status), each
    made once per process: ``labels()`` checks and looks up its values under a lock on every call."""

    def __init__(self, service: str) -> None:
        self.service = service
        self._made: dict[tuple[str, str, str], tuple[Any, Any]] = {}

    def record(self, method: str, endpoint: str, status: str, duration: float) -> None:
        key = (method, endpoint, status)
        found = self._made.get(key)
        if found is None:  # a race makes the same children twice: labels() returns the same ones
            found = self._made[key] = (
                REQUESTS.labels(self.service, method, endpoint, status),
                LATENCY.labels(self.service, method, endpoint, status),
            )
        found[0].inc()
        found[1].observe(duration)


def _log_access(fields: dict[str, Any]) -> None:
    """The request's access log line (``fields`` as its extra fields), handed to the logger's
    handlers without ``Logger.info``'s search of the stack for the caller (a sixth of the line's cost;
    the JSON lines do not show the caller)."""
    if not access_log.isEnabledFor(logging.INFO):
        return
    args = (fields["method"], fields["path"], fields["status"])
    record = access_log.makeRecord(
        access_log.name, logging.INFO, __file__, 0, "%s %s %s", args, None, extra=fields
    )
    access_log.handle(record)


def install(app: Flask, service: str) -> None:
    """Request ids in and out, the body guard, one access log line and metrics per request."""
    _count_long_polls(app, service)
    series = _Series(service)

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        given = request.headers.get(REQUEST_ID_HEADER, "")
        g.request_id = given if _REQUEST_ID_RE.fullmatch(given) else _new_request_id()
        _guard_text()
        _guard_body()

    @app.after_request
    def _finish(response: Response) -> Response:
        request_id = g.get("request_id") or _new_request_id()
        response.headers[REQUEST_ID_HEADER] = request_id
        duration = time.perf_counter() - g.get("started", time.perf_counter())
        endpoint = request.url_rule.rule if request.url_rule is not None else "unmatched"
        method, status = request.method, response.status_code
        series.record(method, endpoint, str(status), duration)
        player = g.get("player_id")
        _log_access(
            {
                "service": service,
                "method": method,
                "path": request.path,
                "status": status,
                "duration_ms": round(duration * 1000, 2),
                "request_id": g.get("request_id"),
                "player": str(player) if player else None,
                "remote_addr": request.remote_addr,
            }
        )
        return response
