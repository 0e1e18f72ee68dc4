"""``Idempotency-Key`` for state-changing POSTs: a retried request returns the first response.

Usage (order matters: authenticate first, then claim the key, then validate and run)::

    @blp.route("/v1/things", methods=["POST"])
    @require_player                 # optional: keys are scoped per player, else per client
    @idempotent
    @blp.arguments(ThingIn)
    @blp.response(201, ThingOut)
    def create(args):
        with request_transaction() as conn:     # the idempotency record's transaction
            ...write rows, then EventStore.append(..., conn=conn)

How it works. With a key, the view runs inside one transaction that first INSERTs the
``(scope, key)`` row of ``<schema>.idempotency``. A concurrent request with the same key blocks on
that row's unique key until the first commits, then finds the stored response and replays it
(header ``Idempotent-Replayed: true``); so N concurrent identical requests apply once. The view's
writes (via :func:`request_transaction`) and the stored response commit together. If the view
raises (validation error, named error, bug), everything is rolled back, the key included, and the
error is returned as usual; only responses the view returned (status < 500) are stored.

Keys are scoped per player, or for anonymous requests per client address (:func:`request_scope`);
fingerprints are keyed with a server secret (:func:`request_fingerprint`): a stored row reveals
nothing of the body, a registration's password included. Purging old rows: ``purge_idempotency_keys``.

Errors: the same key with a different method/path/body → 422 ``idempotency_key_reused``; a bad
key → 400 ``invalid_idempotency_key``; the first request still running after
``LOCK_TIMEOUT`` → 409 ``idempotency_in_progress`` (retry later). Without the header the view
runs normally.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Response, current_app, g, make_response, request
from flask_smorest import Blueprint
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.web.context import service_context
from libs.web.errors import ApiError

HEADER = "Idempotency-Key"
LOCK_TIMEOUT = "10s"
KEY_PATTERN = r"^[\x21-\x7e]{1,255}$"  # printable ASCII, no spaces; as documented
_KEY_RE = re.compile(KEY_PATTERN)  # fullmatch

F = TypeVar("F", bound=Callable[..., Any])

_DOC = {
    "parameters": [
        {
            "in": "header",
            "name": HEADER,
            "required": False,
            "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": KEY_PATTERN},
            "description": "Retrying with the same key (1-255 printable ASCII characters, no spaces) "
            "returns the first response; a key reused for a different request is 422 "
            "`idempotency_key_reused`.",
        }
    ]
}


_FINGERPRINT_CONTEXT = b"arcana idempotency fingerprint v1"


def _fingerprint_key() -> bytes:
    """The key of fingerprints and anonymous scopes: derived from the token secret (a server
    secret never stored with the rows), so a stored row cannot be matched against guesses."""
    secret = service_context().settings.token_secret.encode()
    return hmac.new(secret, _FINGERPRINT_CONTEXT, hashlib.sha256).digest()


def request_fingerprint() -> str:
    """HMAC-SHA256 (keyed with a server secret) of method, path and the body (canonical JSON when
    it parses, raw bytes otherwise). Keyed: a body holds secrets (a registration's password), and
    an unkeyed hash of it could be matched against a list of likely passwords."""
    raw = request.get_data(cache=True)
    try:
        parsed = g.parsed_json if "parsed_json" in g else json.loads(raw) if raw else None
        body = json.dumps(parsed, sort_keys=True, separators=(",", ":")).encode() if raw else b""
    except (ValueError, RecursionError):
        body = raw
    digest = hmac.new(_fingerprint_key(), digestmod=hashlib.sha256)
    digest.update(f"{request.method} {request.path}\n".encode())
    digest.update(body)
    return digest.hexdigest()


def request_scope() -> str:
    """Whose keys these are: the authenticated player's id, else ``anonymous:`` and a keyed hash of
    the client address (as ``ARCANA_TRUSTED_PROXIES`` resolves it). So two clients never share a
    key: another client's identical key is a different record (neither a replay of the first
    response nor a 422), and no client address is stored."""
    player = g.get("player_id")
    if player:
        return str(player)
    address = (request.remote_addr or "unknown").encode()
    return (
        "anonymous:" + hmac.new(_fingerprint_key(), b"address\n" + address, hashlib.sha256).hexdigest()[:32]
    )


def idempotent(func: F) -> F:
    """Make a POST view honour ``Idempotency-Key`` (see the module docstring for what it raises)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        if key is None:
            return func(*args, **kwargs)
        if not _KEY_RE.fullmatch(key):
            raise ApiError(
                400, "invalid_idempotency_key", f"{HEADER} must be 1-255 printable ASCII characters."
            )
        return _run_once(key, func, args, kwargs)

    return cast(F, Blueprint.doc(**_DOC)(wrapper))


