"""Bearer tokens: issued by accounts, verified by every service.

Tokens are JWTs signed with HS256 and the shared secret of ``Settings.token_secret``; claims are
``sub`` (player id, a UUID), ``iat``, ``exp``, ``jti`` (token id) and ``iss`` = ``arcana``.

``@require_player`` guards a view: a missing, malformed, expired, forged or wrongly signed token
raises ``ApiError(401, "unauthorized")``; otherwise ``current_player()`` returns the player id.
``@require_operator`` guards admin views with ``Settings.operator_token``.
"""

from __future__ import annotations

import functools
import hmac
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast

import jwt
from flask import g, request
from flask_smorest import Blueprint

from libs.web.context import service_context
from libs.web.errors import ApiError

ALGORITHM = "HS256"
ISSUER = "arcana"
_REQUIRED_CLAIMS = ["sub", "iat", "exp", "jti", "iss"]
_LEEWAY = 5

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class IssuedToken:
    token: str
    token_id: str
    player_id: uuid.UUID
    expires_at: datetime


def issue_token(
    secret: str, player_id: uuid.UUID, ttl_seconds: int, *, now: datetime | None = None
) -> IssuedToken:
    """Sign a token for ``player_id`` valid for ``ttl_seconds`` (whole seconds, UTC)."""
    issued = (now or datetime.now(UTC)).replace(microsecond=0)
    expires = issued + timedelta(seconds=ttl_seconds)
    token_id = uuid.uuid4().hex
    claims = {"sub": str(player_id), "iat": issued, "exp": expires, "jti": token_id, "iss": ISSUER}
    token = jwt.encode(claims, secret, algorithm=ALGORITHM)
    return IssuedToken(token, token_id, player_id, expires)


_VERIFIED_MAX = 10_000
_verified: dict[tuple[str, str], tuple[uuid.UUID, float]] = {}  # (secret, token) -> (player, valid until)
_verified_lock = threading.Lock()


def verify_token(secret: str, token: str) -> uuid.UUID:
    """The player id of a valid token.

    Raises ``ApiError(401, "unauthorized")`` for a malformed, expired, forged or wrongly signed
    token, or one whose ``sub`` is not a UUID. Only HS256 is accepted (no ``alg: none``).

    A token that verified is remembered (per secret) until it expires, as PyJWT judges expiry
    (``exp`` + leeway on the system clock): clients send the same token with every request, and
    the HMAC and claim checks are a good part of a cheap request.
    """
    key = (secret, token)
    hit = _verified.get(key)
    if hit is not None:
        if time.time() < hit[1]:
            return hit[0]
        with _verified_lock:
            _verified.pop(key, None)
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            issuer=ISSUER,
            options={"require": _REQUIRED_CLAIMS},
            leeway=_LEEWAY,
        )
        player = uuid.UUID(str(claims["sub"]))
        until = float(claims["exp"]) + _LEEWAY
    except jwt.ExpiredSignatureError:
        raise _unauthorized("The token has expired.") from None
    except (jwt.PyJWTError, ValueError, TypeError):
        raise _unauthorized("The token is not valid.") from None
    with _verified_lock:
        if len(_verified) >= _VERIFIED_MAX:
            _verified.clear()
        _verified[key] = (player, until)
    return player


def _unauthorized(message: str) -> ApiError:
    return ApiError(401, "unauthorized", message, headers={"WWW-Authenticate": 'Bearer realm="arcana"'})


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None when there is no header.

    Raises ``ApiError(401)`` when the header is present but not a bearer token.
    """
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value or " " in value:
        raise _unauthorized("The Authorization header must be 'Bearer <token>'.")
    return value


def authenticate() -> uuid.UUID:
    """Verify the request's bearer token, remember and return the player id (``ApiError`` 401)."""
    token = bearer_token()
    if token is None:
        raise _unauthorized("A bearer token is required.")
    player_id = verify_token(service_context().settings.token_secret, token)
    g.player_id = player_id
    return player_id


def current_player() -> uuid.UUID:
    """The authenticated player of this request (authenticating now if not done yet; 401 if none)."""
    player = g.get("player_id")
    return player if isinstance(player, uuid.UUID) else authenticate()


def require_player(func: F) -> F:
    """View decorator: authenticate before anything else (put it above ``@blp.arguments``)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        authenticate()
        return func(*args, **kwargs)

    return cast(F, Blueprint.doc(security=[{"bearerAuth": []}])(wrapper))


def require_operator(func: F) -> F:
    """View decorator for operator endpoints: ``Authorization: Bearer <operator token>``.

    Raises ``ApiError(404, "not_found")`` when no operator token is configured (the endpoint does
    not exist then), ``ApiError(401, "unauthorized")`` without an ``Authorization`` header and
    ``ApiError(403, "forbidden")`` for a wrong token.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        expected = service_context().settings.operator_token
        if not expected:
            raise ApiError(404, "not_found", "The requested URL was not found on the server.")
        header = request.headers.get("Authorization")
        if header is None:
            raise _unauthorized("An operator token is required.")
        scheme, _, given = header.partition(" ")
        ok = scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), expected.encode())
        if not ok:
            raise ApiError(403, "forbidden", "An operator token is required.")
        g.operator = True
        return func(*args, **kwargs)

    return cast(F, Blueprint.doc(security=[{"operatorAuth": []}])(wrapper))
