"""The economy service object: runs the domain's decisions against the event store.

Every write reads the player's streams, decides, and appends at the versions it read, applying
the read models in the same transaction. A ``ConcurrencyError`` (someone appended first) retries
the whole command from a fresh read, at most ``ATTEMPTS`` times, then raises ``Busy``. A credit's
event id is derived from its source (``credit_event_id``), so the event store's unique key refuses
a second payment of the same source: ``AlreadyCredited``. Writes run in the transaction ``tx``
gives (a factory of context managers yielding a connection: the web request's
``request_transaction``, so an ``Idempotency-Key`` record commits with them) or, with ``conn=`` (a
consumer's transaction), as a savepoint of it; by default in a pooled connection of their own.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from libs.eventstore import ConcurrencyError, DuplicateEventError, EventStore, NewEvent, RecordedEvent
from services.economy import projections, store
from services.economy.cache import Folded, StreamCache
from services.economy.ceilings import DEFAULT_GRANT_CEILING
from services.economy.domain import (
    AboveCeiling,
    AlreadyCredited,
    DeckNotFound,
    EconomyError,
    WalletNotFound,
    decks,
    wallet,
)
from services.economy.domain.bounds import Ceiling
from services.economy.domain.credits import PlayerCredit
from services.economy.domain.events import Event, PackOpened, event_from
from services.economy.domain.packs import new_server_seed

Conn = psycopg.Connection[Any]
Tx = Callable[[], AbstractContextManager[Conn]]
T = TypeVar("T")
ATTEMPTS = 8
_NAMESPACE = uuid.UUID("3b7f8c2e-5d1a-4e0b-9a6c-2f4d8e1b7c90")


class Busy(EconomyError):
    """The player's streams kept changing under the command; nothing was written. Retry."""

    code = "busy"


def credit_event_id(player_id: str, source: str) -> uuid.UUID:
    """The event id of the credit of ``source`` to ``player_id`` (one payment per source)."""
    return uuid.uuid5(_NAMESPACE, f"credit|{player_id}|{source}")


def wallet_stream(player_id: str) -> str:
    return f"wallet-{player_id}"


def decks_stream(player_id: str) -> str:
    return f"decks-{player_id}"


def starter_deck_id(player_id: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"starter-deck|{player_id}"))


def _savepoint(conn: Conn | None) -> Tx | None:
    """A transaction factory making savepoints of ``conn``'s open transaction (None without one)."""
    if conn is None:
        return None

    @contextmanager
    def savepoint() -> Iterator[Conn]:
        with conn.transaction():
            yield conn

    return savepoint


class _Stale(Exception):
    """What was read is already outdated: retry like a ConcurrencyError."""