def _table() -> sql.Composed:
    schema = service_context().schema
    if not schema:
        raise RuntimeError("@idempotent needs an app created with a schema")
    return sql.SQL("{}").format(sql.Identifier(schema, "idempotency"))


def _run_once(key: str, func: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    scope = request_scope()
    fingerprint = request_fingerprint()
    table = _table()
    try:
        return _claim_and_run(table, scope, key, fingerprint, func, args, kwargs)
    except _Rollback as rollback:
        return rollback.response


def _claim_and_run(
    table: sql.Composed,
    scope: str,
    key: str,
    fingerprint: str,
    func: Callable[..., Any],
    args: Any,
    kwargs: Any,
) -> Response:
    with service_context().pool.connection() as conn, conn.transaction():
        conn.execute(sql.SQL("SET LOCAL lock_timeout = {}").format(sql.Literal(LOCK_TIMEOUT)))
        try:
            claimed = conn.execute(
                sql.SQL(
                    "INSERT INTO {} (scope, key, fingerprint) VALUES (%s, %s, %s) "
                    "ON CONFLICT (scope, key) DO NOTHING RETURNING 1"
                ).format(table),
                (scope, key, fingerprint),
            ).fetchone()
        except pg_errors.LockNotAvailable:
            raise ApiError(
                409,
                "idempotency_in_progress",
                "A request with this Idempotency-Key is still running; retry later.",
                headers={"Retry-After": "1"},
            ) from None
        if claimed:
            g.idempotency_conn = conn
            try:
                response = make_response(current_app.ensure_sync(func)(*args, **kwargs))
            finally:
                g.pop("idempotency_conn", None)
            if response.status_code >= 500:
                raise _Rollback(response)
            conn.execute(
                sql.SQL(
                    "UPDATE {} SET status = %s, content_type = %s, body = %s WHERE scope = %s AND key = %s"
                ).format(table),
                (response.status_code, response.content_type, response.get_data(), scope, key),
            )
            return response
        row = conn.execute(
            sql.SQL(
                "SELECT fingerprint, status, content_type, body FROM {} WHERE scope = %s AND key = %s"
            ).format(table),
            (scope, key),
        ).fetchone()
    return _replay(row, fingerprint)


class _Rollback(Exception):
    """Internal: roll the transaction back but still return this (5xx) response."""

    def __init__(self, response: Response) -> None:
        super().__init__("rollback")
        self.response = response


def _replay(row: Any, fingerprint: str) -> Response:
    if row is None or row[1] is None:  # cannot happen: the first request committed or rolled back
        raise ApiError(409, "idempotency_in_progress", "Retry later.", headers={"Retry-After": "1"})
    stored_fingerprint, status, content_type, body = row
    if stored_fingerprint != fingerprint:
        raise ApiError(
            422,
            "idempotency_key_reused",
            f"This {HEADER} was already used for a different request.",
        )
    response = Response(bytes(body), status=int(status), content_type=content_type)
    response.headers["Idempotent-Replayed"] = "true"
    return response


def purge_idempotency_keys(pool: ConnectionPool, schema: str, older_than_seconds: int = 86_400) -> int:
    """Delete the records of ``schema`` older than ``older_than_seconds`` (for a periodic sweep);
    a key is honoured at least that long. Returns how many were deleted."""
    query = sql.SQL("DELETE FROM {} WHERE created_at < now() - make_interval(secs => %s)").format(
        sql.Identifier(schema, "idempotency")
    )
    with pool.connection() as conn:
        return conn.execute(query, (older_than_seconds,)).rowcount
