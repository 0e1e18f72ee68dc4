"""The web layer shared by every service: app factory, errors, auth, idempotency, dispatch.

See ``app.create_app`` (factory), ``errors.ApiError`` (named errors), ``auth.require_player`` /
``auth.current_player`` / ``auth.require_operator``, ``idempotency.idempotent`` with
``context.request_transaction``, and ``dispatch.PrefixDispatcher``.
"""

from libs.web.app import base_app, create_app, lazy_app
from libs.web.auth import (
    IssuedToken,
    SessionCheck,
    TokenClaims,
    current_claims,
    current_operator,
    current_player,
    issue_token,
    require_operator,
    require_player,
    verify_token,
)
from libs.web.context import ServiceContext, in_idempotent_request, request_transaction, service_context
from libs.web.contract import NUL_FREE, FullMatch
from libs.web.dispatch import PrefixDispatcher
from libs.web.errors import ApiError, abort_with, error_response
from libs.web.idempotency import idempotent, purge_idempotency_keys
from libs.web.schemas import (
    Blueprint,
    ErrorSchema,
    IsoDate,
    QueryInteger,
    StrictInteger,
    StrictSchema,
    UnionSchema,
)

__all__ = [
    "NUL_FREE",
    "ApiError",
    "Blueprint",
    "ErrorSchema",
    "FullMatch",
    "IsoDate",
    "IssuedToken",
    "PrefixDispatcher",
    "QueryInteger",
    "ServiceContext",
    "SessionCheck",
    "StrictInteger",
    "StrictSchema",
    "TokenClaims",
    "UnionSchema",
    "abort_with",
    "base_app",
    "create_app",
    "current_claims",
    "current_operator",
    "current_player",
    "error_response",
    "idempotent",
    "in_idempotent_request",
    "issue_token",
    "lazy_app",
    "purge_idempotency_keys",
    "request_transaction",
    "require_operator",
    "require_player",
    "service_context",
    "verify_token",
]
