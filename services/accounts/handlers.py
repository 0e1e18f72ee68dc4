"""Command handlers: run a domain decision against the store and the event store.

Each raises the domain's errors (``UsernameTaken``, ``InvalidCredentials``, ``TooManyAttempts``);
``api.py`` turns them into HTTP errors.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from libs import clock
from libs.eventstore import EventStore, Expect, NewEvent
from libs.web import IssuedToken, TokenClaims, issue_token, request_transaction, service_context
from libs.web.sessions import RevocationCache
from services.accounts import domain, store
from services.accounts.domain import (
    AllSessionsRevoked,
    InvalidCredentials,
    LogIn,
    PlayerLoggedIn,
    PlayerRegistered,
    RegisterPlayer,
    SessionRevoked,
    TooManyAttempts,
)
from services.accounts.passwords import ScryptParams, dummy_hash, hash_password, verify_password


@dataclass(frozen=True)
class LoginPolicy:
    """Throttling of log-ins and registrations, in fixed windows of ``window_seconds``.

    - per client address: at most ``per_address`` log-in attempts (then 429 before any check);
    - per username: ``per_username`` failures are free; each further failure makes the address
      that failed wait ``delay_base_seconds``, doubling with every failure, at most
      ``delay_max_seconds``, before its next try at that username. Other addresses (the owner's)
      are still checked, so a correct password passes;
    - registrations: at most ``register_per_address`` per address in ``register_window_seconds``.
    """

    per_username: int = 10
    per_address: int = 100
    window_seconds: int = 900
    delay_base_seconds: int = 2
    delay_max_seconds: int = 900
    register_per_address: int = 10
    register_window_seconds: int = 3600

    @classmethod
    def from_env(cls) -> LoginPolicy:
        d = cls()

        def env(name: str, default: int) -> int:
            return int(os.environ.get(name, default))

        return cls(
            per_username=env("ARCANA_LOGIN_MAX_PER_USERNAME", d.per_username),
            per_address=env("ARCANA_LOGIN_MAX_PER_ADDRESS", d.per_address),
            window_seconds=env("ARCANA_LOGIN_WINDOW_SECONDS", d.window_seconds),
            delay_base_seconds=env("ARCANA_LOGIN_DELAY_BASE_SECONDS", d.delay_base_seconds),
            delay_max_seconds=env("ARCANA_LOGIN_DELAY_MAX_SECONDS", d.delay_max_seconds),
            register_per_address=env("ARCANA_REGISTER_MAX_PER_ADDRESS", d.register_per_address),
            register_window_seconds=env("ARCANA_REGISTER_WINDOW_SECONDS", d.register_window_seconds),
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

    Raises ``TooManyAttempts`` when the client address registered too often (checked before the
    slow hash) and ``UsernameTaken``; nothing is written then.
    """
    ctx = service_context()
    _throttle_registration(command.client_address, config.login)
    password_hash = hash_password(command.password, config.scrypt)  # slow: before the transaction
    event = domain.register(command, uuid.uuid4(), clock.now())
    with request_transaction() as conn:
        store.insert_player(conn, _schema(), event, password_hash)
        EventStore(ctx.pool, _schema()).append(
            event.stream,
            Expect.NO_STREAM,
            [NewEvent(PlayerRegistered.TYPE, event.data(), occurred_at=event.occurred_at)],
            conn=conn,
        )
    return event


def _throttle_registration(client_address: str, policy: LoginPolicy) -> None:
    """Count a registration attempt of ``client_address`` (its own connection: a refused request's
    rollback must not undo it); raise ``TooManyAttempts`` over the limit."""
    with service_context().pool.connection() as conn, conn.transaction():
        attempts, window_left = store.count_attempt(
            conn, _schema(), "register_ip", client_address, policy.register_window_seconds, clock.now()
        )
    if attempts > policy.register_per_address:
        raise TooManyAttempts(window_left)


def log_in(command: LogIn, config: AccountsConfig) -> IssuedToken:
    """A signed token for valid credentials, with ``PlayerLoggedIn`` appended.

    Raises ``TooManyAttempts`` when the client address is over its limit or must still wait
    after failing at this username (both checked first, so a throttled guess is never verified)
    and ``InvalidCredentials`` on a wrong password or unknown username (counted as a failure).
    """
    policy = config.login
    _throttle_log_in(command, policy)
    with service_context().pool.connection() as conn:
        row = store.find_by_username(conn, _schema(), command.username_key)
    password = domain.normalize_password(command.password)
    matches = verify_password(password, row.password_hash if row else dummy_hash(config.scrypt))
    if row is None or not matches:
        _record_failure(command, policy)
        raise InvalidCredentials()
    return _open_session(command, row)


def _throttle_log_in(command: LogIn, policy: LoginPolicy) -> None:
    now = clock.now()
    pair = store.pair_subject(command.username_key, command.client_address)
    with service_context().pool.connection() as conn, conn.transaction():
        by_address, window_left = store.count_attempt(
            conn, _schema(), "ip", command.client_address, policy.window_seconds, now
        )
        wait = store.seconds_blocked(conn, _schema(), pair, now)
    if by_address > policy.per_address:
        raise TooManyAttempts(window_left)
    if wait:
        raise TooManyAttempts(wait)


def _record_failure(command: LogIn, policy: LoginPolicy) -> None:
    """Count a failure for the username; over its limit, make this address wait (growing)."""
    now = clock.now()
    with service_context().pool.connection() as conn, conn.transaction():
        failures, _ = store.count_attempt(
            conn, _schema(), "username", command.username_key, policy.window_seconds, now
        )
        delay = domain.delay_after_failure(
            failures - policy.per_username, policy.delay_base_seconds, policy.delay_max_seconds
        )
        if delay:
            pair = store.pair_subject(command.username_key, command.client_address)
            store.block_until(conn, _schema(), pair, now, now + timedelta(seconds=delay))


def _open_session(command: LogIn, row: store.PlayerRow) -> IssuedToken:
    """Forgive the attempt, append ``PlayerLoggedIn`` (one transaction) and issue the token."""
    ctx = service_context()
    event = PlayerLoggedIn(row.player_id, row.username, clock.now())
    with ctx.pool.connection() as conn, conn.transaction():
        version = store.lock_player(conn, _schema(), row.player_id)
        store.forgive_attempts(conn, _schema(), command.username_key, command.client_address)
        EventStore(ctx.pool, _schema()).append(
            event.stream,
            Expect.STREAM_EXISTS,
            [NewEvent(PlayerLoggedIn.TYPE, event.data(), occurred_at=event.occurred_at)],
            conn=conn,
        )
    return issue_token(
        ctx.settings.token_secret, row.player_id, ctx.settings.token_ttl_seconds, version=version
    )


def log_out(claims: TokenClaims) -> None:
    """Revoke this one token (``SessionRevoked``); it is refused from now on."""
    event = SessionRevoked(claims.player_id, claims.token_id, claims.expires_at)
    with request_transaction() as conn:
        store.lock_player(conn, _schema(), claims.player_id)
        store.revoke_token(conn, _schema(), claims.player_id, claims.token_id, claims.expires_at)
        _append(conn, claims.player_id, SessionRevoked.TYPE, event.data())
    _forget_sessions(claims.player_id)


def log_out_everywhere(claims: TokenClaims) -> None:
    """Revoke every token of the player issued so far (``AllSessionsRevoked``)."""
    with request_transaction() as conn:
        store.lock_player(conn, _schema(), claims.player_id)
        version = store.raise_token_version(conn, _schema(), claims.player_id)
        event = AllSessionsRevoked(claims.player_id, version)
        _append(conn, claims.player_id, AllSessionsRevoked.TYPE, event.data())
    _forget_sessions(claims.player_id)


def _append(conn: Any, player_id: uuid.UUID, event_type: str, data: dict[str, Any]) -> None:
    EventStore(service_context().pool, _schema()).append(
        domain.player_stream(player_id),
        Expect.STREAM_EXISTS,
        [NewEvent(event_type, data, occurred_at=clock.now())],
        conn=conn,
    )


def _forget_sessions(player_id: uuid.UUID) -> None:
    """This process applies a revocation at once (others within the cache's lifetime)."""
    sessions = service_context().sessions
    if isinstance(sessions, RevocationCache):
        sessions.forget(player_id)


def get_player(player_id: uuid.UUID) -> store.PlayerRow | None:
    with service_context().pool.connection() as conn:
        return store.get_player(conn, _schema(), player_id)
