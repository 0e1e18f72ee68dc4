"""The accounts service object: register, log in, look up. Built once per process by ``root.py``.

Each method raises the domain's errors (``UsernameTaken``, ``InvalidCredentials``,
``TooManyAttempts``); ``api.ERRORS`` turns them into HTTP answers.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock, config
from libs.config import Settings
from libs.contracts import IntegrationEvent
from libs.eventstore import EventStore, Expect, ExpectedVersion, Repository, Transaction, UnitOfWork
from libs.web import IssuedToken, TokenClaims, issue_token
from libs.web.sessions import RevocationCache
from services.accounts import domain, store, suspended
from services.accounts.domain import (
    InvalidCredentials,
    LogIn,
    RegisterPlayer,
    TooManyAttempts,
    TooManyRegistrations,
)
from services.accounts.events import (
    CATALOG,
    AccountDeleted,
    AllSessionsRevoked,
    DisplayNameChanged,
    PlayerLoggedIn,
    PlayerRegistered,
    SessionRevoked,
)
from services.accounts.passwords import ScryptParams, dummy_hash, hash_password, verify_password

log = logging.getLogger("arcana.accounts")

# A transaction to write in: the request's (``libs.web.request_transaction``) or a pooled one.
Conn = psycopg.Connection[Any]


@dataclass(frozen=True)
class LoginPolicy:
    """Throttling of log-ins and registrations, in fixed windows of ``window_seconds``.

    - per client address: at most ``per_address`` log-in attempts (then 429 before any check);
    - per username: ``per_username`` failures are free; once over, each failure makes the address
      that failed wait ``delay_base_seconds``, doubling with every failure OF THAT ADDRESS, at most
      ``delay_max_seconds``, before its next try at that username. A stranger's guesses never
      lengthen the owner's wait (``domain.failures_over_limit``); an address that logged in as the
      username within ``known_address_seconds`` gets ``per_username`` failures of its own before
      any delay. Other addresses are still checked, so a correct password passes;
    - registrations: at most ``register_per_address`` per address in ``register_window_seconds``.
    """

    per_username: int = config.LOGIN_MAX_PER_USERNAME.default
    per_address: int = config.LOGIN_MAX_PER_ADDRESS.default
    window_seconds: int = config.LOGIN_WINDOW_SECONDS.default
    delay_base_seconds: int = config.LOGIN_DELAY_BASE_SECONDS.default
    delay_max_seconds: int = config.LOGIN_DELAY_MAX_SECONDS.default
    register_per_address: int = config.REGISTER_MAX_PER_ADDRESS.default
    register_window_seconds: int = config.REGISTER_WINDOW_SECONDS.default
    known_address_seconds: int = config.LOGIN_KNOWN_ADDRESS_SECONDS.default

    @classmethod
    def from_env(cls) -> LoginPolicy:
        return cls(
            per_username=config.LOGIN_MAX_PER_USERNAME.get(),
            per_address=config.LOGIN_MAX_PER_ADDRESS.get(),
            window_seconds=config.LOGIN_WINDOW_SECONDS.get(),
            delay_base_seconds=config.LOGIN_DELAY_BASE_SECONDS.get(),
            delay_max_seconds=config.LOGIN_DELAY_MAX_SECONDS.get(),
            register_per_address=config.REGISTER_MAX_PER_ADDRESS.get(),
            register_window_seconds=config.REGISTER_WINDOW_SECONDS.get(),
            known_address_seconds=config.LOGIN_KNOWN_ADDRESS_SECONDS.get(),
        )


@dataclass(frozen=True)
class AccountsConfig:
    scrypt: ScryptParams
    login: LoginPolicy

    @classmethod
    def from_env(cls) -> AccountsConfig:
        return cls(ScryptParams.from_env(), LoginPolicy.from_env())


class AccountsService:
    """Accounts' use cases. ``sessions`` (a ``RevocationCache``, in web processes) learns of log-outs
    at once in this process."""

    def __init__(
        self,
        pool: ConnectionPool,
        schema: str,
        settings: Settings,
        config: AccountsConfig,
        sessions: RevocationCache | None = None,
    ) -> None:
        self.pool = pool
        self.schema = schema
        self.settings = settings
        self.config = config
        self.sessions = sessions
        self.events = EventStore(pool, schema)
        self.repository = Repository(self.events, declared=CATALOG.events)

    # -- registration --------------------------------------------------------------------------

    def register(self, command: RegisterPlayer, transaction: Transaction) -> PlayerRegistered:
        """Store the account and append ``PlayerRegistered`` in one ``transaction()``, entered after
        the (slow) password hash. Call ``throttle_registration`` first (the API does, before it
        claims the request's ``Idempotency-Key``: the count needs a connection of its own).

        Raises ``UsernameTaken``; nothing is written then.
        """
        password_hash = hash_password(command.password, self.config.scrypt)
        player_id = uuid.uuid4()
        event = domain.register(command, player_id)
        now = clock.now()

        def store_account(uow: UnitOfWork) -> None:
            store.insert_player(uow.conn, self.schema, player_id, command.username, password_hash, now)
            self._append(uow, player_id, event, Expect.NO_STREAM, at=now)

        self.repository.execute(store_account, transaction=transaction)
        return event

    def throttle_registration(self, client_address: str, idempotency_key: str | None = None) -> None:
        """Count a registration attempt (its own transaction: a refused request's rollback must
        not undo it); raise ``TooManyRegistrations`` over the limit. Retries with one
        ``Idempotency-Key`` count once: they are one registration."""
        policy, now = self.config.login, clock.now()
        retry = None if idempotency_key is None else store.key_subject(client_address, idempotency_key)
        with self.pool.connection() as conn, conn.transaction():
            if retry is not None and store.admitted_before(conn, self.schema, retry):
                return
            attempts, window_left = store.count_attempt(
                conn, self.schema, "register_ip", client_address, policy.register_window_seconds, now
            )
            admitted = attempts <= policy.register_per_address
            if retry is not None and admitted:
                store.admit(conn, self.schema, retry, now)
        if not admitted:
            raise TooManyRegistrations(window_left)

    # -- log-in --------------------------------------------------------------------------------

    def log_in(self, command: LogIn) -> IssuedToken:
        """A signed token for valid credentials, with ``PlayerLoggedIn`` appended.

        Raises ``TooManyAttempts`` when the client address is over its limit or must still wait
        after failing at this username (both checked first, so a throttled guess is never
        verified) and ``InvalidCredentials`` on a wrong password or unknown username (counted as a
        failure).
        """
        self._throttle_log_in(command)
        with self.pool.connection() as conn:
            row = store.find_by_username(conn, self.schema, command.username_key)
        password = domain.normalize_password(command.password)
        matches = verify_password(password, row.password_hash if row else dummy_hash(self.config.scrypt))
        if row is None or not matches:
            self._record_failure(command)
            raise InvalidCredentials()
        return self._open_session(command, row)

    def _throttle_log_in(self, command: LogIn) -> None:
        policy, now = self.config.login, clock.now()
        pair = store.pair_subject(command.username_key, command.client_address)
        with self.pool.connection() as conn, conn.transaction():
            by_address, window_left = store.count_attempt(
                conn, self.schema, "ip", command.client_address, policy.window_seconds, now
            )
            wait = store.seconds_blocked(conn, self.schema, pair, now)
        if by_address > policy.per_address:
            raise TooManyAttempts(window_left)
        if wait:
            raise TooManyAttempts(wait)

    def _record_failure(self, command: LogIn) -> None:
        """Count a failure for the username and for this address at it; over the username's limit,
        make this address wait, growing with its own failures only."""
        policy, now = self.config.login, clock.now()
        pair = store.pair_subject(command.username_key, command.client_address)
        with self.pool.connection() as conn, conn.transaction():
            total, _ = store.count_attempt(
                conn, self.schema, "username", command.username_key, policy.window_seconds, now
            )
            own, _ = store.count_attempt(conn, self.schema, "pair_fail", pair, policy.window_seconds, now)
            known = store.logged_in_since(conn, self.schema, pair, now, policy.known_address_seconds)
            excess = domain.failures_over_limit(own, total, policy.per_username, known)
            delay = domain.delay_after_failure(excess, policy.delay_base_seconds, policy.delay_max_seconds)
            if delay:
                store.block_until(conn, self.schema, pair, now, now + timedelta(seconds=delay))

    def _open_session(self, command: LogIn, row: store.PlayerRow) -> IssuedToken:
        """Forgive the attempt, append ``PlayerLoggedIn`` (one transaction) and issue the token."""

        def log_in(uow: UnitOfWork) -> int:
            version = store.lock_player(uow.conn, self.schema, row.player_id)
            suspended.refuse_if_suspended(uow.conn, self.schema, row.player_id)
            store.forgive_attempts(uow.conn, self.schema, command.username_key, command.client_address)
            store.mark_logged_in(
                uow.conn,
                self.schema,
                store.pair_subject(command.username_key, command.client_address),
                clock.now(),
            )
            self._append(uow, row.player_id, PlayerLoggedIn(str(row.player_id)))
            return version

        version = self.repository.execute(log_in)
        return issue_token(
            self.settings.token_secret, row.player_id, self.settings.token_ttl_seconds, version=version
        )

    # -- the public name -----------------------------------------------------------------------

    def change_display_name(
        self, command: domain.ChangeDisplayName, transaction: Transaction
    ) -> store.PlayerRow:
        """Set the player's display name and append ``DisplayNameChanged`` (nothing when it is the
        name already); returns the account after. Raises ``UnknownPlayer``, ``DisplayNameTaken``
        (another player's name, the player's own log-in name, or of the default names' form)."""

        def rename(uow: UnitOfWork) -> store.PlayerRow:
            row = store.get_player(uow.conn, self.schema, command.player_id)
            if row is None:
                raise domain.UnknownPlayer()
            store.lock_player(uow.conn, self.schema, command.player_id)
            if command.reserved(row.username):
                raise domain.DisplayNameTaken(command.display_name)
            if row.display_name != command.display_name:
                store.set_display_name(uow.conn, self.schema, command.player_id, command.display_name)
                event = DisplayNameChanged(str(command.player_id), command.display_name)
                self._append(uow, command.player_id, event)
            return replace(row, display_name=command.display_name)

        return self.repository.execute(rename, transaction=transaction)

    # -- log-out -------------------------------------------------------------------------------

    def log_out(self, claims: TokenClaims, transaction: Transaction) -> None:
        """Revoke this one token (``SessionRevoked``); it is refused from now on."""
        event = SessionRevoked(str(claims.player_id), claims.token_id, claims.expires_at.isoformat())

        def revoke(uow: UnitOfWork) -> None:
            store.lock_player(uow.conn, self.schema, claims.player_id)
            store.revoke_token(uow.conn, self.schema, claims.player_id, claims.token_id, claims.expires_at)
            self._append(uow, claims.player_id, event)

        self.repository.execute(revoke, transaction=transaction)
        self._forget_sessions(claims.player_id)

    def log_out_everywhere(self, claims: TokenClaims, transaction: Transaction) -> None:
        """Revoke every token of the player issued so far (``AllSessionsRevoked``)."""

        def revoke_all(uow: UnitOfWork) -> None:
            store.lock_player(uow.conn, self.schema, claims.player_id)
            version = store.raise_token_version(uow.conn, self.schema, claims.player_id)
            self._append(uow, claims.player_id, AllSessionsRevoked(str(claims.player_id), version))

        self.repository.execute(revoke_all, transaction=transaction)
        self._forget_sessions(claims.player_id)

    def _forget_sessions(self, player_id: uuid.UUID) -> None:
        """This process applies a revocation at once (others within the cache's lifetime)."""
        if self.sessions is not None:
            self.sessions.forget(player_id)

    # -- deletion ------------------------------------------------------------------------------

    def delete_account(self, command: domain.DeleteAccount, transaction: Transaction) -> None:
        """The player deletes their account, confirmed by their password: ``_erase``. Raises
        ``UnknownPlayer``, ``WrongPassword``; nothing is written then."""
        row = self.player(command.player_id)
        if not verify_password(domain.normalize_password(command.password), row.password_hash):
            raise domain.WrongPassword()
        self._erase(row, "player", transaction)

    def delete_account_by_operator(self, player_id: uuid.UUID, reason: str, transaction: Transaction) -> None:
        """An operator deletes a player's account (the player asked otherwise than through the
        API): ``_erase``. Raises ``NoSuchAccount``. The reason goes to the log, not to the event
        (it may name the person)."""
        with self.pool.connection() as conn:
            row = store.get_player(conn, self.schema, player_id)
        if row is None:
            raise domain.NoSuchAccount()
        self._erase(row, "operator", transaction)
        log.warning("operator deleted the account of player %s: %s", player_id, reason)

    def _erase(self, row: store.PlayerRow, by: str, transaction: Transaction) -> None:
        """Erase the player (``store.erase_player``) and append ``AllSessionsRevoked`` (every service
        refuses their tokens) then ``AccountDeleted`` (read models show the pseudonym), in one
        transaction."""
        shown = domain.pseudonym(row.player_id)

        def erase(uow: UnitOfWork) -> None:
            version = store.lock_player(uow.conn, self.schema, row.player_id) + 1
            self._append(uow, row.player_id, AllSessionsRevoked(str(row.player_id), version))
            self._append(uow, row.player_id, AccountDeleted(str(row.player_id), by, shown))
            store.erase_player(uow.conn, self.schema, row, shown, clock.now())

        self.repository.execute(erase, transaction=transaction)
        self._forget_sessions(row.player_id)

    # -- reading and upkeep --------------------------------------------------------------------

    def player(self, player_id: uuid.UUID) -> store.PlayerRow:
        """The player's account; raises ``UnknownPlayer`` (a token for a player that does not exist)."""
        with self.pool.connection() as conn:
            row = store.get_player(conn, self.schema, player_id)
        if row is None:
            raise domain.UnknownPlayer()
        return row

    def purge_expired(self) -> int:
        """Delete the throttling counters past their window and the revoked tokens past their
        expiry (nothing that still limits anyone); returns how many rows went."""
        policy, now = self.config.login, clock.now()
        windows = {
            "ip": policy.window_seconds,
            "username": policy.window_seconds,
            "pair": policy.window_seconds,
            "pair_fail": policy.window_seconds,
            "known": policy.known_address_seconds,
            "register_ip": policy.register_window_seconds,
            "register_key": policy.register_window_seconds,
        }
        with self.pool.connection() as conn, conn.transaction():
            return store.purge_login_attempts(conn, self.schema, now, windows) + store.purge_revoked_tokens(
                conn, self.schema, now
            )

    def _append(
        self,
        uow: UnitOfWork,
        player_id: uuid.UUID,
        event: IntegrationEvent,
        expect: ExpectedVersion = Expect.STREAM_EXISTS,
        at: datetime | None = None,
    ) -> None:
        uow.append(domain.player_stream(player_id), expect, [event], occurred_at=at or clock.now())
