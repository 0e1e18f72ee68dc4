"""The economy service object: runs the domain's decisions against the event store.

Every write is a command of the one command path (``libs.eventstore.Repository.execute``): it
reads the player's streams, decides, and appends at the versions it read, applying the read models
in the same transaction; a concurrent append retries it from a fresh read, a bounded number of
times, then ``Busy``. Wallets are long streams: a snapshot every 50 events and the process's cache
of folded states stand in for the events they cover. A credit's event id is derived from its
source (``credit_event_id``), so the event store's unique key refuses a second payment of the same
source: ``AlreadyCredited``. Writes run in the transaction ``tx`` gives (the web request's
``request_transaction``, so an ``Idempotency-Key`` record commits with them) or, with ``conn=`` (a
consumer's transaction), as a savepoint of it; by default in a pooled connection of their own.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, time
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock, codec, fairplay
from libs.eventstore import (
    DuplicateEventError,
    EventStore,
    Fold,
    RecordedEvent,
    Repository,
    Snapshots,
    StaleRead,
    StreamCache,
    TooManyConflicts,
    Transaction,
    UnitOfWork,
)
from services.economy import projections, store
from services.economy.ceilings import DEFAULT_GRANT_CEILING
from services.economy.domain import (
    AboveCeiling,
    AlreadyCredited,
    DailyLimitReached,
    DeckNotFound,
    EconomyError,
    WalletNotFound,
    decks,
    wallet,
)
from services.economy.domain.bounds import Ceiling
from services.economy.domain.credits import PlayerCredit, PlayerShards, within_daily_limit
from services.economy.domain.packs import new_server_seed
from services.economy.events import EVENT_TYPES, Event, PackOpened
from services.economy.lines import Lines
from services.economy.upcasting import STORED, UPCASTERS

Conn = psycopg.Connection[Any]
Tx = Transaction
T = TypeVar("T")
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


# A wallet through the one codec (``libs.codec``), as the shape-2 snapshots were written by hand.
WALLET_SNAPSHOTS: Snapshots[wallet.Wallet | None] = Snapshots(
    2, codec.encode, codec.decoder(wallet.Wallet), every=50
)


def _credit_events(
    current: wallet.Wallet | None, paid: PlayerCredit | PlayerShards, now: datetime
) -> list[Event]:
    if isinstance(paid, PlayerShards):
        return wallet.decide_shard_credit(current, paid.player_id, paid.credit)
    return wallet.decide_credit(current, paid.credit, player_id=paid.player_id, now=now)


class EconomyService:
    """Wallets, collections, packs and decks of players, in the schema ``schema``."""

    def __init__(self, pool: ConnectionPool, schema: str, grant_ceiling: Ceiling | None = None) -> None:
        self.pool = pool
        self.schema = schema
        self.grant_ceiling = grant_ceiling or DEFAULT_GRANT_CEILING
        self.events = EventStore(pool, schema, UPCASTERS)
        self.repository = Repository(self.events, project=self._project, declared=EVENT_TYPES.values())
        self.cache = StreamCache()
        self._wallets: Fold[wallet.Wallet | None] = Fold(
            lambda: None, STORED.evolving(wallet.evolve), snapshots=WALLET_SNAPSHOTS, cache=self.cache
        )
        self.line = Lines(pool, schema, self.repository, self.cache, self._execute, self._opened_wallet)

    # -- plumbing ---------------------------------------------------------------------------------

    def _project(self, conn: Conn, recorded: Sequence[RecordedEvent]) -> None:
        for r in recorded:
            projections.apply(r, conn, self.schema)

    def _execute(self, work: Callable[[UnitOfWork], T], tx: Tx | None = None, conn: Conn | None = None) -> T:
        """Run ``work`` as one command (``Repository.execute``); ``Busy`` when it kept conflicting."""
        try:
            return self.repository.execute(work, transaction=None if conn else tx, conn=conn)
        except TooManyConflicts:
            raise Busy("too many concurrent changes to this wallet; try again") from None

    def _wallet(self, uow: UnitOfWork, player_id: str) -> tuple[wallet.Wallet | None, int]:
        loaded = self.repository.get(uow, wallet_stream(player_id), self._wallets)
        return loaded.state, loaded.version

    def _opened_wallet(self, uow: UnitOfWork, player_id: str) -> wallet.Wallet:
        current, _ = self._wallet(uow, player_id)
        if current is None or not current.opened:
            raise WalletNotFound("this player has no wallet yet")
        return current

    def _decks(self, uow: UnitOfWork, player_id: str) -> tuple[decks.Decks, int]:
        fold = Fold(lambda: decks.Decks(player_id), STORED.evolving(decks.evolve), cache=self.cache)
        loaded = self.repository.get(uow, decks_stream(player_id), fold)
        return loaded.state, loaded.version

    def _refresh_active_deck(self, uow: UnitOfWork, player_id: str, collection: Any) -> None:
        """Publish the active deck again if the collection changed its legality."""
        state, version = self._decks(uow, player_id)
        changed = decks.refresh(state, collection)
        if changed:
            uow.append(decks_stream(player_id), version, changed)

    # -- accounts and credits -------------------------------------------------------------------

    def open_account(
        self, player_id: str, *, conn: Conn | None = None, registered_at: datetime | None = None
    ) -> None:
        """A new player's wallet (400 coins, starter collection, first pack seed) and starter deck,
        active. Raises ``AlreadyOpened`` when the player has a wallet already."""

        def work(uow: UnitOfWork) -> None:
            current, version = self._wallet(uow, player_id)
            seed = new_server_seed()
            opening = wallet.OpenWallet(player_id, seed, registered_at)
            events = wallet.decide_open_wallet(current, opening, now=clock.now())
            credit_id = credit_event_id(player_id, f"starter:{player_id}")
            uow.append(wallet_stream(player_id), version, events, event_ids=[None, credit_id])
            store.save_seed(uow.conn, self.schema, player_id, seed)
            state, deck_version = self._decks(uow, player_id)
            opened = current
            for e in events:
                opened = wallet.evolve(opened, e)
            assert opened is not None
            starter = decks.decide_starter(state, starter_deck_id(player_id), opened.collection)
            uow.append(decks_stream(player_id), deck_version, starter)

        self._execute(work, conn=conn)

    def credit(
        self,
        paid: PlayerCredit | PlayerShards,
        *,
        conn: Conn | None = None,
        tx: Tx | None = None,
        opened_only: bool = False,
    ) -> RecordedEvent:
        """Pay one credit (also before the account's opening, unless ``opened_only``: then
        ``WalletNotFound``). Raises ``AlreadyCredited`` (its source was paid), ``InvalidAmount``,
        ``Busy``, ``DailyLimitReached`` (a match's credit once the player's paying matches of the UTC
        day are used up: what ``paying_matches_left`` shows)."""
        player_id = paid.player_id
        event_id = credit_event_id(player_id, paid.credit.source)

        def work(uow: UnitOfWork) -> RecordedEvent:
            current, version = self._wallet(uow, player_id)
            if opened_only and (current is None or not current.opened):
                raise WalletNotFound("this player has no wallet yet")
            now = clock.now()
            self._check_daily_limit(uow, paid, now)
            events = _credit_events(current, paid, now)
            try:
                stream = wallet_stream(player_id)
                (recorded,) = uow.append(stream, version, events, event_ids=[event_id], occurred_at=now)
            except DuplicateEventError:
                raise AlreadyCredited(f"{paid.credit.source} was paid already") from None
            return recorded

        return self._execute(work, tx, conn)

    def _check_daily_limit(self, uow: UnitOfWork, paid: PlayerCredit | PlayerShards, now: datetime) -> None:
        """Refuse a match's credit beyond the day's paying matches, counted from the ledger as the
        wallet's ``paying_matches_left`` counts them (the same credit paid already is left out of the
        count, so a redelivery is ``AlreadyCredited``, not refused)."""
        today = datetime.combine(now.astimezone(UTC).date(), time(), UTC)
        paid_today = store.coin_matches_since(
            uow.conn, self.schema, paid.player_id, today, paid.credit.source
        )
        if not within_daily_limit(paid, paid_today):
            raise DailyLimitReached(
                f"{paid.credit.source}: {paid_today} matches paid {paid.player_id} today, the daily limit",
                {"paying_matches_left": 0},
            )

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

        def work(uow: UnitOfWork) -> PackOpened:
            seed = store.lock_seed(uow.conn, self.schema, player_id)
            if seed is None:
                raise WalletNotFound("this player has no wallet yet")
            current, version = self._wallet(uow, player_id)
            next_seed = new_server_seed()
            try:
                opening = wallet.OpenPack(seed, next_seed, client_seed)
                events = wallet.decide_open_pack(current, opening, player_id=player_id)
            except ValueError:
                raise StaleRead("the seed read does not open this wallet's next pack yet") from None
            uow.append(wallet_stream(player_id), version, events)
            store.save_seed(uow.conn, self.schema, player_id, next_seed)
            self._refresh_active_deck(uow, player_id, wallet.evolve(current, events[0]).collection)
            (opened,) = events
            assert isinstance(opened, PackOpened)
            return opened

        return self._execute(work, tx)

    def _card_change(
        self, player_id: str, decide: Callable[[wallet.Wallet | None], list[Event]], tx: Tx | None
    ) -> tuple[Event, wallet.Wallet]:
        def work(uow: UnitOfWork) -> tuple[Event, wallet.Wallet]:
            current, version = self._wallet(uow, player_id)
            events = decide(current)
            uow.append(wallet_stream(player_id), version, events)
            after = wallet.evolve(current, events[0])
            self._refresh_active_deck(uow, player_id, after.collection)
            return events[0], after

        return self._execute(work, tx)

    def craft(self, player_id: str, card_id: str, *, tx: Tx | None = None) -> tuple[Event, wallet.Wallet]:
        """The ``CardCrafted`` and the wallet after it. Raises ``WalletNotFound``, ``UnknownCard``,
        ``CraftBeyondLimit``, ``InsufficientDust``."""
        cmd = wallet.Craft(card_id)
        return self._card_change(player_id, lambda w: wallet.decide_craft(w, cmd, player_id=player_id), tx)

    def disenchant(
        self, player_id: str, card_id: str, *, tx: Tx | None = None
    ) -> tuple[Event, wallet.Wallet]:
        """The ``CardDisenchanted`` and the wallet after it. Raises ``WalletNotFound``,
        ``UnknownCard``, ``CardNotOwned``; republishes the active deck when it loses its legality."""
        cmd = wallet.Disenchant(card_id)
        return self._card_change(
            player_id, lambda w: wallet.decide_disenchant(w, cmd, player_id=player_id), tx
        )

    # -- decks ------------------------------------------------------------------------------------

    def _deck_command(
        self,
        player_id: str,
        decide: Callable[[decks.Decks, Any], list[Event]],
        tx: Tx | None,
        show: str | None = None,
    ) -> dict[str, Any] | None:
        """Decide and append; then, in the same unit of work, the deck ``show`` as its player sees
        it now (so the answer never comes from a second connection that cannot see the change)."""

        def work(uow: UnitOfWork) -> dict[str, Any] | None:
            current = self._opened_wallet(uow, player_id)
            state, version = self._decks(uow, player_id)
            events = decide(state, current.collection)
            if events:
                uow.append(decks_stream(player_id), version, events)
            return None if show is None else self._deck_view(uow.conn, player_id, show)

        return self._execute(work, tx)

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
        """The wallet's balances, next pack, and how many matches may still pay coins today (UTC; the
        daily coin limit, ``libs.fairplay``). Raises ``WalletNotFound`` until the account's wallet is
        opened, as every command does: a reward credited before it (a log-in's, heard first) shows
        with the opening."""
        today = datetime.combine(clock.now().astimezone(UTC).date(), time(), UTC)
        with self.pool.connection() as c:
            found = store.wallet(c, self.schema, player_id)
            if found is None or found["next_pack"]["commitment"] is None:
                raise WalletNotFound("this player has no wallet yet")
            paid = store.coin_matches_since(c, self.schema, player_id, today)
        return {**found, "paying_matches_left": max(0, fairplay.DAILY_COIN_MATCHES - paid)}

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
