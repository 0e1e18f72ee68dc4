"""HTTP of the accounts service: schemas in and out, one command per endpoint, named errors.

- ``POST /v1/accounts`` → 201 player; 409 ``username_taken``; 422 ``validation_error``;
  429 ``too_many_attempts`` (registrations per client address).
- ``POST /v1/sessions`` → 201 token; 401 ``invalid_credentials``; 429 ``too_many_attempts``.
- ``DELETE /v1/sessions/current`` → 204: log out (this token is refused from now on).
- ``DELETE /v1/sessions`` → 204: log out everywhere (every token issued so far is refused).
- ``GET /v1/me`` → 200 player; 401 ``unauthorized`` (also for a token that was logged out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import current_app, request

from libs.web import (
    ApiError,
    Blueprint,
    ErrorSchema,
    StrictSchema,
    current_claims,
    current_player,
    idempotent,
    require_player,
)
from services.accounts import handlers
from services.accounts.domain import (
    PASSWORD_MAX,
    USERNAME_MAX,
    InvalidCredentials,
    InvalidInput,
    LogIn,
    RegisterPlayer,
    TooManyAttempts,
    UsernameTaken,
    password_problem,
    username_problem,
)

blp = Blueprint("accounts", __name__, description="Player accounts, log-in sessions (bearer tokens).")


def _rule(problem: Callable[[str], str | None]) -> Callable[[str], None]:
    def validate(value: str) -> None:
        message = problem(value)
        if message:
            raise ma.ValidationError(message)

    return validate


class RegisterIn(StrictSchema):
    username = ma.fields.String(required=True, validate=_rule(username_problem))
    password = ma.fields.String(required=True, validate=_rule(password_problem), load_only=True)


class PlayerOut(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    username = ma.fields.String(required=True)


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
    created_at = ma.fields.AwareDateTime(required=True)


def _config() -> handlers.AccountsConfig:
    config: handlers.AccountsConfig = current_app.extensions["accounts_config"]
    return config


def _too_many(exc: TooManyAttempts, message: str) -> ApiError:
    return ApiError(429, "too_many_attempts", message, headers={"Retry-After": str(exc.retry_after)})


@blp.route("/v1/accounts", methods=["POST"])
@idempotent
@blp.arguments(RegisterIn)
@blp.response(201, PlayerOut)
@blp.alt_response(409, schema=ErrorSchema, description="username_taken")
@blp.alt_response(429, schema=ErrorSchema, description="too_many_attempts (see Retry-After)")
def register(args: dict[str, Any]) -> Any:
    """Create a player account (``Idempotency-Key`` honoured)."""
    try:
        command = RegisterPlayer(args["username"], args["password"], request.remote_addr or "unknown")
        event = handlers.register_player(command, _config())
    except TooManyAttempts as exc:
        raise _too_many(exc, "Too many registrations from this address; retry later.") from None
    except InvalidInput as exc:
        raise ApiError(
            422,
            "validation_error",
            "The request did not pass validation.",
            {"fields": {"json": {exc.field: [exc.message]}}},
        ) from None
    except UsernameTaken:
        raise ApiError(409, "username_taken", "This username is already taken.") from None
    return {"player_id": event.player_id, "username": event.username}


@blp.route("/v1/sessions", methods=["POST"])
@blp.arguments(SessionIn)
@blp.response(201, SessionOut)
@blp.alt_response(401, schema=ErrorSchema, description="invalid_credentials")
@blp.alt_response(429, schema=ErrorSchema, description="too_many_attempts (see Retry-After)")
def log_in(args: dict[str, Any]) -> Any:
    """Exchange a username and password for a bearer token."""
    command = LogIn(args["username"], args["password"], request.remote_addr or "unknown")
    try:
        issued = handlers.log_in(command, _config())
    except TooManyAttempts as exc:
        raise _too_many(exc, "Too many log-in attempts; retry later.") from None
    except InvalidCredentials:
        raise ApiError(401, "invalid_credentials", "The username or password is wrong.") from None
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
    handlers.log_out(current_claims())


@blp.route("/v1/sessions", methods=["DELETE"])
@require_player
@blp.response(204)
@blp.alt_response(401, schema=ErrorSchema, description="unauthorized")
def log_out_everywhere() -> None:
    """Log out everywhere: every token of the player issued so far is refused from now on."""
    handlers.log_out_everywhere(current_claims())


@blp.route("/v1/me", methods=["GET"])
@require_player
@blp.response(200, MeOut)
@blp.alt_response(401, schema=ErrorSchema, description="unauthorized")
def me() -> Any:
    """The authenticated player's account."""
    row = handlers.get_player(current_player())
    if row is None:
        raise ApiError(401, "unauthorized", "The token's player does not exist.")
    return {"player_id": row.player_id, "username": row.username, "created_at": row.created_at}
