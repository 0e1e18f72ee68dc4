"""Bearer tokens: issued by accounts, verified by every service.

Tokens are JWTs signed with HS256 and the shared secret of ``Settings.token_secret``; claims are
``sub`` (player id, a UUID), ``iat``, ``exp``, ``jti`` (token id), ``iss`` = ``arcana`` and ``ver``
(the player's token version when it was issued; 1 when absent).

Revocation: when the app's ``ServiceContext.sessions`` is set (a :class:`SessionCheck`, e.g.
``libs.web.sessions.RevocationCache``), a token it reports revoked (logged out, or older than the
player's token version) is refused like an invalid one. The signature check stays in memory; the
lookup is cached per player for a few seconds (see that class for how long a revocation takes).

``@require_player`` guards a view: a missing, malformed, expired, forged or wrongly signed token
raises ``ApiError(401, "unauthorized")``; otherwise ``current_player()`` returns the player id.
``@require_operator`` guards admin views with ``Settings.operator_token``.
"""

from __future__ import annotations

import functools
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar, cast

import jwt
from flask import g, request
from flask_smorest import Blueprint

from libs.web.context import service_context
from libs.web.errors import ApiError
from libs.web.operators import named_tokens, operator_named

ALGORITHM = "HS256"
ISSUER = "arcana"
_REQUIRED_CLAIMS = ["sub", "iat", "exp", "jti", "iss"]
_LEEWAY = 5

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class TokenClaims:
    """What a verified token says: whose it is, its id, its token version, when it expires."""

    player_id: uuid.UUID
    token_id: str
    version: int
    expires_at: datetime


class SessionCheck(Protocol):
    def is_revoked(self, claims: TokenClaims) -> bool:
        """Whether this (validly signed, unexpired) token was revoked."""
        ...


@dataclass(frozen=True)
class IssuedToken:
    token: str
    token_id: str
    player_id: uuid.UUID
    expires_at: datetime


def issue_token(
    secret: str,
    player_id: uuid.UUID,
    ttl_seconds: int,
    *,
    now: datetime | None = None,
    version: int = 1,
) -> IssuedToken:
    """Sign a token for ``player_id`` valid for ``ttl_seconds`` (whole seconds, UTC), carrying the
    player's token ``version``."""
    issued = (now or datetime.now(UTC)).replace(microsecond=0)
    expires = issued + timedelta(seconds=ttl_seconds)
    token_id = uuid.uuid4().hex
    claims = {
        "sub": str(player_id),
        "iat": issued,
        "exp": expires,
        "jti": token_id,
        "iss": ISSUER,
        "ver": version,
    }
    token = jwt.encode(claims, secret, algorithm=ALGORITHM)
    return IssuedToken(token, token_id, player_id, expires)


_VERIFIED_MAX = 10_000
_verified: dict[tuple[str, str], tuple[TokenClaims, float]] = {}  # (secret, token) -> (claims, valid until)
_verified_lock = threading.Lock()


def verify_token(secret: str, token: str) -> uuid.UUID:
    """The player id of a valid token (see :func:`verify_claims`)."""
    return verify_claims(secret, token).player_id


def verify_claims(secret: str, token: str) -> TokenClaims:
    """The claims of a valid token.

    Raises ``ApiError(401, "unauthorized")`` for a malformed, expired, forged or wrongly signed
    token, or one whose ``sub`` is not a UUID. Only HS256 is accepted (no ``alg: none``).

    A token that verified is remembered (per secret) until it expires, as PyJWT judges expiry
    (``exp`` + leeway on the system clock): clients send the same token with every request, and
    the HMAC and claim checks are a good part of a cheap request. Revocation is not checked here
    (see :func:`authenticate`).
    """
    key = (secret, token)
    hit = _verified.get(key)
    if hit is not None:
        if time.time() < hit[1]:
            return hit[0]
        with _verified_lock:
            _verified.pop(key, None)
    try:
        decoded = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            issuer=ISSUER,
            options={"require": _REQUIRED_CLAIMS},
            leeway=_LEEWAY,
        )
        version = decoded.get("ver", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ValueError("bad token version")
        claims = TokenClaims(
            uuid.UUID(str(decoded["sub"])),
            str(decoded["jti"]),
            version,
            datetime.fromtimestamp(float(decoded["exp"]), UTC),
        )
        until = float(decoded["exp"]) + _LEEWAY
    except jwt.ExpiredSignatureError:
        raise _unauthorized("The token has expired.") from None
    except (jwt.PyJWTError, ValueError, TypeError):
        raise _unauthorized("The token is not valid.") from None
    with _verified_lock:
        if len(_verified) >= _VERIFIED_MAX:
            _verified.clear()
        _verified[key] = (claims, until)
    return claims


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


def verify_rotating(secret: str, previous: str | None, token: str) -> TokenClaims:
    """``verify_claims`` with the current key, else (during a rotation) with the previous one, so
    tokens issued before the rotation stay valid until they expire (docs/operations.md)."""
    try:
        return verify_claims(secret, token)
    except ApiError:
        if not previous:
            raise
        return verify_claims(previous, token)


def authenticate() -> uuid.UUID:
    """Verify the request's bearer token (and, when the app checks sessions, that it was not
    revoked), remember its claims and return the player id (``ApiError`` 401)."""
    token = bearer_token()
    if token is None:
        raise _unauthorized("A bearer token is required.")
    ctx = service_context()
    claims = verify_rotating(ctx.settings.token_secret, ctx.settings.token_secret_previous, token)
    if ctx.sessions is not None and ctx.sessions.is_revoked(claims):
        raise _unauthorized("The token has been revoked (logged out).")
    g.token_claims = claims
    g.player_id = claims.player_id
    return claims.player_id


def current_claims() -> TokenClaims:
    """The claims of this request's token (authenticating now if not done yet; 401 if none)."""
    claims = g.get("token_claims")
    if isinstance(claims, TokenClaims):
        return claims
    authenticate()
    result: TokenClaims = g.token_claims
    return result


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
    """View decorator for operator endpoints: ``Authorization: Bearer <operator token>``, the shared
    ``Settings.operator_token`` or a named one (``libs.web.operators``); ``current_operator()``
    then names who it is.

    Raises ``ApiError(404, "not_found")`` when no operator token is configured (the endpoint does
    not exist then), ``ApiError(401, "unauthorized")`` without an ``Authorization`` header and
    ``ApiError(403, "forbidden")`` for a wrong token (a player's too).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        settings = service_context().settings
        tokens = named_tokens(settings.operator_token, settings.operator_tokens)
        if not tokens:
            raise ApiError(404, "not_found", "The requested URL was not found on the server.")
        header = request.headers.get("Authorization")
        if header is None:
            raise _unauthorized("An operator token is required.")
        scheme, _, given = header.partition(" ")
        name = operator_named(tokens, given.strip()) if scheme.lower() == "bearer" else None
        if name is None:
            raise ApiError(403, "forbidden", "An operator token is required.")
        g.operator = name
        return func(*args, **kwargs)

    return cast(F, Blueprint.doc(security=[{"operatorAuth": []}])(wrapper))


def current_operator() -> str:
    """The name of this request's operator (a view under ``@require_operator``)."""
    name = g.get("operator")
    if not isinstance(name, str):
        raise ApiError(403, "forbidden", "An operator token is required.")
    return name
