"""Writing a decision: the append at the version it was decided on, with the index update, the NOTIFY
and (for an ended match) the presence cleanup in the same transaction; optionally queued on a
pipelined connection, so the whole write is one round trip with the COMMIT."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import ConcurrencyError, Expect, NewEvent, QueuedAppend, RecordedEvent
from services.match import domain, fairplay, projections, store
from services.match.domain import Decision, Match
from services.match.errors import VersionConflict
from services.match.loading import MatchLoader, as_rows, stream_of


@dataclass(frozen=True)
class Outcome:
    """A stored decision: the match before and after it, and its events as recorded."""

    before: Match | None
    after: Match
    recorded: Sequence[RecordedEvent]
    pending: QueuedAppend | None = None  # a queued append: positions unknown until it syncs


class MatchWriter:
    """Appends decisions to match streams (the ``loader``'s event store and cache)."""

    def __init__(self, pool: ConnectionPool, schema: str, loader: MatchLoader) -> None:
        self.pool = pool
        self.schema = schema
        self.loader = loader

    def append(
        self,
        before: Match | None,
        match_id: str,
        decision: Decision,
        conn: psycopg.Connection[Any] | None,
        *,
        savepoint: bool = True,
        queued: bool = False,
    ) -> Outcome:
        """Append ``decision`` at ``before``'s version in ``conn``'s transaction (or a transaction of its
        own, whose result is then cached), index and announce it. The match after it takes the rules
        state the decision computed: the rules are not folded again.

        ``savepoint=False`` (two round trips fewer) when the caller's transaction is abandoned on
        any error; without ``conn`` the own transaction needs none. ``queued`` (with ``conn``): the
        append's result is not waited for, so on a pipelined connection the whole write is one
        round trip with the COMMIT; a refused append is then raised as a ``psycopg.Error`` when
        the pipeline syncs (see ``refused_appends``), and ``confirmed`` reads the positions.
        Raises ``ConcurrencyError`` when the stream is not at ``before``'s version (not queued).
        """
        now = clock.now()
        expected = before.version if before is not None else Expect.NO_STREAM

        def write(c: psycopg.Connection[Any]) -> tuple[list[RecordedEvent], QueuedAppend | None]:
            pending = None
            judged = fairplay.judged(c, self.schema, decision.events, now.astimezone(UTC).date())
            new = [NewEvent(kind, data, occurred_at=now) for kind, data in judged]
            if queued:
                pending = self.loader.events.append_queued(c, stream_of(match_id), expected, new)
                recorded = pending.predicted()
            else:
                recorded = self.loader.events.append(
                    stream_of(match_id), expected, new, conn=c, savepoint=savepoint and conn is not None
                )
            if recorded[-1].type == "MatchEnded":
                store.forget_presence(c, self.schema, match_id)
            # the index update and the NOTIFY (sent on commit) in one statement
            announce = (store.channel(self.schema), f"{match_id}:{recorded[-1].version}")
            projections.apply(c, self.schema, recorded, notify=announce)
            return recorded, pending

        if conn is not None:
            recorded, pending = write(conn)
        else:
            with self.pool.connection() as own, own.transaction():
                recorded, pending = write(own)
        after = domain.fold_decided(before, as_rows(recorded), decision.rules)
        if conn is None:
            self.loader.cache.remember(after)
        return Outcome(before, after, recorded, pending)

    @staticmethod
    def confirmed(outcome: Outcome) -> Outcome:
        """``outcome`` with its events as stored (their positions), once its transaction committed."""
        if outcome.pending is None:
            return outcome
        return Outcome(outcome.before, outcome.after, outcome.pending.recorded())

    @contextmanager
    def refused_appends(self, match_id: str, expected: int | None) -> Iterator[None]:
        """Around a transaction holding a queued append: its refusal, raised when the pipeline
        syncs, becomes ``VersionConflict`` (with the current version)."""
        try:
            yield
        except psycopg.Error as exc:
            failure = self.loader.events.append_failure(exc, stream_of(match_id), expected or 0)
            if isinstance(failure, ConcurrencyError):
                raise VersionConflict(int(failure.actual)) from None
            raise
