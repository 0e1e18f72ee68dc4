"""One command path for every service: load -> fold -> decide -> append -> retry on a version conflict.

``Repository.execute(command)`` runs ``command(uow)`` in a :class:`UnitOfWork` and, when an append
meets a concurrent one (``ConcurrencyError``, ``StaleRead``), runs it again from a fresh read, at
most ``attempts`` times in all; then it raises ``TooManyConflicts``. Nothing else is retried: a
domain error, a duplicate event or a database failure goes to the caller at once. The transaction
is the store's own (a pooled connection), a web request's (``transaction``) or a savepoint of
an open one (``conn``: a consumer's inbox transaction), one per attempt.

``Repository.get(uow, stream, fold)`` is the stream's state and version: a per-process cache of
folded states (``Fold.cache``) and a snapshot kept in the store (``Fold.snapshots``, for long
streams) both stand in for the events they cover; only the tail after them is read and folded.
A snapshot of another state shape (``Snapshots.version``) is ignored. ``get_many`` does the same
for many streams in three reads; ``peek`` is a state known committed, without any read. A state a
decision computed (``UnitOfWork.record``) is handed to the cache once its transaction committed.

The store is the PostgreSQL one (``EventStore``) or the in-memory one (``MemoryEventStore``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from libs.contracts.base import IntegrationEvent
from libs.eventstore.cache import Folded
from libs.eventstore.envelope import RecordedEvent
from libs.eventstore.errors import ConcurrencyError, TooManyConflicts
from libs.eventstore.fold import Decided, Fold, Loaded, Snapshots
from libs.eventstore.ports import Store
from libs.eventstore.unit_of_work import Conn, Project, UnitOfWork

__all__ = ["ATTEMPTS", "Decided", "Fold", "Loaded", "Repository", "Snapshots", "Transaction"]

log = logging.getLogger(__name__)

S = TypeVar("S")
T = TypeVar("T")

ATTEMPTS = 8  # the one bound of every command's attempts (a contested wallet needs a few)

# A transaction to work in: a factory of context managers yielding a connection in a transaction
# (``libs.web.request_transaction``).
Transaction = Callable[[], AbstractContextManager[Conn]]


class Repository:
    """The command path of one service's event store (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        project: Project | None = None,
        declared: Collection[type[IntegrationEvent]] | None = None,
        attempts: int = ATTEMPTS,
    ) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.store = store
        self.project = project
        self.declared = declared
        self.attempts = attempts

    # -- writing -----------------------------------------------------------------------------------

    def execute(
        self,
        command: Callable[[UnitOfWork], T],
        *,
        transaction: Transaction | None = None,
        conn: Conn | None = None,
    ) -> T:
        """``command(uow)`` committed in one transaction, again after a version conflict (see above).
        The states it decided go to the caches as known committed when the transaction is the
        store's own; else as to be checked on their next read (an outer transaction may roll back)."""
        if transaction is not None and conn is not None:
            raise ValueError("give a transaction or a connection, not both")
        own = transaction is None and conn is None
        begin = transaction or (self._savepoint(conn) if conn is not None else self.store.transaction)
        last: ConcurrencyError | None = None
        for _ in range(self.attempts):
            try:
                with begin() as c:
                    uow = self.unit_of_work(c)
                    result = command(uow)
            except ConcurrencyError as exc:
                last = exc
                continue
            self.committed(uow, confirmed=own)
            return result
        assert last is not None
        raise TooManyConflicts(self.attempts, last)

    def execute_planned(self, conn: Conn, commands: Sequence[Callable[[UnitOfWork], object]]) -> list[int]:
        """Commands decided together from one read (e.g. a pairing pass), written in ``conn``'s open
        transaction: all in one savepoint, pipelined (one round trip); when an append meets a
        version conflict, each in a savepoint of its own, and those that lost are left out (not
        retried: what they were decided on has changed; the next pass decides again). Their
        appends must be ``pipelined``. Returns the indices of the commands written."""
        with self.store.pipeline(conn):
            try:
                with self.store.savepoint(conn):
                    for command in commands:
                        command(self.unit_of_work(conn))
                return list(range(len(commands)))
            except Exception as exc:
                if not self.store.moved(exc):
                    raise
            done = []
            for i, command in enumerate(commands):
                try:
                    with self.store.savepoint(conn):
                        command(self.unit_of_work(conn))
                    done.append(i)
                except Exception as exc:
                    if not self.store.moved(exc):
                        raise
                    log.info("a planned command left out (a stream moved meanwhile): %s", exc)
            return done

    def unit_of_work(self, conn: Conn) -> UnitOfWork:
        """A unit of work on ``conn``'s open transaction, without retries (its owner retries)."""
        return UnitOfWork(conn, self.store, self.project, self.declared)

    @staticmethod
    def committed(uow: UnitOfWork, *, confirmed: bool = True) -> None:
        """Hand the states ``uow`` decided to their caches, its transaction having committed
        (``confirmed``; else they are checked against the store on their next read)."""
        for cache, stream, f in uow.decided:
            cache.put(stream, Folded(f.version, f.last_event_id, f.state, confirmed))
        uow.decided.clear()

    def _savepoint(self, conn: Conn) -> Transaction:
        @contextmanager
        def savepoint() -> Iterator[Conn]:
            with self.store.savepoint(conn):
                yield conn

        return savepoint

    # -- reading -----------------------------------------------------------------------------------

    def get(self, uow: UnitOfWork | Conn, stream: str, fold: Fold[S]) -> Loaded[S]:
        """The state of ``stream`` and its version, read in ``uow``'s transaction."""
        conn = uow.conn if isinstance(uow, UnitOfWork) else uow
        cached = self._cached(conn, stream, fold)
        if cached is not None:
            state, version, tail = cached
        else:
            state, version = self._snapshot(conn, stream, fold) or (fold.initial(), 0)
            tail = self.store.read(stream, version + 1, conn=conn)
        return self._folded(conn, stream, fold, state, version, tail)

    def get_many(self, conn: Conn, streams: Sequence[str], fold: Fold[S]) -> dict[str, Loaded[S]]:
        """``get`` of each of ``streams`` (a sweep's hundreds): the cached states known committed,
        the others' snapshots in one read, and every stream's tail in one more."""
        base: dict[str, tuple[S, int]] = {}
        for stream in streams:
            found = fold.cache.get(stream) if fold.cache is not None else None
            if found is not None and found.confirmed:
                base[stream] = (found.state, found.version)
        cold = [s for s in streams if s not in base]
        if cold and fold.snapshots is not None:
            kept = self.store.load_snapshots(cold, conn=conn)
            for stream, (version, data) in kept.items():
                state = self._restored(fold.snapshots, data)
                if state is not None:
                    base[stream] = (state, version)
        starts = {s: (base[s][1] + 1 if s in base else 1) for s in streams}
        tails = self.store.read_many(starts, conn=conn)
        loaded = {}
        for stream in streams:
            state, version = base.get(stream) or (fold.initial(), 0)
            loaded[stream] = self._folded(conn, stream, fold, state, version, tails[stream])
        return loaded

    @staticmethod
    def peek(stream: str, fold: Fold[S]) -> Loaded[S] | None:
        """The cached state of ``stream`` if it is known committed, without reading the store (it may
        be behind the stream: a decision on it is appended at its version, which fails then)."""
        found = fold.cache.get(stream) if fold.cache is not None else None
        if found is None or not found.confirmed:
            return None
        return Loaded(found.state, found.version)

    @staticmethod
    def caught_up(
        stream: str,
        fold: Fold[S],
        loaded: Loaded[S],
        tail: Sequence[RecordedEvent],
        *,
        confirmed: bool = True,
    ) -> Loaded[S]:
        """``loaded`` moved on by ``tail``, the events right after it that the caller read (``confirmed``:
        outside any transaction), and cached."""
        if not tail:
            return loaded
        state = fold.folded(loaded.state, tail)
        if fold.cache is not None:
            fold.cache.put(stream, Folded(tail[-1].version, tail[-1].event_id, state, confirmed))
        return Loaded(state, tail[-1].version)

    def _folded(
        self, conn: Conn, stream: str, fold: Fold[S], state: S, version: int, tail: list[RecordedEvent]
    ) -> Loaded[S]:
        for event in tail:
            state = fold.evolve(state, event)
        if tail:
            version = tail[-1].version
            if fold.cache is not None:
                confirmed = self.store.committed_reads(conn)
                fold.cache.put(stream, Folded(version, tail[-1].event_id, state, confirmed))
            self._keep_snapshot(conn, stream, fold, state, version, len(tail))
        return Loaded(state, version)

    def _cached(self, conn: Conn, stream: str, fold: Fold[S]) -> tuple[S, int, list[RecordedEvent]] | None:
        """The cached state and the events after it: one read from the version after a state known
        committed; else from the cached version on, None when the event there is not the cached
        one (the cache saw an append rolled back)."""
        found = fold.cache.get(stream) if fold.cache is not None else None
        if found is None or fold.cache is None:
            return None
        if found.confirmed:
            return found.state, found.version, self.store.read(stream, found.version + 1, conn=conn)
        events = self.store.read(stream, found.version, conn=conn)
        if not events or events[0].event_id != found.last_event_id:
            fold.cache.drop(stream)
            return None
        if len(events) == 1 and self.store.committed_reads(conn):  # checked: known committed now
            fold.cache.put(stream, Folded(found.version, found.last_event_id, found.state, True))
        return found.state, found.version, events[1:]

    def _snapshot(self, conn: Conn, stream: str, fold: Fold[S]) -> tuple[S, int] | None:
        if fold.snapshots is None:
            return None
        found = self.store.load_snapshot(stream, conn=conn)
        if found is None:
            return None
        version, kept = found
        state = self._restored(fold.snapshots, kept)
        return None if state is None else (state, version)

    @staticmethod
    def _restored(policy: Snapshots[S], kept: dict[str, Any]) -> S | None:
        if kept.get("shape") != policy.version:
            return None  # a state of another shape: fold from the start (the next one replaces it)
        return policy.load(kept["state"])

    def _keep_snapshot(
        self, conn: Conn, stream: str, fold: Fold[S], state: S, version: int, folded: int
    ) -> None:
        policy = fold.snapshots
        if policy is None or folded < policy.every:
            return
        saved = policy.save(state)
        if saved is not None:
            self.store.save_snapshot(stream, version, {"shape": policy.version, "state": saved}, conn=conn)
