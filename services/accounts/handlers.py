"""Command handlers: run a domain decision against the store and the event store.

Each raises the domain's errors (``UsernameTaken``, ``InvalidCredentials``, ``TooManyAttempts``);
``api.py`` turns them into HTTP errors.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from libs.eventstore import EventStore, Expect, NewEvent
from libs.web import IssuedToken, issue_token, request_transaction, service_context
from services.accounts import domain, store
from services.accounts.domain import (
    InvalidCredentials,
    LogIn,
    PlayerRegistered,
    RegisterPlayer,
    TooManyAttempts,
)
from services.accounts.passwords import ScryptParams, dummy_hash, hash_password, verify_password


@dataclass(frozen=True)
class LoginPolicy:
    """Throttling: at most ``per_username`` attempts per username and ``per_address`` per client
    address in a fixed window of ``window_seconds``."""

    per_username: int = 10
    per_address: int = 100
    window_seconds: int = 900

    @classmethod
    def from_env(cls) -> LoginPolicy:
        d = cls()
        return cls(
            per_username=int(os.environ.get("ARCANA_LOGIN_MAX_PER_USERNAME", d.per_username)),
            per_address=int(os.environ.get("ARCANA_LOGIN_MAX_PER_ADDRESS", d.per_address)),
            window_seconds=int(os.environ.get("ARCANA_LOGIN_WINDOW_SECONDS", d.window_seconds)),
        )


@dataclass(frozen=True)
class AccountsConfig:
    scrypt: ScryptParams
    login: LoginPolicy

    @classmethod
    def from_env(cls) -> AccountsConfig:
        return cls(ScryptParams.from_env(), LoginPolicy.from_env())


def _schema() -> str:
    schema = service_context().schema
    assert schema is not None
    return schema


def register_player(command: RegisterPlayer, config: AccountsConfig) -> PlayerRegistered:
    """Store the account and append ``PlayerRegistered`` in one transaction.

    Raises ``UsernameTaken``; nothing is written then.
    """
    ctx = service_context()
    password_hash = hash_password(command.password, config.scrypt)  # slow: before the transaction
    event = domain.register(command, uuid.uuid4(), datetime.now(UTC))
    with request_transaction() as conn:
        store.insert_player(conn, _schema(), event, password_hash)
        EventStore(ctx.pool, _schema()).append(
            event.stream,
            Expect.NO_STREAM,
            [NewEvent(PlayerRegistered.TYPE, event.data(), occurred_at=event.occurred_at)],
            conn=conn,
        )
    return event


def log_in(command: LogIn, config: AccountsConfig) -> IssuedToken:
    """A signed token for valid credentials.

    Raises ``TooManyAttempts`` when the username or the client address is over its limit (checked
    first, so a throttled guess is never verified) and ``InvalidCredentials`` otherwise on failure.
    """
    ctx = service_context()
    policy, schema = config.login, _schema()
    with ctx.pool.connection() as conn, conn.transaction():
        by_user = store.count_attempt(conn, schema, "username", command.username_key, policy.window_seconds)
        by_addr = store.count_attempt(conn, schema, "ip", command.client_address, policy.window_seconds)
    over = [
        wait
        for (n, wait), limit in ((by_user, policy.per_username), (by_addr, policy.per_address))
        if n > limit
    ]
    if over:
        raise TooManyAttempts(max(over))
    with ctx.pool.connection() as conn:
        row = store.find_by_username(conn, schema, command.username_key)
    password = domain.normalize_password(command.password)
    matches = verify_password(password, row.password_hash if row else dummy_hash(config.scrypt))
    if row is None or not matches:
        raise InvalidCredentials()
    with ctx.pool.connection() as conn, conn.transaction():
        store.forgive_attempts(conn, schema, command.username_key, command.client_address)
    return issue_token(ctx.settings.token_secret, row.player_id, ctx.settings.token_ttl_seconds)


def get_player(player_id: uuid.UUID) -> store.PlayerRow | None:
    with service_context().pool.connection() as conn:
        return store.get_player(conn, _schema(), player_id)
