"""The match service object: one method per use case, the only thing ``api``, ``tasks`` and
``consumers`` call (built once per process by ``root.build``). Each method hands over to the part that
does the job:

| module | what |
|---|---|
| ``loading`` | the fold cache, loads, the stored events, the replay check (``self.loader``) |
| ``writing`` | the (pipelined) append of a decision at the version it was decided on, index, NOTIFY |
| ``commands`` | player commands: ``execute`` owns cache, pipelined append, after-commit dispatch |
| ``creation`` | starting a match, rejecting a match request |
| ``system`` | presence (``touch``), timeouts, disconnections, forfeits (``tick``), ``follow_up`` |
| ``bot``, ``sweep`` | the practice bot's moves; the beat's sweep of everything due |
| ``waiting`` | long polls |
| ``dispatch`` | deadlines and bot moves sent to the scheduler after a commit |
| ``presence``, ``errors`` | request recording (throttled); what the service raises |
| ``decks`` | players' active decks as economy publishes them (practice) |
| ``limits`` | per-player caps: one unfinished practice match, practice rate, open long-polls |
| ``vetting`` | a MatchRequested checked against registered players and active decks |

(``publication`` is not called by the service: the relay follows it, declared in ``root.py``.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs.eventstore import RecordedEvent
from libs.rules import STARTER_DECK
from services.match import decks, domain, store, vetting
from services.match.bot import BotPlayer
from services.match.commands import PlayerCommands
from services.match.creation import MatchCreation
from services.match.dispatch import Dispatcher
from services.match.domain import Match
from services.match.errors import IllegalActiveDeck, MatchExists, MatchNotFound, VersionConflict
from services.match.limits import LongPollSlots, MatchLimits, admit_practice
from services.match.loading import MatchLoader, as_rows, stream_of
from services.match.notify import MatchNotifier
from services.match.presence import Presence
from services.match.scheduling import Scheduler
from services.match.sweep import sweep
from services.match.system import SystemCommands
from services.match.waiting import EventWaiter, Polled
from services.match.writing import MatchWriter, Outcome

__all__ = [
    "MatchExists",
    "MatchNotFound",
    "MatchService",
    "Outcome",
    "VersionConflict",
    "as_rows",
    "stream_of",
]


class MatchService:
    def __init__(
        self,
        pool: ConnectionPool,
        schema: str,
        scheduler: Scheduler | None = None,
        notifier: MatchNotifier | None = None,
        limits: MatchLimits | None = None,
        bot_key: bytes | None = None,
    ) -> None:
        """``bot_key``: the practice bot's server key (``bot.bot_key`` of the token secret)."""
        self.pool = pool
        self.limits = limits or MatchLimits()
        self.long_polls = LongPollSlots(self.limits.long_polls_per_player)
        self.schema = schema
        self.scheduler = scheduler
        self.notifier = notifier
        self.loader = MatchLoader(pool, schema)
        self.events = self.loader.events
        presence = Presence(schema)
        writer = MatchWriter(pool, schema, self.loader)
        self.dispatcher = Dispatcher(scheduler)
        self.commands = PlayerCommands(self.loader, writer, presence, self.dispatcher)
        self.creation = MatchCreation(writer, self.dispatcher)
        self.system = SystemCommands(schema, self.loader, writer, presence, self.dispatcher)
        self.bot = BotPlayer(self.system, bot_key)
        self.waiter = EventWaiter(self.loader, self.system, presence, notifier, self.long_polls)

    # -- queries ---------------------------------------------------------------------------------

    def load(self, match_id: str, conn: psycopg.Connection[Any] | None = None) -> Match | None:
        """The match as stored now (None when there is no such stream)."""
        return self.loader.load(match_id, conn)

    def load_for(self, match_id: str, player: str, conn: psycopg.Connection[Any] | None = None) -> Match:
        """The match if ``player`` is one of its players; raises ``MatchNotFound`` otherwise."""
        return self.loader.load_for(match_id, player, conn)

    def read_events(self, match_id: str, after: int = 0) -> list[RecordedEvent]:
        """The match's stored events after version ``after``."""
        return self.loader.read_events(match_id, after)

    def verify_replay(self, match_id: str) -> list[str]:
        """Problems found replaying the whole stream against its stored state hashes (empty: none)."""
        return self.loader.verify_replay(match_id)

    def matches_of(self, player: str, active_only: bool) -> list[dict[str, Any]]:
        """The player's matches, newest first (at most 50)."""
        with self.loader.reading() as conn:
            return store.matches_of(conn, self.schema, player, active_only)

    def wait_for_events(self, match_id: str, player: str, after: int, wait: float) -> Polled:
        """Events after version ``after`` (waiting up to ``wait`` seconds for one), with the match as
        they leave it. Raises ``MatchNotFound``, and ``TooManyRequests`` when the player holds every long-poll
        slot of this process."""
        return self.waiter.wait_for_events(match_id, player, after, wait)

    # -- player commands, creation -----------------------------------------------------------------

    def execute(
        self,
        match_id: str,
        player: str,
        command: dict[str, Any],
        expected: int | None,
        *,
        transaction: Callable[..., AbstractContextManager[psycopg.Connection[Any]]],
        in_outer_transaction: bool = False,
        after_commit: Callable[[Callable[[], None]], None],
    ) -> Outcome:
        """A player's command, decided, appended in ``transaction`` and dispatched through
        ``after_commit`` (see ``PlayerCommands.execute``). Raises ``MatchNotFound``,
        ``VersionConflict`` and ``RuleViolation``; nothing is written then."""
        return self.commands.execute(
            match_id,
            player,
            command,
            expected,
            transaction=transaction,
            in_outer_transaction=in_outer_transaction,
            after_commit=after_commit,
        )

    def player_command(
        self,
        match_id: str,
        player: str,
        command: Mapping[str, Any],
        expected_version: int | None,
        conn: psycopg.Connection[Any],
        *,
        loaded: Match | None = None,
    ) -> Outcome:
        """A player's command in the caller's transaction (see ``PlayerCommands.player_command``).
        Raises ``MatchNotFound``, ``VersionConflict`` and ``RuleViolation``."""
        return self.commands.player_command(match_id, player, command, expected_version, conn, loaded=loaded)

    def create_match(
        self,
        mode: str,
        players: Sequence[Mapping[str, Any]],
        *,
        bot: str | None = None,
        request_id: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        match_id: str | None = None,
        conn: psycopg.Connection[Any] | None = None,
    ) -> Outcome:
        """Start a match (raises ``RuleViolation`` for an illegal setup, ``MatchExists`` for a taken
        id). With ``conn`` the caller commits and then calls ``dispatch``."""
        return self.creation.create_match(
            mode,
            players,
            bot=bot,
            request_id=request_id,
            options=options,
            seed=seed,
            match_id=match_id,
            conn=conn,
        )

    def admit_practice(self, player: str, conn: psycopg.Connection[Any]) -> None:
        """In the transaction that will create it: may ``player`` start a practice match now?
        Raises ``PracticeInProgress`` (an unfinished one) or ``TooManyRequests`` (the rate)."""
        admit_practice(conn, self.schema, player, self.limits)

    def reject_request(
        self, match_id: str, events: list[domain.Event], conn: psycopg.Connection[Any]
    ) -> bool:
        """Store a MatchRequestRejected stream; False when the request was already handled."""
        return self.creation.reject_request(match_id, events, conn)

    def dispatch(self, outcome: Outcome, *, bot: bool = True) -> None:
        """After the commit: schedule the new deadline, and the bot when the match waits for it."""
        self.dispatcher.dispatch(outcome, bot=bot)

    # -- system: presence, timers, bot -------------------------------------------------------------

    def touch(self, match_id: str, player: str) -> Match:
        """A request of ``player`` to the match: record it, reconnect them if marked disconnected.
        Raises ``MatchNotFound``."""
        return self.system.touch(match_id, player)

    def tick(self, match_id: str) -> int:
        """Apply every system command due now (presence, forfeits, timeouts); returns how many."""
        return self.system.tick(match_id)

    def follow_up(self, match_id: str) -> None:
        """Schedule the match's deadline as it is now (after a deadline task ran)."""
        self.system.follow_up(match_id)

    def bot_turn(self, match_id: str) -> int:
        """Play the bot's moves while the match waits for it; returns how many."""
        return self.bot.bot_turn(match_id)

    def sweep(self, limit: int = 500) -> int:
        """Enforce whatever is due in every running match (the beat task); returns matches visited."""
        return sweep(self.loader, self.system, self.bot, self.schema, limit)

    # -- practice decks (economy's ActiveDeckChanged) --------------------------------------------

    def keep_active_deck(self, data: dict[str, Any], version: int, conn: psycopg.Connection[Any]) -> None:
        """Record a player's active deck as economy published it (in the consumer's transaction)."""
        decks.keep(conn, self.schema, data, version)

    # -- match requests (accounts' PlayerRegistered, economy's ActiveDeckChanged) -----------------

    def keep_player(self, player_id: str, conn: psycopg.Connection[Any]) -> None:
        """Record a player accounts registered (in the consumer's transaction)."""
        vetting.keep_player(conn, self.schema, player_id)

    def request_mismatch(
        self, players: Sequence[Mapping[str, Any]], conn: psycopg.Connection[Any]
    ) -> tuple[str, str, Any] | None:
        """Why a well-formed MatchRequested's players disagree with the players accounts registered
        and the active decks economy published (reason, message, details), or None."""
        return vetting.request_mismatch(conn, self.schema, players)

    def practice_deck(self, player: str) -> list[str]:
        """The player's active deck as economy last published it, the starter deck when none was.

        Raises ``IllegalActiveDeck`` (with every problem) when that deck is not legal now."""
        with self.pool.connection() as conn:
            found = decks.active_deck(conn, self.schema, player)
        if found is None:
            return list(STARTER_DECK)
        if not found.legal:
            raise IllegalActiveDeck(found.problems)
        return found.cards
