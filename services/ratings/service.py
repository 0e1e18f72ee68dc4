"""The ratings service: rate counted ranked matches, keep display names (never usernames), answer reads.

``record_match`` runs in the consumer's transaction (the inbox row of the ``MatchEnded`` commits
with it), through the one command path (``libs.eventstore.Repository``): it folds both players'
streams, decides the two ``RatingChanged`` and appends them at the versions it read (in player-id
order, so two matches of the same players never deadlock), and updates the read models in the same
transaction. A concurrent append retries it from a fresh read (a savepoint of the consumer's
transaction); a redelivered ``MatchEnded`` finds the match already rated.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock, fairplay
from libs.contracts import MatchCreated, MatchEnded, default_display_name
from libs.eventstore import EventStore, EventTypes, Fold, RecordedEvent, Repository, UnitOfWork
from libs.web.cursors import Cursor, InvalidCursor
from services.ratings import domain, events, projections, store
from services.ratings.upcasting import UPCASTERS

log = logging.getLogger(__name__)

MAX_PAGE = 100


class PlayerNotFound(Exception):
    """No rating and no account known for this player id."""


class NeverStarted(Exception):
    """A ranked result for a match ratings never saw start (no ``MatchCreated`` of that match with
    those players): never rated; its consumer parks it as a dead letter."""


class BadCursor(Exception):
    """A paging cursor that does not match its documented pattern (any that does is a position)."""


@dataclass(frozen=True)
class Page:
    items: list[dict[str, Any]]
    next: str | None


HISTORY_CURSOR = Cursor(">i", "a cursor from the previous page's `next` (a position in your history)")
LEADERBOARD_CURSOR = Cursor(">i16s", "a cursor from the previous page's `next` (a rating and a player)")


def _history_cursor(cursor: str) -> int:
    try:
        (version,) = HISTORY_CURSOR.decode(cursor)
    except InvalidCursor:
        raise BadCursor(cursor) from None
    return int(version)


def _leaderboard_cursor(cursor: str) -> tuple[int, str]:
    try:
        rating, player = LEADERBOARD_CURSOR.decode(cursor)
    except InvalidCursor:
        raise BadCursor(cursor) from None
    return int(rating), str(uuid.UUID(bytes=player))


def _public(row: Mapping[str, Any], game: str = domain.DEFAULT_GAME) -> dict[str, Any]:
    start = domain.start(row["player_id"], game)
    rating = start.rating if row.get("rating") is None else row["rating"]
    tier = replace(start, rating=rating).tier
    return {
        "player_id": row["player_id"],
        "display_name": row.get("display_name") or default_display_name(row["player_id"]),
        "rating": rating,
        "tier": row.get("tier") or tier,
        "highest_tier": row.get("highest_tier") or tier,
        "games": (row.get("wins") or 0) + (row.get("losses") or 0),
    }


FLOOR_MESSAGE = "the tier floor held your rating"


def _explain(reason: str) -> str:
    """The words of a history row's reason: the fair-play rules', or the floor's."""
    return FLOOR_MESSAGE if reason == domain.FLOOR else fairplay.explain(reason)


# A rating stream's events, typed; a type this version does not know leaves the rating as it is.
_evolve = EventTypes(events.CATALOG.events).evolving(domain.evolve, skip_unknown=True)