class EconomyService:
    """Wallets, collections, packs and decks of players, in the schema ``schema``."""

    def __init__(self, pool: ConnectionPool, schema: str, grant_ceiling: Ceiling | None = None) -> None:
        self.pool = pool
        self.schema = schema
        self.grant_ceiling = grant_ceiling or DEFAULT_GRANT_CEILING
        self.events = EventStore(pool, schema)
        self.cache = StreamCache()

    # -- plumbing ---------------------------------------------------------------------------------

    @contextmanager
    def _own_transaction(self) -> Iterator[Conn]:
        with self.pool.connection() as own, own.transaction():
            yield own

    def _retrying(self, tx: Tx | None, work: Callable[[Conn], T]) -> T:
        """Run ``work`` in a transaction, again from scratch after a concurrent append."""
        for _ in range(ATTEMPTS):
            try:
                with (tx or self._own_transaction)() as c:
                    return work(c)
            except (ConcurrencyError, _Stale):
                continue
        raise Busy("too many concurrent changes to this wallet; try again")

    def _load(
        self, c: Conn, stream: str, initial: Any, evolve: Callable[[Any, Event], Any]
    ) -> tuple[Any, int]:
        """The folded state of ``stream`` and its version, from the cache plus the newer events."""
        cached = self.cache.get(stream)
        recorded = self.events.read(stream, cached.version if cached else 1, conn=c)
        state, version = initial, 0
        if cached is not None:
            if not recorded or recorded[0].event_id != cached.last_event_id:
                self.cache.drop(stream)
                return self._load(c, stream, initial, evolve)
            state, version, recorded = cached.state, cached.version, recorded[1:]
        for r in recorded:
            state = evolve(state, event_from(r.type, r.data))
        if recorded:
            version = recorded[-1].version
            self.cache.put(stream, Folded(version, recorded[-1].event_id, state))
        return state, version

    def _wallet(self, c: Conn, player_id: str) -> tuple[wallet.Wallet | None, int]:
        found: tuple[wallet.Wallet | None, int] = self._load(c, wallet_stream(player_id), None, wallet.evolve)
        return found

    def _decks(self, c: Conn, player_id: str) -> tuple[decks.Decks, int]:
        found: tuple[decks.Decks, int] = self._load(
            c, decks_stream(player_id), decks.Decks(player_id), decks.evolve
        )
        return found

    def _append(
        self, c: Conn, stream: str, version: int, events: Sequence[Event], ids: Sequence[uuid.UUID] = ()
    ) -> list[RecordedEvent]:
        new = [NewEvent.of(e, **({"event_id": ids[i]} if i < len(ids) else {})) for i, e in enumerate(events)]
        # No savepoint of its own: every attempt already runs in its own (sub)transaction.
        recorded = self.events.append(stream, version, new, conn=c, savepoint=False)
        for r in recorded:
            projections.apply(r, c, self.schema)
        return recorded

    def _refresh_active_deck(self, c: Conn, player_id: str, collection: Any) -> None:
        """Publish the active deck again if the collection changed its legality."""
        state, version = self._decks(c, player_id)
        changed = decks.refresh(state, collection)
        if changed:
            self._append(c, decks_stream(player_id), version, changed)

    # -- accounts and credits -------------------------------------------------------------------

    def open_account(self, player_id: str, *, conn: Conn | None = None) -> None:
        """A new player's wallet (400 coins, starter collection, first pack seed) and starter deck,
        active. Raises ``AlreadyOpened`` when the player has a wallet already."""

        def work(c: Conn) -> None:
            current, version = self._wallet(c, player_id)
            seed = new_server_seed()
            events = wallet.decide_open_wallet(current, wallet.OpenWallet(player_id, seed))
            credit_id = credit_event_id(player_id, f"starter:{player_id}")
            self._append(c, wallet_stream(player_id), version, events, [uuid.uuid4(), credit_id])
            store.save_seed(c, self.schema, player_id, seed)
            state, deck_version = self._decks(c, player_id)
            opened = current
            for e in events:
                opened = wallet.evolve(opened, e)
            assert opened is not None
            starter = decks.decide_starter(state, starter_deck_id(player_id), opened.collection)
            self._append(c, decks_stream(player_id), deck_version, starter)

        self._retrying(_savepoint(conn), work)

    def credit(
        self,
        paid: PlayerCredit,
        *,
        conn: Conn | None = None,
        tx: Tx | None = None,
        opened_only: bool = False,
    ) -> RecordedEvent:
        """Pay one credit (also before the account's opening, unless ``opened_only``: then
        ``WalletNotFound``). Raises ``AlreadyCredited`` (its source was paid), ``InvalidAmount``,
        ``Busy``."""
        player_id = paid.player_id
        event_id = credit_event_id(player_id, paid.credit.source)

        def work(c: Conn) -> RecordedEvent:
            current, version = self._wallet(c, player_id)
            if opened_only and (current is None or not current.opened):
                raise WalletNotFound("this player has no wallet yet")
            events = wallet.decide_credit(current, paid.credit)
            try:
                (recorded,) = self._append(c, wallet_stream(player_id), version, events, [event_id])
            except DuplicateEventError:
                raise AlreadyCredited(f"{paid.credit.source} was paid already") from None
            return recorded

        return self._retrying(_savepoint(conn) or tx, work)

    def grant(self, paid: PlayerCredit, *, tx: Tx | None = None) -> RecordedEvent:
        """An operator's grant to an opened wallet, up to ``grant_ceiling``. Raises
        ``AboveCeiling``, ``WalletNotFound``, ``AlreadyCredited``, ``InvalidAmount``."""
        problems = self.grant_ceiling.problems(paid.credit)
        if problems:
            raise AboveCeiling("; ".join(problems), {"problems": problems})
        return self.credit(paid, tx=tx, opened_only=True)

    # -- packs, crafting -----------------------------------------------------------------------

    def open_pack(self, player_id: str, client_seed: str = "", *, tx: Tx | None = None) -> PackOpened:
        """Open the player's next pack. Raises ``WalletNotFound``, ``InsufficientCoins``, ``Busy``."""

        def work(c: Conn) -> PackOpened:
            seed = store.lock_seed(c, self.schema, player_id)
            if seed is None:
                raise WalletNotFound("this player has no wallet yet")
            current, version = self._wallet(c, player_id)
            next_seed = new_server_seed()
            try:
                events = wallet.decide_open_pack(current, wallet.OpenPack(seed, next_seed, client_seed))
            except ValueError:
                raise _Stale() from None
            self._append(c, wallet_stream(player_id), version, events)
            store.save_seed(c, self.schema, player_id, next_seed)
            self._refresh_active_deck(c, player_id, wallet.evolve(current, events[0]).collection)
            (opened,) = events
            assert isinstance(opened, PackOpened)
            return opened

        return self._retrying(tx, work)

    def _card_change(
        self, player_id: str, decide: Callable[[wallet.Wallet | None], list[Event]], tx: Tx | None
    ) -> tuple[Event, wallet.Wallet]:
        def work(c: Conn) -> tuple[Event, wallet.Wallet]:
            current, version = self._wallet(c, player_id)
            events = decide(current)
            self._append(c, wallet_stream(player_id), version, events)
            after = wallet.evolve(current, events[0])
            self._refresh_active_deck(c, player_id, after.collection)
            return events[0], after

        return self._retrying(tx, work)

    def craft(self, player_id: str, card_id: str, *, tx: Tx | None = None) -> tuple[Event, wallet.Wallet]:
        """The ``CardCrafted`` and the wallet after it. Raises ``WalletNotFound``, ``UnknownCard``,
        ``CraftBeyondLimit``, ``InsufficientDust``."""
        return self._card_change(player_id, lambda w: wallet.decide_craft(w, wallet.Craft(card_id)), tx)

    def disenchant(
        self, player_id: str, card_id: str, *, tx: Tx | None = None
    ) -> tuple[Event, wallet.Wallet]:
        """The ``CardDisenchanted`` and the wallet after it. Raises ``WalletNotFound``,
        ``UnknownCard``, ``CardNotOwned``; republishes the active deck when it loses its legality."""
        cmd = wallet.Disenchant(card_id)
        return self._card_change(player_id, lambda w: wallet.decide_disenchant(w, cmd), tx)

    # -- decks ------------------------------------------------------------------------------------

    def _deck_command(
        self,
        player_id: str,
        decide: Callable[[decks.Decks, Any], list[Event]],
        tx: Tx | None,
        show: str | None = None,
    ) -> dict[str, Any] | None:
        """Decide and append; then, in the same transaction, the deck ``show`` as its player sees
        it now (so the answer never comes from a second connection that cannot see the change)."""

        def work(c: Conn) -> dict[str, Any] | None:
            current, _ = self._wallet(c, player_id)
            if current is None or not current.opened:
                raise WalletNotFound("this player has no wallet yet")
            state, version = self._decks(c, player_id)
            events = decide(state, current.collection)
            if events:
                self._append(c, decks_stream(player_id), version, events)
            return None if show is None else self._deck_view(c, player_id, show)

        return self._retrying(tx, work)

    def save_deck(
        self, player_id: str, deck_id: str | None, name: str, cards: Sequence[str], *, tx: Tx | None = None
    ) -> dict[str, Any]:
        """Create (``deck_id`` None) or replace a deck; returns it as ``deck`` shows it. Raises
        ``InvalidDeck`` (also for copies the player does not own), ``DeckLimitReached``,
        ``DeckNotFound`` (replacing a deck that is not the player's)."""
        new_id = deck_id or str(uuid.uuid4())
        cmd = decks.SaveDeck(new_id, name, tuple(cards))
        decide = decks.decide_update if deck_id else decks.decide_save
        saved = self._deck_command(player_id, lambda state, owned: decide(state, cmd, owned), tx, new_id)
        assert saved is not None
        return saved

    def delete_deck(self, player_id: str, deck_id: str, *, tx: Tx | None = None) -> None:
        """Raises ``DeckNotFound``, ``ActiveDeckUndeletable``."""
        self._deck_command(player_id, lambda state, _owned: decks.decide_delete(state, deck_id), tx)

    def activate_deck(self, player_id: str, deck_id: str, *, tx: Tx | None = None) -> dict[str, Any]:
        """Returns the deck, now active. Raises ``DeckNotFound``, ``IllegalDeck`` (every problem in
        its details)."""
        activated = self._deck_command(
            player_id, lambda state, owned: decks.decide_activate(state, deck_id, owned), tx, deck_id
        )
        assert activated is not None
        return activated

    # -- reads ------------------------------------------------------------------------------------

    def wallet(self, player_id: str) -> dict[str, Any]:
        """The wallet's balances and next pack. Raises ``WalletNotFound``."""
        found = self.read(store.wallet, player_id)
        if found is None:
            raise WalletNotFound("this player has no wallet yet")
        return found

    def decks(self, player_id: str) -> list[dict[str, Any]]:
        """The player's decks, each with its legality against the collection now."""
        with self.pool.connection() as c:
            return self._deck_views(c, player_id)

    def deck(self, player_id: str, deck_id: str) -> dict[str, Any]:
        """One of the player's decks. Raises ``DeckNotFound`` (also for another player's deck)."""
        with self.pool.connection() as c:
            return self._deck_view(c, player_id, deck_id)

    def _deck_views(self, c: Conn, player_id: str) -> list[dict[str, Any]]:
        owned = store.collection(c, self.schema, player_id)
        found = store.decks(c, self.schema, player_id)
        for deck in found:
            problems = decks.legality(deck["cards"], owned)
            deck.update(legal=not problems, problems=problems)
        return found

    def _deck_view(self, c: Conn, player_id: str, deck_id: str) -> dict[str, Any]:
        for deck in self._deck_views(c, player_id):
            if deck["deck_id"] == deck_id:
                return deck
        raise DeckNotFound(f"no deck {deck_id}")

    def read(self, query: Callable[..., T], *args: Any) -> T:
        """Run one of ``store``'s read functions on a pooled connection."""
        with self.pool.connection() as c:
            return query(c, self.schema, *args)
