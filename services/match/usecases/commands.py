"""Player commands: decided on the cached (or freshly read) match, appended at the version they were
decided on, presence recorded in the same transaction, timers and the bot dispatched after the commit.

Player commands are never retried once they name a version: a concurrent append means the player
decided on a stale state (409 with the current version). Without one, a race lost to the opponent
(both mulligan at once) is decided again on a fresh read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from libs.eventstore import TooManyConflicts, UnitOfWork
from services.match import domain
from services.match.domain import Match
from services.match.errors import VersionConflict
from services.match.presence import Presence
from services.match.repository import MatchRepository, Outcome
from services.match.scheduling import Dispatcher
from services.match.usecases.replies import next_move, visible_events


class PlayerCommands:
    def __init__(self, matches: MatchRepository, presence: Presence, dispatcher: Dispatcher) -> None:
        self.matches = matches
        self.presence = presence
        self.dispatcher = dispatcher

    def post(
        self,
        match_id: str,
        player: str,
        command: dict[str, Any],
        *,
        transaction: Callable[..., AbstractContextManager[psycopg.Connection[Any]]],
        in_outer_transaction: bool = False,
        after_commit: Callable[[Callable[[], None]], None],
    ) -> dict[str, Any]:
        """``execute`` a posted command (``expected_version`` taken from it), answered as the API
        answers it: the new version, the events as ``player`` sees them, whom the match waits for
        and ``player``'s legal commands now."""
        command = dict(command)
        expected = command.pop("expected_version", None)
        outcome = self.execute(
            match_id,
            player,
            command,
            expected,
            transaction=transaction,
            in_outer_transaction=in_outer_transaction,
            after_commit=after_commit,
        )
        return {
            "version": outcome.after.version,
            "events": visible_events(outcome.recorded, outcome.after, player),
            **next_move(outcome.after, player),
        }

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
        """A player's command, decided and appended; timers and the bot are dispatched through
        ``after_commit`` once ``transaction`` (pipelined) has committed.

        The match at the expected version comes from the cache (no read), else it is read before
        the transaction (one autocommit round trip); inside an outer transaction (an
        Idempotency-Key's) the read happens there, on its connection. With an expected version the
        write is one round trip (BEGIN, append, index + NOTIFY, presence, COMMIT), else two.

        Raises ``MatchNotFound``, ``VersionConflict`` and the game's ``IllegalCommand``; nothing is
        written then.
        """
        loaded = self.matches.cached_at(match_id, player, expected)
        if loaded is None and not in_outer_transaction:
            loaded = self.matches.load_for(match_id, player)
        refused = self.matches.refused_appends(match_id, expected, read_current=not in_outer_transaction)
        with refused, transaction(pipelined=True) as conn:
            uow = self.matches.unit_of_work(conn)
            outcome = self.player_command(match_id, player, command, expected, uow, loaded=loaded)
        outcome = self.matches.confirmed(outcome)
        # committed now (else when the outer transaction commits: checked on its next read)
        self.matches.committed(uow, confirmed=not in_outer_transaction)
        after_commit(lambda: self.dispatcher.dispatch(outcome))
        return outcome

    def player_command(
        self,
        match_id: str,
        player: str,
        command: Mapping[str, Any],
        expected_version: int | None,
        uow: UnitOfWork,
        *,
        loaded: Match | None = None,
    ) -> Outcome:
        """Apply a player's command in the caller's unit of work (the caller commits, hands it to
        ``matches.committed``, then dispatches).

        ``loaded``: the match as ``load_for`` just read it (before the transaction began: the append
        checks the version it was decided on anyway), else it is read in the unit of work.
        Raises ``MatchNotFound``, ``VersionConflict`` (a stale ``expected_version``, or every race
        lost without one) and the game's ``IllegalCommand``; nothing is written then (the caller must abandon
        its transaction). With ``expected_version`` the append is queued: a race lost with it is
        raised when the transaction ends (run it inside ``refused_appends``), and the returned
        outcome's positions are read by ``confirmed`` after the commit.
        """
        if expected_version is not None:
            # the player decided on that version: a refusal is final (409), so queue the append
            m = loaded if loaded is not None else self.matches.load_for(match_id, player, uow.conn)
            if expected_version != m.version:
                raise VersionConflict(m.version)
            decision = domain.decide_for(m, player, command)
            outcome = self.matches.record(uow, m, match_id, decision, queued=True)
            return self._present(uow.conn, match_id, player, outcome)
        # Without an expected version the player did not decide on a particular state: a race lost
        # to the opponent (both mulligan at once) is decided again on a fresh read (the one command
        # path, each attempt in a savepoint so the transaction survives the lost race).
        first = [loaded] if loaded is not None else []

        def attempt(each: UnitOfWork) -> Outcome:
            m = first.pop() if first else self.matches.load_for(match_id, player, each.conn)
            decision = domain.decide_for(m, player, command)
            return self.matches.record(each, m, match_id, decision)

        try:
            outcome = self.matches.execute(attempt, conn=uow.conn)
        except TooManyConflicts as exc:
            raise VersionConflict(int(exc.actual)) from None
        return self._present(uow.conn, match_id, player, outcome)

    def _present(
        self, conn: psycopg.Connection[Any], match_id: str, player: str, outcome: Outcome
    ) -> Outcome:
        """``outcome``, with the player's request recorded as presence in the same transaction."""
        if not outcome.after.ended:
            self.presence.record(conn, match_id, player)
        return outcome