class RatingsService:
    def __init__(self, pool: ConnectionPool, schema: str) -> None:
        self.pool = pool
        self.schema = schema
        self.events = EventStore(pool, schema, UPCASTERS)
        self.repository = Repository(self.events, project=self._project, declared=events.CATALOG.events)

    # -- consuming -----------------------------------------------------------------------------

    def _project(self, conn: psycopg.Connection[Any], recorded: Sequence[RecordedEvent]) -> None:
        for r in recorded:
            projections.apply(conn, self.schema, r)

    def load(
        self, player_id: str, conn: psycopg.Connection[Any] | UnitOfWork, game: str = domain.DEFAULT_GAME
    ) -> domain.PlayerRating:
        """The player's state on the ladder of ``game`` (Arcana's rating, the line's MMR)."""
        fold = Fold(lambda: domain.start(player_id, game), _evolve)
        return self.repository.get(conn, domain.rating_stream(player_id, game), fold).state

    def record_match(
        self, match_ended: MatchEnded, conn: psycopg.Connection[Any]
    ) -> list[domain.RatingEvent]:
        """Rate a ranked ``MatchEnded`` as its fair-play verdict says: a ``RatingChanged`` for each
        player whose rating moves, a ``RatingUnchanged`` (with the reason) for each one whose rating
        it does not move; returns what it appended (nothing for a match already rated or not ranked).
        Each game's ladder moves apart: a line match moves the line's MMR streams only."""
        result = domain.ranked_result(match_ended)
        still = domain.unmoved(match_ended)
        if result is None and not still:
            return []

        ids = sorted({w.player_id for w in still} | ({result.winner, result.loser} if result else set()))
        game = match_ended.game
        if store.started_players(conn, self.schema, match_ended.match_id) != sorted(match_ended.players):
            raise NeverStarted(f"ranked match {match_ended.match_id} of {ids} never started here")

        def rate(uow: UnitOfWork) -> list[domain.RatingEvent]:
            players = {p: self.load(p, uow, game) for p in ids}
            try:
                changes: list[domain.RatingEvent] = [domain.keep(players[w.player_id], w) for w in still]
                if result is not None:
                    changes += domain.rate(result, players[result.winner], players[result.loser])
            except domain.AlreadyRated:
                log.info("match %s already rated", match_ended.match_id)
                return []
            now = clock.now()
            for change in sorted(changes, key=lambda c: c.player_id):
                stream = domain.rating_stream(change.player_id, game)
                expected = players[change.player_id].version
                uow.append(stream, expected, [change], occurred_at=now)
            return changes

        return self.repository.execute(rate, conn=conn)

    def match_started(self, created: MatchCreated, conn: psycopg.Connection[Any]) -> None:
        """Remember a ranked match between humans as it starts (``MatchCreated``): only its result
        is ever rated (``record_match``). Any other match is not kept."""
        if created.mode == domain.RANKED and not created.bot and not created.bots:
            store.save_started(conn, self.schema, created.match_id, list(created.players), clock.now())

    def remember_display_name(
        self, player_id: str, display_name: str, version: int, conn: psycopg.Connection[Any]
    ) -> None:
        """The name others see of ``player_id`` (the default one from accounts' ``PlayerRegistered``,
        a chosen one from ``DisplayNameChanged``) at ``version`` of the player's stream. A username
        is never kept."""
        if player_id and display_name:
            store.save_display_name(conn, self.schema, player_id, display_name, version)

    # -- reading -------------------------------------------------------------------------------

    def mine(self, player_id: str, game: str = domain.DEFAULT_GAME) -> dict[str, Any]:
        """The player's own rating on the ladder of ``game``: rating, tiers, games, wins, losses (900
        bronze before any Arcana game; the line's MMR 1,000, tiers ``none``)."""
        with self.pool.connection() as conn:
            row = store.rating_row(conn, self.schema, player_id, game) or {"player_id": player_id}
        return {**_public(row, game), "wins": row.get("wins") or 0, "losses": row.get("losses") or 0}

    def public(self, player_id: str, game: str = domain.DEFAULT_GAME) -> dict[str, Any]:
        """Another player's public rating on the ladder of ``game``. Raises ``PlayerNotFound``."""
        try:
            player_id = str(uuid.UUID(player_id))
        except ValueError:
            raise PlayerNotFound(player_id) from None
        with self.pool.connection() as conn:
            row = store.rating_row(conn, self.schema, player_id, game)
        if row is None:
            raise PlayerNotFound(player_id)
        return _public(row, game)

    def history(self, player_id: str, limit: int, after: str | None, game: str = domain.DEFAULT_GAME) -> Page:
        """The player's ranked matches of ``game``, newest first: what each moved, or why it moved
        nothing (the reason and its words). Raises ``BadCursor``."""
        before = _history_cursor(after) if after is not None else None
        with self.pool.connection() as conn:
            rows = store.history_page(conn, self.schema, player_id, before, limit, game)
        more, rows = len(rows) > limit, rows[:limit]
        for row in rows:
            row["message"] = _explain(row["reason"]) if row["reason"] else None
        return Page(rows, HISTORY_CURSOR.encode(rows[-1]["version"]) if more else None)

    def leaderboard(self, limit: int, after: str | None, game: str = domain.DEFAULT_GAME) -> Page:
        """Players on the ladder of ``game`` by rating (ties by player id), with rank (equal ratings
        share it) and display name. Raises ``BadCursor``."""
        cursor = _leaderboard_cursor(after) if after is not None else None
        with self.pool.connection() as conn:
            rows = store.leaderboard_page(conn, self.schema, cursor, limit, game)
            more, rows = len(rows) > limit, rows[:limit]
            if rows:
                first = rows[0]
                higher, before = store.position_of(
                    conn, self.schema, first["rating"], first["player_id"], game
                )
        items: list[dict[str, Any]] = []
        for i, row in enumerate(rows):
            same = items and items[-1]["rating"] == row["rating"]
            rank = items[-1]["rank"] if same else (higher + 1 if i == 0 else before + i + 1)
            items.append({**_public(row, game), "rank": rank})
        last = rows[-1] if rows else None
        return Page(
            items,
            LEADERBOARD_CURSOR.encode(last["rating"], uuid.UUID(last["player_id"]).bytes)
            if more and last
            else None,
        )
