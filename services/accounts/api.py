"""HTTP of the accounts service: each endpoint parses, calls one service method, returns; domain
errors become HTTP answers through ``ERRORS``.

- ``POST /v1/accounts`` → 201 player; 409 ``username_taken``; 422 ``validation_error``;
  429 ``too_many_attempts`` (registrations per client address).
- ``POST /v1/sessions`` → 201 token; 401 ``invalid_credentials``; 429 ``too_many_attempts``.
- ``DELETE /v1/sessions/current`` → 204: log out (this token is refused from now on).
- ``DELETE /v1/sessions`` → 204: log out everywhere (every token issued so far is refused).
- ``DELETE /v1/accounts/me`` ``{password}`` → 204: erase the account (docs/security.md): every
  token refused, the username free again, the game history kept under a pseudonym; 403
  ``wrong_password``; 429 ``too_many_requests`` (5 tries an hour).
- ``DELETE /v1/admin/accounts/<player_id>`` ``{reason}`` (operator token) → 204: the same erasure,
  for a player who asked otherwise; 404 ``account_not_found``.
- ``GET /v1/me`` → 200 player; 401 ``unauthorized`` (also for a token that was logged out).
- ``PUT /v1/me/display-name`` ``{display_name}`` → 200 player: the public name others see (never
  the log-in name); 409 ``display_name_taken`` (another player's, or your own username); 422
  ``validation_error``; 429 ``too_many_requests`` (5 changes an hour).
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Callable
from typing import Any, TypeVar, cast

import marshmallow as ma
from flask import request

from libs.contracts import default_display_name
from libs.kit import ErrorTable, Problem
from libs.kit.limits import TOO_MANY_REQUESTS, PlayerLimit, TooManyRequests, limited
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    ErrorSchema,
    FullMatch,
    StrictSchema,
    current_claims,
    current_player,
    idempotent,
    request_transaction,
    require_operator,
    require_player,
)
from libs.web.idempotency import HEADER, KEY_PATTERN
from services.accounts.domain import (
    DISPLAY_NAME_MAX,
    DISPLAY_NAME_MIN,
    DISPLAY_NAME_PATTERN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    USERNAME_MAX,
    USERNAME_MIN,
    ChangeDisplayName,
    DeleteAccount,
    DisplayNameTaken,
    InvalidCredentials,
    InvalidInput,
    LogIn,
    NoSuchAccount,
    RegisterPlayer,
    TooManyAttempts,
    TooManyRegistrations,
    UnknownPlayer,
    UsernameTaken,
    WrongPassword,
    password_problem,
)
from services.accounts.service import AccountsService

F = TypeVar("F", bound=Callable[..., Any])


def _retry_after(exc: TooManyAttempts) -> dict[str, str]:
    return {"Retry-After": str(exc.retry_after)}


ERRORS = ErrorTable(
    {
        InvalidInput: Problem(
            422,
            "validation_error",
            "The request did not pass validation.",
            details=lambda e: {"fields": {"json": {e.field: [e.message]}}},
        ),
        UsernameTaken: Problem(409, "username_taken", "This username is already taken."),
        InvalidCredentials: Problem(401, "invalid_credentials", "The username or password is wrong."),
        TooManyAttempts: Problem(
            429, "too_many_attempts", "Too many log-in attempts; retry later.", headers=_retry_after
        ),
        TooManyRegistrations: Problem(
            429,
            "too_many_attempts",
            "Too many registrations from this address; retry later.",
            headers=_retry_after,
        ),
        UnknownPlayer: Problem(401, "unauthorized", "The token's player does not exist."),
        DisplayNameTaken: Problem(
            409,
            "display_name_taken",
            "Another player shows this name, or it is your username (which must stay private).",
            rules=True,
        ),
        NoSuchAccount: Problem(404, "account_not_found", "No account has this player id (any more)."),
        WrongPassword: Problem(403, "wrong_password", "The password does not match this account."),
        TooManyRequests: TOO_MANY_REQUESTS,
    }
)

# Each change is an event other services store: ARCANA_DISPLAY_NAME_CHANGES_PER_WINDOW, ..._WINDOW_SECONDS.
DISPLAY_NAME_CHANGES = PlayerLimit("display_name", "DISPLAY_NAME_CHANGES", per_window=5, window_seconds=3600)

# Guesses at the password of a stolen token: ARCANA_ACCOUNT_DELETIONS_PER_WINDOW, ..._WINDOW_SECONDS.
ACCOUNT_DELETIONS = PlayerLimit("delete_account", "ACCOUNT_DELETIONS", per_window=5, window_seconds=3600)

blp = Blueprint("accounts", __name__, description="Player accounts, log-in sessions (bearer tokens).")


class _PasswordLength(ma.validate.Length):
    """8-128 characters as sent and after NFKC normalisation (the domain's rule); documented as
    ``minLength``/``maxLength``. One message either way."""

    def __call__(self, value: Any) -> Any:
        message = password_problem(value)
        if message is None and not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
            message = f"Must be {PASSWORD_MIN} to {PASSWORD_MAX} characters."
        if message:
            raise ma.ValidationError(message)
        return value


class RegisterIn(StrictSchema):
    username = ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(
                min=USERNAME_MIN,
                max=USERNAME_MAX,
                error=f"Must be {USERNAME_MIN} to {USERNAME_MAX} characters.",
            ),
            FullMatch("[A-Za-z0-9_]*", error="Only letters a-z, digits and underscores are allowed."),
        ],
        metadata={
            "description": "Letters a-z (either case), digits and underscores; unique case-insensitively."
        },
    )
    password = ma.fields.String(
        required=True,
        validate=_PasswordLength(min=PASSWORD_MIN, max=PASSWORD_MAX),
        load_only=True,
        metadata={
            "description": f"{PASSWORD_MIN} to {PASSWORD_MAX} characters, as sent and after Unicode "
            "NFKC normalisation"
        },
    )


_DISPLAY_NAME = {
    "description": "The public name others see (leaderboards); never the log-in name. Default "
    "`Player-` and 12 hex digits of the player id."
}


class PlayerOut(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    username = ma.fields.String(required=True)
    display_name = ma.fields.String(required=True, metadata=_DISPLAY_NAME)


class DisplayNameIn(StrictSchema):
    display_name = ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(min=DISPLAY_NAME_MIN, max=DISPLAY_NAME_MAX),
            FullMatch(
                DISPLAY_NAME_PATTERN, error="Letters, digits and _ . - only, words joined by single spaces."
            ),
        ],
        metadata={
            "description": f"{DISPLAY_NAME_MIN}-{DISPLAY_NAME_MAX} characters: letters, digits and "
            "`_ . -`, words joined by single spaces; unique case-insensitively; not your username"
        },
    )


class DeleteAccountIn(StrictSchema):
    password = ma.fields.String(
        required=True,
        validate=ma.validate.Length(min=1, max=PASSWORD_MAX * 4),
        load_only=True,
        metadata={"description": "the account's password, again: a token alone cannot delete it"},
    )


class OperatorDeletionIn(StrictSchema):
    reason = ma.fields.String(
        required=True,
        validate=ma.validate.Length(min=3, max=200),
        metadata={"description": "why (logged, never stored in an event): say why, never who"},
    )


class SessionIn(StrictSchema):
    username = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=USERNAME_MAX))
    password = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=PASSWORD_MAX * 4))


class SessionOut(ma.Schema):
    token = ma.fields.String(required=True)
    token_type = ma.fields.String(required=True)
    expires_at = ma.fields.AwareDateTime(required=True)
    player_id = ma.fields.UUID(required=True)


class MeOut(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    username = ma.fields.String(required=True)
    display_name = ma.fields.String(required=True, metadata=_DISPLAY_NAME)
    created_at = ma.fields.AwareDateTime(required=True)


def _service() -> AccountsService:
    service: AccountsService = current_service()
    return service


def _registration_throttled(func: F) -> F:
    """Count a well-formed registration per client address before ``@idempotent`` claims a
    connection (429 ``too_many_attempts`` over the limit): a keyed request then never holds two
    pooled connections. A request the schema or the key format refuses is not counted (it gets its
    422 or 400)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        well_formed = key is None or re.fullmatch(KEY_PATTERN, key) is not None
        if well_formed and not RegisterIn().validate(request.get_json(silent=True) or {}):
            _service().throttle_registration(request.remote_addr or "unknown", key)
        return func(*args, **kwargs)

    return cast(F, wrapper)


@blp.route("/v1/accounts", methods=["POST"])
@_registration_throttled
@idempotent
@blp.arguments(RegisterIn)
@blp.response(201, PlayerOut)
@blp.alt_response(409, schema=ErrorSchema, description="username_taken")
@blp.alt_response(429, schema=ErrorSchema, description="too_many_attempts (see Retry-After)")
def register(args: dict[str, Any]) -> Any:
    """Create a player account (``Idempotency-Key`` honoured)."""
    command = RegisterPlayer(args["username"], args["password"], request.remote_addr or "unknown")
    event = _service().register(command, request_transaction)
    return {
        "player_id": event.player_id,
        "username": command.username,
        "display_name": default_display_name(event.player_id),
    }


@blp.route("/v1/accounts/me", methods=["DELETE"])
@require_player
@limited(ACCOUNT_DELETIONS)
@blp.arguments(DeleteAccountIn)
@blp.response(204)
@blp.alt_response(401, schema=ErrorSchema, description="unauthorized")
@blp.alt_response(403, schema=ErrorSchema, description="wrong_password")
def delete_account(args: dict[str, Any]) -> None:
    """Delete the authenticated player's account: the person is erased (username, password hash,
    display name, log-in records); their matches stay, shown under a pseudonym."""
    _service().delete_account(DeleteAccount(current_player(), args["password"]), request_transaction)


@blp.route("/v1/admin/accounts/<uuid:player_id>", methods=["DELETE"])
@require_operator
@blp.arguments(OperatorDeletionIn)
@blp.response(204)
@blp.alt_response(404, schema=ErrorSchema, description="account_not_found")
def delete_account_by_operator(args: dict[str, Any], player_id: uuid.UUID) -> None:
    """Operators: delete a player's account on their request (as ``DELETE /v1/accounts/me``)."""
    _service().delete_account_by_operator(player_id, args["reason"], request_transaction)


@blp.route("/v1/sessions", methods=["POST"])
@blp.arguments(SessionIn)
@blp.response(201, SessionOut)
@blp.alt_response(401, schema=ErrorSchema, description="invalid_credentials")
@blp.alt_response(429, schema=ErrorSchema, description="too_many_attempts (see Retry-After)")
def log_in(args: dict[str, Any]) -> Any:
    """Exchange a username and password for a bearer token."""
    issued = _service().log_in(LogIn(args["username"], args["password"], request.remote_addr or "unknown"))
    return {
        "token": issued.token,
        "token_type": "Bearer",
        "expires_at": issued.expires_at,
        "player_id": issued.player_id,
    }


@blp.route("/v1/sessions/current", methods=["DELETE"])
@require_player
@blp.response(204)
@blp.alt_response(401, schema=ErrorSchema, description="unauthorized")
def log_out() -> None:
    """Log out: the token of this request is refused from now on."""
    _service().log_out(current_claims(), request_transaction)


@blp.route("/v1/sessions", methods=["DELETE"])
@require_player
@blp.response(204)
@blp.alt_response(401, schema=ErrorSchema, description="unauthorized")
def log_out_everywhere() -> None:
    """Log out everywhere: every token of the player issued so far is refused from now on."""
    _service().log_out_everywhere(current_claims(), request_transaction)


@blp.route("/v1/me", methods=["GET"])
@require_player
@blp.response(200, MeOut)
@blp.alt_response(401, schema=ErrorSchema, description="unauthorized")
def me() -> Any:
    """The authenticated player's account."""
    return _me_out(_service().player(current_player()))


@blp.route("/v1/me/display-name", methods=["PUT"])
@require_player
@limited(DISPLAY_NAME_CHANGES)
@blp.arguments(DisplayNameIn)
@blp.response(200, MeOut)
def set_display_name(args: dict[str, Any]) -> Any:
    """Choose the public name other players see (the leaderboard shows only it)."""
    command = ChangeDisplayName(current_player(), args["display_name"])
    return _me_out(_service().change_display_name(command, request_transaction))


def _me_out(row: Any) -> dict[str, Any]:
    return {
        "player_id": row.player_id,
        "username": row.username,
        "display_name": row.display_name,
        "created_at": row.created_at,
    }
