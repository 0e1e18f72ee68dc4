"""HTTP of the match stream (``GET /v1/matches/{id}/stream``, Server-Sent Events: see
``usecases/streams.py`` for the frames) and of its tickets.

Who may open a stream: the match's players, as for every read. A client that can send headers sends
its bearer token. A browser's ``EventSource`` cannot, so the page first asks for a **stream ticket**
(``POST /v1/matches/{id}/stream-tickets``, with its bearer token) and puts it in the stream's URL
(``?ticket=``). A ticket is not a bearer token and cannot become one: it is signed with a key of its
own derived from the token secret, carries another issuer, names one match and one player, opens
only that match's stream, and expires ``TICKET_SECONDS`` after it was issued. It carries its
session's token id, version and expiry: the stream refuses it, and an open stream ends, once that
session is logged out or its token expires (docs/security.md, "Match streams").
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast

import jwt
from flask import Response, g, request
from flask_smorest import Blueprint

from libs.web import current_claims, departure
from libs.web.auth import TokenClaims
from libs.web.context import service_context
from libs.web.errors import ApiError
from libs.web.observability import open_stream as counted_stream
from services.match.service import MatchService
from services.match.usecases.streams import NothingToStream

TICKET_SECONDS = 60
TICKET_ISSUER = "arcana-stream"
_TICKET_CLAIMS = ["sub", "mid", "jti", "ver", "tex", "iat", "exp", "iss"]
MAX_VERSION = 2**31 - 1
F = TypeVar("F", bound=Callable[..., Any])


def ticket_for(match_id: str) -> dict[str, Any]:
    """A stream ticket for the caller (authenticated by their bearer token) and ``match_id``."""
    claims = current_claims()
    issued = datetime.now(UTC).replace(microsecond=0)
    expires = issued + timedelta(seconds=TICKET_SECONDS)
    payload = {
        "iss": TICKET_ISSUER,
        "sub": str(claims.player_id),
        "mid": match_id,
        "jti": claims.token_id,
        "ver": claims.version,
        "tex": int(claims.expires_at.timestamp()),
        "iat": issued,
        "exp": expires,
    }
    secret = service_context().settings.token_secret
    return {"ticket": jwt.encode(payload, _ticket_key(secret), algorithm="HS256"), "expires_at": expires}


def require_viewer(func: F) -> F:
    """View decorator (above ``@blp.arguments``): authenticate the caller by the Authorization header
    when there is one, else by the ``ticket`` of the query (401 without either)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _authenticate(str(kwargs.get("match_id", "")), request.args.get("ticket"))
        return func(*args, **kwargs)

    return cast(F, Blueprint.doc(security=[{"bearerAuth": []}])(wrapper))


def open_stream(svc: MatchService, match_id: str, after: int) -> Response:
    """The caller's stream of the match (200 ``text/event-stream``), or 204 when it has ended and
    they have every event of it."""
    claims = current_claims()
    sessions = service_context().sessions

    def still_valid() -> bool:
        alive = datetime.now(UTC) < claims.expires_at
        return alive and not (sessions is not None and sessions.is_revoked(claims))

    try:
        opened = svc.streams.open(
            match_id,
            str(claims.player_id),
            _resume_after(after),
            still_valid,
            counted=functools.partial(counted_stream, service_context().service),
        )
    except NothingToStream:
        return Response(status=204)
    opened.on_close(departure.watch(request.environ, opened.leave).stop)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}  # nginx: pass each frame at once
    return Response(opened, status=200, headers=headers, content_type="text/event-stream")


def _authenticate(match_id: str, ticket: str | None) -> TokenClaims:
    """Who asks: by the Authorization header when there is one, else by the ticket (401)."""
    if ticket is None or "Authorization" in request.headers:
        return current_claims()
    with contextlib.suppress(ValueError):
        match_id = str(uuid.UUID(match_id))
    ctx = service_context()
    claims = _verify_ticket(ticket, match_id, ctx.settings.token_secret, ctx.settings.token_secret_previous)
    if ctx.sessions is not None and ctx.sessions.is_revoked(claims):
        raise _unauthorized("The session of this ticket has been logged out.")
    g.token_claims, g.player_id = claims, claims.player_id
    return claims


def _verify_ticket(ticket: str, match_id: str, secret: str, previous: str | None) -> TokenClaims:
    for key in [secret, previous] if previous else [secret]:
        try:
            decoded = jwt.decode(
                ticket,
                _ticket_key(key),
                algorithms=["HS256"],
                issuer=TICKET_ISSUER,
                options={"require": _TICKET_CLAIMS},
            )
        except jwt.ExpiredSignatureError:
            raise _unauthorized("The stream ticket has expired: ask for another.") from None
        except jwt.PyJWTError:
            continue
        if decoded["mid"] != match_id:
            raise _unauthorized("The stream ticket is for another match.")
        try:
            return TokenClaims(
                uuid.UUID(str(decoded["sub"])),
                str(decoded["jti"]),
                int(decoded["ver"]),
                datetime.fromtimestamp(float(decoded["tex"]), UTC),
            )
        except (ValueError, TypeError):
            break
    raise _unauthorized("The stream ticket is not valid.")


def _ticket_key(secret: str) -> bytes:
    """The tickets' own signing key: nothing signed with it verifies as a bearer token."""
    return hmac.new(secret.encode(), b"arcana match stream tickets", hashlib.sha256).digest()


def _resume_after(after: int) -> int:
    """Where to resume: the ``Last-Event-ID`` header (an ``EventSource`` reconnecting sends it), else
    ``after``."""
    raw = request.headers.get("Last-Event-ID", "").strip()
    if not raw:
        return after
    if not raw.isascii() or not raw.isdigit() or int(raw) > MAX_VERSION:
        raise ApiError(
            422,
            "validation_error",
            "Last-Event-ID must be a version the stream sent.",
            {"fields": {"Last-Event-ID": [f"An integer from 0 to {MAX_VERSION}."]}},
        )
    return int(raw)


def _unauthorized(message: str) -> ApiError:
    return ApiError(401, "unauthorized", message, headers={"WWW-Authenticate": 'Bearer realm="arcana"'})
