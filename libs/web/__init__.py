"""The web layer shared by every service: app factory, errors, auth, idempotency, dispatch.

See ``app.create_app`` (factory), ``errors.ApiError`` (named errors), ``auth.require_player`` /
``auth.current_player`` / ``auth.require_operator``, ``idempotency.idempotent`` with
``context.request_transaction``, and ``dispatch.PrefixDispatcher``.
"""

from libs.web.app import base_app, create_app
from libs.web.auth import (
    IssuedToken,
    current_player,
    issue_token,
    require_operator,
    require_player,
    verify_token,
)
from libs.web.context import ServiceContext, request_transaction, service_context
from libs.web.dispatch import PrefixDispatcher
from libs.web.errors import ApiError, abort_with, error_response
from libs.web.idempotency import idempotent
from libs.web.schemas import StrictInteger, StrictSchema

__all__ = [
    "ApiError",
    "IssuedToken",
    "PrefixDispatcher",
    "ServiceContext",
    "StrictInteger",
    "StrictSchema",
    "abort_with",
    "base_app",
    "create_app",
    "current_player",
    "error_response",
    "idempotent",
    "issue_token",
    "request_transaction",
    "require_operator",
    "require_player",
    "service_context",
    "verify_token",
]

WEB_MIGRATIONS_FOLDER = __import__("pathlib").Path(__file__).resolve().parent / "migrations"
