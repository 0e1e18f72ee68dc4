"""One JSON error shape for every error: ``{"error": {"code", "message", "details"?}}``.

Views raise :class:`ApiError` (or call :func:`abort_with`) for named errors. Werkzeug/webargs HTTP
errors (404, 405, 413, validation 422, malformed JSON 400, ...) are translated to the same shape,
and any other exception becomes a logged 500 ``internal_error`` (a 500 is always a bug).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, NoReturn

from flask import Flask, Response, g, jsonify, request
from werkzeug.exceptions import HTTPException

log = logging.getLogger("arcana.web.error")

# Default machine-readable codes for plain HTTP errors.
HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    411: "length_required",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "too_many_requests",
    431: "headers_too_large",
    500: "internal_error",
    503: "service_unavailable",
}


class ApiError(Exception):
    """A named client-visible error: ``raise ApiError(409, "username_taken", "...")``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = dict(details) if details else None
        self.headers = dict(headers) if headers else {}


def abort_with(
    status: int,
    code: str,
    message: str,
    details: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> NoReturn:
    """Raise :class:`ApiError`; for use in views and helpers."""
    raise ApiError(status, code, message, details, headers)


def error_response(
    status: int,
    code: str,
    message: str,
    details: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A response in the one error shape."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = dict(details)
    resp = jsonify({"error": body})
    resp.status_code = status
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def _from_http_exception(exc: HTTPException) -> Response:
    status = exc.code or 500
    data = getattr(exc, "data", None) or {}
    messages = data.get("errors") or data.get("messages")
    code = HTTP_CODES.get(status, "http_error")
    message = data.get("message") or exc.description or exc.name
    details: dict[str, Any] | None = None
    if status == 422 and messages:
        message = "The request did not pass validation."
        details = {"fields": messages}
    elif status == 400 and messages:
        # webargs' "Invalid JSON body." (normally caught earlier by the body guard)
        code, message = "malformed_json", "The request body is not valid JSON."
    headers = dict(data.get("headers") or {})
    if status == 405:
        allowed = exc.get_headers()
        headers.update({k: v for k, v in allowed if k.lower() == "allow"})
    return error_response(status, code, str(message), details, headers)


def register_error_handlers(app: Flask) -> None:
    """Install the handlers; call after flask-smorest's ``Api`` so ours replace its handler."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        return error_response(exc.status, exc.code, exc.message, exc.details, exc.headers)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        if (exc.code or 500) >= 500:
            log.error(
                "http error %s on %s %s", exc.code, request.method, request.path, extra=_request_fields()
            )
        return _from_http_exception(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        if _is_database_unavailable(exc):
            log.warning("database unavailable: %s", exc, extra=_request_fields())
            return error_response(
                503,
                "service_unavailable",
                "The database is unavailable; retry later.",
                None,
                {"Retry-After": "2"},
            )
        log.exception("unhandled exception on %s %s", request.method, request.path, extra=_request_fields())
        return error_response(500, "internal_error", "An unexpected error occurred (it was logged).")


def _is_database_unavailable(exc: Exception) -> bool:
    import psycopg
    from psycopg_pool import PoolTimeout

    return isinstance(exc, PoolTimeout | psycopg.OperationalError)


def _request_fields() -> dict[str, Any]:
    return {"request_id": g.get("request_id"), "player": str(g.get("player_id") or "") or None}
