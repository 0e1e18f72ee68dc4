"""One command path for every service: load -> fold -> decide -> append -> retry on a version conflict.

``Repository.execute(command)`` runs ``command(uow)`` in a :class:`UnitOfWork` and, when an append
meets a concurrent one (``ConcurrencyError``, ``StaleRead``), runs it again from a fresh read, at
most ``attempts`` times in all; then it raises ``TooManyConflicts``. Nothing else is retried: a
domain error, a duplicate event or a database failure goes to the caller at once. The transaction
is the repository's own (a pooled connection), a web request's (``transaction``) or a savepoint of
an open one (``conn``: a consumer's inbox transaction), one per attempt.

``Repository.get(uow, stream, fold)`` is the stream's state and version: a per-process cache of
folded states (``Fold.cache``) and a snapshot kept in the store (``Fold.snapshots``, for long
streams) both stand in for the events they cover; only the tail after them is read and folded.
A snapshot of another state shape (``Snapshots.version``) is ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from psycopg_pool import ConnectionPool

from libs.contracts.base import IntegrationEvent
from libs.eventstore.cache import Folded, StreamCache
from libs.eventstore.envelope import RecordedEvent
from libs.eventstore.errors import ConcurrencyError, TooManyConflicts
from libs.eventstore.store import EventStore
from libs.eventstore.unit_of_work import Conn, Project, UnitOfWork

S = TypeVar("S")
T = TypeVar("T")

ATTEMPTS = 8  # the one bound of every command's attempts (a contested wallet needs a few)

# A transaction to work in: a factory of context managers yielding a connection in a transaction
# (``libs.web.request_transaction``).
Transaction = Callable[[], AbstractContextManager[Conn]]


@dataclass(frozen=True)
class Snapshots(Generic[S]):
    """How a long stream's state is kept in the store's ``snapshots`` table: ``save``/``load``
    to and from JSON, of shape ``version`` (bump it when the state changes: older ones are
    ignored); one is taken when ``every`` events or more were folded since the last one."""

    version: int
    save: Callable[[S], dict[str, Any] | None]  # None: nothing worth keeping (e.g. no state yet)
    load: Callable[[dict[str, Any]], S]
    every: int = 50


@dataclass(frozen=True)
class Fold(Generic[S]):
    """How one kind of stream becomes a state: ``initial()`` then ``evolve(state, event)`` for each
    event in order. ``evolve`` must not change the state it is given once it is cached or
    snapshotted (return a new one), unless neither is set."""

    initial: Callable[[], S]
    evolve: Callable[[S, RecordedEvent], S]
    snapshots: Snapshots[S] | None = None
    cache: StreamCache | None = None


@dataclass(frozen=True)
class Loaded(Generic[S]):
    state: S
    version: int  # of the last event folded (0: no event); append at it


class Repository:
    """The command path of one service's event store (see the module's docstring)."""

    def __init__(
        self,
        pool: ConnectionPool,
        store: EventStore,
        *,
        project: Project | None = None,
        declared: Collection[type[IntegrationEvent]] | None = None,
        attempts: int = ATTEMPTS,
    ) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.pool = pool
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
        """``command(uow)`` committed in one transaction, again after a version conflict (see above)."""
        if transaction is not None and conn is not None:
            raise ValueError("give a transaction or a connection, not both")
        begin = transaction or (self._savepoint(conn) if conn is not None else self._own_transaction)
        last: ConcurrencyError | None = None
        for _ in range(self.attempts):
            try:
                with begin() as c:
                    return command(UnitOfWork(c, self.store, self.project, self.declared))
            except ConcurrencyError as exc:
                last = exc
        assert last is not None
        raise TooManyConflicts(self.attempts, last)

    def unit_of_work(self, conn: Conn) -> UnitOfWork:
        """A unit of work on ``conn``'s open transaction, without retries (its owner retries)."""
        return UnitOfWork(conn, self.store, self.project, self.declared)

    @contextmanager
    def _own_transaction(self) -> Iterator[Conn]:
        with self.pool.connection() as c, c.transaction():
            yield c

    @staticmethod
    def _savepoint(conn: Conn) -> Transaction:
        @contextmanager
        def savepoint() -> Iterator[Conn]:
            with conn.transaction():
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
        for event in tail:
            state = fold.evolve(state, event)
        if tail:
            version = tail[-1].version
            if fold.cache is not None:
                fold.cache.put(stream, Folded(version, tail[-1].event_id, state))
            self._keep_snapshot(conn, stream, fold, state, version, len(tail))
        return Loaded(state, version)

    def _cached(self, conn: Conn, stream: str, fold: Fold[S]) -> tuple[S, int, list[RecordedEvent]] | None:
        """The cached state and the events after it, in one read from the cached version on: None
        when the event there is not the cached one (the cache saw an append rolled back)."""
        found = fold.cache.get(stream) if fold.cache is not None else None
        if found is None or fold.cache is None:
            return None
        events = self.store.read(stream, found.version, conn=conn)
        if not events or events[0].event_id != found.last_event_id:
            fold.cache.drop(stream)
            return None
        return found.state, found.version, events[1:]

    def _snapshot(self, conn: Conn, stream: str, fold: Fold[S]) -> tuple[S, int] | None:
        if fold.snapshots is None:
            return None
        found = self.store.load_snapshot(stream, conn=conn)
        if found is None:
            return None
        version, kept = found
        if kept.get("shape") != fold.snapshots.version:
            return None  # a state of another shape: fold from the start (the next one replaces it)
        return fold.snapshots.load(kept["state"]), version

    def _keep_snapshot(
        self, conn: Conn, stream: str, fold: Fold[S], state: S, version: int, folded: int
    ) -> None:
        policy = fold.snapshots
        if policy is None or folded < policy.every:
            return
        saved = policy.save(state)
        if saved is not None:
            self.store.save_snapshot(stream, version, {"shape": policy.version, "state": saved}, conn=conn)
