"""Who an operator is: the name of the operator token a request carries.

``ARCANA_OPERATOR_TOKEN`` is the shared token (its holder is recorded as ``operator``);
``ARCANA_OPERATOR_TOKENS`` (or its ``_FILE``) gives each operator a token of their own,
``name=token`` separated by commas, so the audit log (``libs.contracts.audit``) names who acted.
A name is 1-40 characters of ``a-z``, digits, ``_ . -``; a token at least 16 characters.
"""

from __future__ import annotations

import hmac
import re

SHARED = "operator"  # the name recorded for the shared ARCANA_OPERATOR_TOKEN
_NAME = re.compile(r"[a-z0-9_.-]{1,40}")
MIN_TOKEN_CHARS = 16


class BadOperatorTokens(ValueError):
    """``ARCANA_OPERATOR_TOKENS`` is not a list of ``name=token``."""


def named_tokens(shared: str | None, named: str | None) -> dict[str, str]:
    """Operator name -> token, the shared one (when set) as ``operator``. Raises
    ``BadOperatorTokens`` for an entry without ``=``, a bad name, a name twice or a short token."""
    tokens = {SHARED: shared} if shared else {}
    for entry in (named or "").split(","):
        if not entry.strip():
            continue
        name, sep, token = (part.strip() for part in entry.partition("="))
        if not sep or not _NAME.fullmatch(name):
            raise BadOperatorTokens(f"ARCANA_OPERATOR_TOKENS: {name!r} is not `name=token` with a valid name")
        if name in tokens:
            raise BadOperatorTokens(f"ARCANA_OPERATOR_TOKENS: operator {name!r} twice")
        if len(token) < MIN_TOKEN_CHARS:
            raise BadOperatorTokens(
                f"ARCANA_OPERATOR_TOKENS: {name}'s token is under {MIN_TOKEN_CHARS} chars"
            )
        tokens[name] = token
    return tokens


def operator_named(tokens: dict[str, str], given: str) -> str | None:
    """The name whose token is ``given`` (each compared in constant time), or None."""
    found = None
    for name, token in tokens.items():
        if hmac.compare_digest(given.encode(), token.encode()):
            found = name
    return found
