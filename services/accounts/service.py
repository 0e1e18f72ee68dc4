"""The accounts service object: register, log in, look up. Built once per process by ``root.py``.

Each method raises the domain's errors (``UsernameTaken``, ``InvalidCredentials``,
``TooManyAttempts``); ``api.ERRORS`` turns them into HTTP answers.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import Settings
from libs.eventstore import EventStore, Expect, NewEvent
from libs.web import IssuedToken, issue_token
from services.accounts import domain, store
from services.accounts.domain import InvalidCredentials, LogIn, RegisterPlayer, TooManyAttempts
from services.accounts.events import PlayerRegistered
from services.accounts.passwords import ScryptParams, dummy_hash, hash_password, verify_password

# A transaction to write in: the request's (``libs.web.request_transaction``) or a pooled one.
UnitOfWork = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]


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


class AccountsService:
    def __init__(self, pool: ConnectionPool, schema: str, settings: Settings, config: AccountsConfig) -> None:
        self.pool = pool
        self.schema = schema
        self.settings = settings
        self.config = config
        self.events = EventStore(pool, schema)

    def register(self, command: RegisterPlayer, transaction: UnitOfWork) -> PlayerRegistered:
        """Store the account and append ``PlayerRegistered`` in one ``transaction()``, entered after
        the (slow) password hash.

        Raises ``UsernameTaken``; nothing is written then.
        """
        password_hash = hash_password(command.password, self.config.scrypt)  # slow: before writing
        player_id = uuid.uuid4()
        event = domain.register(command, player_id)
        now = clock.now()
        with transaction() as conn:
            store.insert_player(conn, self.schema, player_id, event.username, password_hash, now)
            self.events.append(
                domain.player_stream(player_id),
                Expect.NO_STREAM,
                [NewEvent.of(event, occurred_at=now)],
                conn=conn,
            )
        return event

    def log_in(self, command: LogIn) -> IssuedToken:
        """A signed token for valid credentials.

        Raises ``TooManyAttempts`` when the username or the client address is over its limit
        (checked first, so a throttled guess is never verified) and ``InvalidCredentials`` otherwise
        on failure.
        """
        policy, schema = self.config.login, self.schema
        with self.pool.connection() as conn, conn.transaction():
            by_user = store.count_attempt(
                conn, schema, "username", command.username_key, policy.window_seconds
            )
            by_addr = store.count_attempt(conn, schema, "ip", command.client_address, policy.window_seconds)
        over = [
            wait
            for (n, wait), limit in ((by_user, policy.per_username), (by_addr, policy.per_address))
            if n > limit
        ]
        if over:
            raise TooManyAttempts(max(over))
        with self.pool.connection() as conn:
            row = store.find_by_username(conn, schema, command.username_key)
        password = domain.normalize_password(command.password)
        matches = verify_password(password, row.password_hash if row else dummy_hash(self.config.scrypt))
        if row is None or not matches:
            raise InvalidCredentials()
        with self.pool.connection() as conn, conn.transaction():
            store.forgive_attempts(conn, schema, command.username_key, command.client_address)
        return issue_token(self.settings.token_secret, row.player_id, self.settings.token_ttl_seconds)

    def player(self, player_id: uuid.UUID) -> store.PlayerRow:
        """The player's account; raises ``UnknownPlayer`` (a token for a player that does not exist)."""
        with self.pool.connection() as conn:
            row = store.get_player(conn, self.schema, player_id)
        if row is None:
            raise domain.UnknownPlayer()
        return row
