"""System commands: what the service decides by itself (reconnections on a request, disconnections,
forfeits, timeouts), each on a fresh read and decided again when it loses a race (the one command
path of ``libs.eventstore``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import psycopg

from libs import clock
from libs.eventstore import ATTEMPTS, TooManyConflicts, UnitOfWork
from libs.games import IllegalCommand
from services.match import domain, store
from services.match.domain import Decision, Match
from services.match.presence import Presence
from services.match.repository import MatchRepository, Outcome
from services.match.scheduling import Dispatcher

log = logging.getLogger(__name__)

MAX_TICK_STEPS = 8

Conn = psycopg.Connection[Any]
Chooser = Callable[[Match], dict[str, Any] | None]


class SystemCommands:
    def __init__(self, matches: MatchRepository, presence: Presence, dispatcher: Dispatcher) -> None:
        self.schema = matches.schema
        self.matches = matches
        self.presence = presence
        self.dispatcher = dispatcher

    def run(self, match_id: str, choose: Chooser, *, bot: bool = True) -> Outcome | None:
        """Apply the system command ``choose`` picks on a fresh read (None: nothing to do), retried on
        a lost race; dispatch its timers (and the bot unless ``bot`` is False). Returns None when
        nothing was applied: no command, an ended match, a refusal (logged) or too many races."""

        def decide(m: Match, conn: Conn) -> Decision | None:
            command = choose(m)
            return None if command is None else domain.decide_match(m, command)

        return self._apply(match_id, decide, bot=bot)

    def _apply(
        self, match_id: str, decide: Callable[[Match, Conn], Decision | None], *, bot: bool = True
    ) -> Outcome | None:
        """Append what ``decide`` decides on a fresh read of the running match (see ``run``), through
        the one command path (``MatchRepository.execute``: decided again after a lost race). Every
        read is on the unit of work's connection: a Celery child's pool holds two (the sweep's
        claims and this), so a second borrowed connection here could wait forever."""

        def command(uow: UnitOfWork) -> Outcome | None:
            m = self.matches.load(match_id, uow.conn)  # in the unit of work: no second pooled connection
            if m is None or m.ended:
                return None
            decision = decide(m, uow.conn)
            if decision is None:
                return None
            return self.matches.record(uow, m, match_id, decision)

        try:
            outcome = self.matches.execute(command)
        except IllegalCommand as exc:
            log.error("match %s: a system command was refused: %s", match_id, exc)
            return None
        except TooManyConflicts:
            log.warning("match %s: gave up a system command after %d races", match_id, ATTEMPTS)
            return None
        if outcome is None:
            return None
        self.dispatcher.dispatch(outcome, bot=bot)
        return outcome

    def touch(self, match_id: str, player: str) -> Match:
        """A request of ``player`` to the match: record it, reconnect them if marked disconnected.
        Raises ``MatchNotFound`` unless ``player`` plays in the match."""
        with self.matches.reading() as conn:
            m = self.matches.load_for(match_id, player, conn)
            if not m.ended:
                self.presence.record(conn, match_id, player, relaxed=True)
        if player in m.disconnected and not m.ended:
            self.run(
                match_id,
                lambda x: {"type": "reconnect", "player": player} if player in x.disconnected else None,
            )
            m = self.matches.load_for(match_id, player)
        return m

    def tick(self, match_id: str) -> int:
        """Apply every system command due now (presence, forfeits, timeouts) in one append
        (``domain.decide_due``); returns how many. After an outage a match may owe three at once
        (both players silent, the turn over): one transaction instead of three."""
        now = clock.now()
        applied = 0

        def decide(m: Match, conn: Conn) -> Decision | None:
            nonlocal applied
            seen = store.last_seen(conn, self.schema, m.match_id)
            due = domain.decide_due(m, now, seen, MAX_TICK_STEPS)
            if due is None:
                return None
            decision, commands = due
            applied = len(commands)
            return decision

        return applied if self._apply(match_id, decide) is not None else 0

    def follow_up(self, match_id: str) -> None:
        """Schedule the match's deadline as it is now (after a deadline task ran: senders skip a
        later deadline while an earlier task is still to come, counting on this)."""
        self.dispatcher.follow_up(match_id, self.matches.load(match_id))
