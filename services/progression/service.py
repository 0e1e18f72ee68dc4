"""The progression service object: commands in, events appended with their read models, views out.

Every command runs through the one command path (``libs.eventstore.Repository.execute``), in one
transaction: read the stream, decide with the pure domain, append at the expected version, apply
the read models. A concurrent append to the same stream retries the command from a fresh read (a
savepoint of the consumer's transaction for the consumers), a bounded number of times. Season
passes are long streams: a snapshot every 50 events stands in for the events it covers.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from libs import clock, codec
from libs.eventstore import (
    EventStore,
    EventTypes,
    Fold,
    RecordedEvent,
    Repository,
    Snapshots,
    Transaction,
    UnitOfWork,
)
from services.progression import projections
from services.progression.domain import (
    RecordMatch,
    RecordVisit,
    RewardAlreadyGranted,
    SwapQuest,
    quests,
    season_of,
    season_pass,
    streak,
    track,
)
from services.progression.events import CATALOG, EVENT_TYPES, Event, QuestCompleted

log = logging.getLogger(__name__)
T = TypeVar("T")
Conn = psycopg.Connection[Any]


# Through the one codec (``libs.codec``), in the form the shape-1 snapshots were written by hand (a
# pass now keeps its ``version`` too; one stored without it loads with 0). A pass's ``version`` is
# its stream's: ``Repository.get`` sets it from the snapshot's. The line's ``matches`` grows with
# every line match: a snapshot every 50 events stands in for them.
PASS_SNAPSHOTS = Snapshots(1, codec.encode, codec.decoder(season_pass.SeasonPass), every=50)
LINE_SNAPSHOTS = Snapshots(1, codec.encode, codec.decoder(track.LineProgress), every=50)


_evolving = EventTypes(EVENT_TYPES.values()).evolving  # progression's streams' typed events


def draw_seed() -> int:
    return secrets.randbits(63)


class ProgressionService:
    """Quests, streak and pass of every player, in ``schema``."""

    def __init__(self, pool: ConnectionPool, schema: str, *, seeds: Callable[[], int] = draw_seed) -> None:
        self.pool = pool
        self.schema = schema
        self.store = EventStore(pool, schema)
        self.repository = Repository(self.store, project=self._project, declared=CATALOG.events)
        self.seeds = seeds

    # -- the event store and the read models ---------------------------------------------------

    def _project(self, conn: Conn, recorded: Sequence[RecordedEvent]) -> None:
        projections.apply_appended(conn, self.schema, list(recorded))

    def _append(
        self,
        uow: UnitOfWork | Conn,
        stream: str,
        expected: int,
        events: list[Event],
    ) -> None:
        """Append ``events`` at ``expected`` and apply them to the read models, in one round trip (a
        pipeline). Raises ``ConcurrencyError`` and ``RewardAlreadyGranted`` (a reward id recorded
        already: the rewards table's unique key); the transaction is then failed."""
        if isinstance(uow, psycopg.Connection):
            uow = self.repository.unit_of_work(uow)
        try:
            uow.append(stream, expected, events, occurred_at=clock.now(), pipelined=True)
        except pg_errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "rewards_pkey":
                raise RewardAlreadyGranted(str(exc.diag.message_detail)) from None
            raise

    def _execute(
        self,
        command: Callable[[UnitOfWork], T],
        transaction: Transaction | None = None,
        conn: Conn | None = None,
    ) -> T:
        return self.repository.execute(command, transaction=transaction, conn=conn)

    # -- quests --------------------------------------------------------------------------------

    def _quest_day(self, uow: UnitOfWork, player: str, day: dt.date) -> tuple[quests.QuestDay, list[Event]]:
        """The player's quests of ``day``, with the day's offer drawn now (a seed drawn and written)
        if none was made: (the state, offer included; the offer's events, still to append)."""
        iso = day.isoformat()
        fold = Fold(lambda: quests.QuestDay(player, iso), _evolving(quests.evolve))
        state = self.repository.get(uow, quests.quests_stream(player, iso), fold).state
        offer = quests.offer(state, self.seeds())
        for e in offer:
            quests.evolve(state, e)
        return state, offer

    def _append_quests(
        self,
        uow: UnitOfWork,
        state: quests.QuestDay,
        offer: list[Event],
        events: list[Event],
    ) -> None:
        """Append a pending offer and ``events`` (decided on ``state``) to the day's stream, at once."""
        stream = quests.quests_stream(state.player_id, state.day)
        self._append(uow, stream, state.version - len(offer), offer + events)

    def offer_quests(
        self, player: str, day: dt.date, transaction: Transaction | None = None
    ) -> quests.QuestDay:
        """The day's quests of ``player`` (offered on first look)."""

        def run(uow: UnitOfWork) -> quests.QuestDay:
            state, offer = self._quest_day(uow, player, day)
            self._append_quests(uow, state, offer, [])
            return state

        return self._execute(run, transaction)

    def swap_quest(self, command: SwapQuest, transaction: Transaction | None = None) -> quests.QuestDay:
        """Raises ``QuestNotOffered``, ``QuestAlreadyCompleted``, ``SwapAlreadyUsed``; nothing is
        written then (not even the day's offer)."""

        def run(uow: UnitOfWork) -> quests.QuestDay:
            state, offer = self._quest_day(uow, command.player_id, command.day)
            events = quests.swap(state, command.quest_id, self.seeds())
            self._append_quests(uow, state, offer, events)
            for e in events:
                quests.evolve(state, e)
            return state

        return self._execute(run, transaction)

    # -- matches -------------------------------------------------------------------------------

    def record_match(self, command: RecordMatch, conn: Conn) -> None:
        """Move the quests and passes of the players an ended match counts for (its verdict), and
        for a line match the line progress of its players (arena XP, training battles)."""
        match = command.match
        quest_players, track_players = match.quest_players(), match.track_players()
        if not quest_players and not track_players:
            return

        def run(uow: UnitOfWork) -> None:
            for player in quest_players:
                self._match_of(uow, player, match)
            for player in track_players:
                self._line_of(uow, player, match)

        self._execute(run, conn=conn)

    def _line_of(self, uow: UnitOfWork, player: str, match: Any) -> None:
        stream = track.track_stream(match.progress.track, player)
        fold = Fold(lambda: track.LineProgress(player), _evolving(track.evolve), snapshots=LINE_SNAPSHOTS)
        loaded = self.repository.get(uow, stream, fold)
        self._append(uow, stream, loaded.version, track.record(loaded.state, match))

    def _match_of(self, uow: UnitOfWork, player: str, match: Any) -> None:
        state, offer = self._quest_day(uow, player, match.day)
        events = quests.progress(state, match)
        self._append_quests(uow, state, offer, events)
        grants = [(match.xp_for(player), {"match_id": match.match_id})]
        grants += [
            (e.xp, {"quest_id": e.quest_id, "day": e.day}) for e in events if isinstance(e, QuestCompleted)
        ]
        self._earn_xp(uow, player, match.day, grants)

    def _earn_xp(
        self,
        uow: UnitOfWork,
        player: str,
        day: dt.date,
        grants: list[tuple[int, dict[str, str]]],
    ) -> None:
        season = season_of(day)
        if season is None:
            log.warning("no season holds %s: %s's XP counts toward nothing", day, player)
            return
        stream = season_pass.pass_stream(player, season.id)
        fold = Fold(
            lambda: season_pass.SeasonPass(player, season.id),
            _evolving(season_pass.evolve),
            snapshots=PASS_SNAPSHOTS,
        )
        loaded = self.repository.get(uow, stream, fold)
        state = loaded.state
        state.version = loaded.version  # a snapshot keeps the stream's version beside the state
        events: list[Event] = []
        for xp, source in grants:
            new = season_pass.earn(state, season, xp, source)
            for e in new:
                season_pass.evolve(state, e)
            events += new
        self._append(uow, stream, state.version - len(events), events)

    # -- the streak ----------------------------------------------------------------------------

    def record_visit(self, command: RecordVisit, conn: Conn) -> None:
        """A log-in on ``command.day``: the first of the day keeps the streak and pays its reward."""
        stream = streak.streak_stream(command.player_id)
        fold = Fold(lambda: streak.Streak(command.player_id), _evolving(streak.evolve))

        def run(uow: UnitOfWork) -> None:
            state = self.repository.get(uow, stream, fold).state
            self._append(uow, stream, state.version, streak.visit(state, command.day))

        self._execute(run, conn=conn)
