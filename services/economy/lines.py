"""The line's collection and saved lines (stream ``line-<player>``, ``domain/welcome.py``: the game whose
offer's collection is a welcome set), run as the
economy's other commands: read the stream, decide, append at the version read (``Repository``),
the read models (``line_collection``, ``line_decks``) applied in the same transaction. Every
command needs the player's opened wallet (404 ``wallet_not_found`` before it). A line as shown
carries its legality against the collection now, the links it lights and the stats the fight will
use (the links baked in), so a player sees them before queueing.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import Fold, Repository, StreamCache, Transaction, UnitOfWork
from services.economy import store
from services.economy.domain import DeckNotFound, InvalidLine, entries, welcome
from services.economy.events import Event
from services.economy.upcasting import STORED

Conn = psycopg.Connection[Any]
T = TypeVar("T")


def line_stream(player_id: str) -> str:
    return f"{welcome.WELCOME_GAME}-{player_id}"


_evolve = STORED.evolving(welcome.evolve)


class Lines:
    """The line commands and reads of the economy service (``EconomyService.line``). ``execute``
    runs a unit of work as the service's one command path; ``opened_wallet`` raises
    ``WalletNotFound`` for a player without a wallet."""

    def __init__(
        self,
        pool: ConnectionPool,
        schema: str,
        repository: Repository,
        cache: StreamCache,
        execute: Callable[..., Any],
        opened_wallet: Callable[[UnitOfWork, str], Any],
    ) -> None:
        self.pool, self.schema = pool, schema
        self._repository, self._cache = repository, cache
        self._execute, self._opened_wallet = execute, opened_wallet

    def _command(
        self,
        player_id: str,
        decide: Callable[[welcome.LineBook], list[Event]],
        tx: Transaction | None,
        show: Callable[[Conn], T],
        conn: Conn | None = None,
    ) -> T:
        """Decide and append; then ``show`` in the same unit of work (it sees the change). With
        ``conn`` (a consumer's transaction) the wallet may not be opened yet."""

        def work(uow: UnitOfWork) -> T:
            if conn is None:
                self._opened_wallet(uow, player_id)
            fold = Fold(lambda: welcome.LineBook(player_id), _evolve, cache=self._cache)
            loaded = self._repository.get(uow, line_stream(player_id), fold)
            events = decide(loaded.state)
            if events:
                uow.append(line_stream(player_id), loaded.version, events)
            return show(uow.conn)

        result: T = self._execute(work, tx, conn)
        return result

    # -- commands -----------------------------------------------------------------------------------

    def claim_welcome(self, player_id: str, *, tx: Transaction | None = None) -> dict[str, Any]:
        """The welcome set, once; returns the collection. Raises ``WelcomeAlreadyClaimed``."""
        return self._command(
            player_id, welcome.decide_claim_welcome, tx, lambda c: self._collection(c, player_id)
        )

    def save(
        self,
        player_id: str,
        deck_id: str | None,
        name: str,
        cards: Sequence[str],
        *,
        tx: Transaction | None = None,
    ) -> dict[str, Any]:
        """Create (``deck_id`` None) or replace a line; returns it. Raises ``InvalidLine`` (every
        problem), ``DeckLimitReached``, ``DeckNotFound``."""
        new_id = deck_id or str(uuid.uuid4())
        cmd = welcome.SaveLine(new_id, name, tuple(cards))
        decide = welcome.decide_update if deck_id else welcome.decide_save
        return self._command(
            player_id, lambda s: decide(s, cmd), tx, lambda c: self._deck(c, player_id, new_id)
        )

    def delete(self, player_id: str, deck_id: str, *, tx: Transaction | None = None) -> None:
        """Raises ``DeckNotFound``, ``ActiveDeckUndeletable``."""
        self._command(player_id, lambda s: welcome.decide_delete(s, deck_id), tx, lambda c: None)

    def activate(self, player_id: str, deck_id: str, *, tx: Transaction | None = None) -> dict[str, Any]:
        """Make a line the active one (publishes ``ActiveDeckChanged``, game line); returns it.
        Raises ``DeckNotFound``, ``IllegalDeck``."""
        return self._command(
            player_id,
            lambda s: welcome.decide_activate(s, deck_id),
            tx,
            lambda c: self._deck(c, player_id, deck_id),
        )

    def enter_tournament(
        self, player_id: str, cards: Sequence[str], *, tx: Transaction | None = None
    ) -> dict[str, Any]:
        """Enter the game's tournament with cards of the collection; the match service seats the
        entry in a bracket. Raises ``InvalidEntry`` (every problem), ``AlreadyEntered``."""
        entry_id, at = str(uuid.uuid4()), clock.now().isoformat()
        self._command(player_id, lambda s: entries.decide_enter(s, entry_id, cards, at), tx, lambda c: None)
        return {"entry_id": entry_id, "game": welcome.WELCOME_GAME, "cards": list(cards), "entered_at": at}

    def close_entry(self, player_id: str, entry_id: str, tournament_id: str, place: int, conn: Conn) -> None:
        """The entry whose place was paid is over (nothing when it is not the open one)."""
        self._command(
            player_id,
            lambda s: entries.decide_close(s, entry_id, tournament_id, place),
            None,
            lambda c: None,
            conn,
        )

    # -- reads --------------------------------------------------------------------------------------

    def collection(self, player_id: str) -> dict[str, Any]:
        """The line cards the player owns, with the catalog's card, and whether the welcome set was
        claimed."""
        with self.pool.connection() as c:
            return self._collection(c, player_id)

    def decks(self, player_id: str) -> list[dict[str, Any]]:
        """The player's lines, each with its legality, links and baked stats."""
        with self.pool.connection() as c:
            return self._decks(c, player_id)

    def autofill(self, player_id: str) -> dict[str, Any]:
        """A proposed line of the player's collection (the game's ``Collection.autofill``) with its links
        and baked stats; nothing is written. Raises ``InvalidLine`` when the collection holds too few
        cards (or the game proposes none)."""
        with self.pool.connection() as c:
            owned = store.collection(c, self.schema, player_id, "line_collection")
        propose = welcome.WELCOME.autofill
        try:
            if propose is None:
                raise ValueError(f"{welcome.WELCOME_GAME} proposes no line")
            cards = list(propose(owned))
        except ValueError as e:
            raise InvalidLine(str(e), {"problems": [str(e)]}) from None
        return {"cards": cards, **welcome.links(cards)}

    def _collection(self, c: Conn, player_id: str) -> dict[str, Any]:
        owned = store.collection(c, self.schema, player_id, "line_collection")
        cards = [{"card_id": k, "copies": n, "card": welcome.WELCOME.cards.card(k)} for k, n in owned.items()]
        return {"cards": cards, "welcome_claimed": bool(owned)}

    def _decks(self, c: Conn, player_id: str) -> list[dict[str, Any]]:
        owned = store.collection(c, self.schema, player_id, "line_collection")
        found = store.line_decks(c, self.schema, player_id)
        for deck in found:
            problems = welcome.problems(deck["cards"], owned)
            deck.update(legal=not problems, problems=problems, **welcome.links(deck["cards"]))
        return found

    def _deck(self, c: Conn, player_id: str, deck_id: str) -> dict[str, Any]:
        for deck in self._decks(c, player_id):
            if deck["deck_id"] == deck_id:
                return deck
        raise DeckNotFound(f"no line {deck_id}")
