"""The sweep's ticks of many matches at once: after an outage every running match owes something
(both players silent, the turn over), and ticking them one by one cost a read, a fold and a
transaction each (13-32 ms per match). Here a batch of matches costs one query for all their new
events, one for their presence, a decision each (pure) and one transaction for all their appends.
A match whose append loses a race (a player acted meanwhile), or that fails, is left to the
one-by-one path (``SystemCommands.tick``), which decides it again on a fresh read."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from libs import clock
from libs.eventstore import ConcurrencyError
from libs.games import IllegalCommand
from services.match import domain, sweep_store
from services.match.domain import Decision, Match
from services.match.repository import MatchRepository, Outcome
from services.match.scheduling import Dispatcher
from services.match.usecases.system import MAX_TICK_STEPS

log = logging.getLogger(__name__)

BATCH = 100  # matches per query and per transaction


@dataclass(frozen=True)
class Ticked:
    """A batch's result: the matches as they are now (ticked or not), and those left to tick alone."""

    matches: dict[str, Match]
    left: list[str]


class BatchTicker:
    def __init__(self, matches: MatchRepository, dispatcher: Dispatcher) -> None:
        self.matches = matches
        self.dispatcher = dispatcher

    def tick(self, match_ids: Sequence[str]) -> Ticked:
        """Apply what is due now in each of ``match_ids`` (``SystemCommands.tick`` for many)."""
        now = clock.now()
        loaded, seen = self._load(match_ids)
        decided: dict[str, Decision] = {}
        left = [match_id for match_id in match_ids if match_id not in loaded]
        for match_id, m in loaded.items():
            try:
                due = None if m.ended else domain.decide_due(m, now, seen.get(match_id, {}), MAX_TICK_STEPS)
            except IllegalCommand as exc:
                log.error("match %s: a system command was refused: %s", match_id, exc)
                continue
            if due is not None:
                decided[match_id] = due[0]
        outcomes = self._append(loaded, decided, left)
        for outcome in outcomes:
            loaded[outcome.after.match_id] = outcome.after
            self.dispatcher.dispatch(outcome)
        return Ticked(loaded, left)

    def _load(self, match_ids: Sequence[str]) -> tuple[dict[str, Match], dict[str, dict]]:
        """The matches as stored now (``MatchRepository.load_many``: cached folds, else their
        snapshots, moved on by their new events, read in one query) and their players' presence."""
        with self.matches.reading() as conn:
            found = self.matches.load_many(match_ids, conn)
            seen = sweep_store.last_seen_many(conn, self.matches.schema, list(match_ids))
        return {i: m for i, m in found.items() if not m.rejected}, seen

    def _append(
        self, loaded: dict[str, Match], decided: dict[str, Decision], left: list[str]
    ) -> list[Outcome]:
        """Every decision in one transaction, each in a savepoint of its own: a refused one is left
        to the one-by-one path and the others are kept."""
        outcomes: list[Outcome] = []
        if not decided:
            return outcomes
        with self.matches.pool.connection() as conn, conn.transaction():
            uow = self.matches.unit_of_work(conn)
            for match_id, decision in decided.items():
                try:
                    with conn.transaction():
                        outcomes.append(self.matches.record(uow, loaded[match_id], match_id, decision))
                except ConcurrencyError:
                    left.append(match_id)
                except Exception:
                    log.exception("sweep: match %s failed in a batch; ticking it alone", match_id)
                    left.append(match_id)
        self.matches.committed(uow)
        return outcomes
