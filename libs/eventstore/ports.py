"""What the command path (``Repository``, ``UnitOfWork``) needs of an event store: the PostgreSQL one
(``store.EventStore``) and the in-memory one (``memory.MemoryEventStore``) both provide it, with the
same semantics (tests/integration/eventstore/test_store_contract.py runs the same tests on both).

A *transaction* is whatever the store's ``transaction()`` yields (a psycopg connection inside a
transaction; an in-memory transaction): services pass it on as ``uow.conn``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from libs.eventstore.envelope import NewEvent, RecordedEvent
from libs.eventstore.upcasting import Upcasters

ExpectedVersion = int | str


class Queued(Protocol):
    """An append whose result may not be known yet (a pipelined one)."""

    def predicted(self) -> list[RecordedEvent]: ...

    def recorded(self) -> list[RecordedEvent]: ...


class Store(Protocol):
    upcasters: Upcasters

    # -- transactions ------------------------------------------------------------------------------
    def transaction(self) -> AbstractContextManager[Any]:
        """A transaction of the store's own, committed when the block ends (rolled back on an error)."""
        ...

    def savepoint(self, conn: Any) -> AbstractContextManager[Any]:
        """A savepoint of ``conn``'s open transaction: rolled back alone on an error."""
        ...

    def pipeline(self, conn: Any) -> AbstractContextManager[Any]:
        """Statements queued on ``conn`` until the block ends (one round trip), where the store has any."""
        ...

    def moved(self, exc: BaseException) -> bool:
        """Whether ``exc`` is an append refused because its stream was not at the expected version."""
        ...

    def committed_reads(self, conn: Any) -> bool:
        """Whether what is read on ``conn`` now is committed (it is in no transaction of its own)."""
        ...

    # -- writing -----------------------------------------------------------------------------------
    def append(
        self,
        stream: str,
        expected_version: ExpectedVersion,
        events: Sequence[NewEvent],
        *,
        conn: Any = None,
        savepoint: bool = True,
    ) -> list[RecordedEvent]: ...

    def append_pipelined(
        self,
        conn: Any,
        stream: str,
        expected: int,
        events: Sequence[NewEvent],
        then: Callable[[list[RecordedEvent]], None],
    ) -> Queued: ...

    def save_snapshot(
        self, stream: str, version: int, state: dict[str, Any], *, conn: Any = None
    ) -> None: ...

    # -- reading -----------------------------------------------------------------------------------
    def version(self, stream: str, *, conn: Any = None) -> int: ...

    def read(
        self, stream: str, from_version: int = 1, to_version: int | None = None, *, conn: Any = None
    ) -> list[RecordedEvent]: ...

    def read_many(self, starts: Mapping[str, int], *, conn: Any = None) -> dict[str, list[RecordedEvent]]: ...

    def read_all(
        self, from_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[RecordedEvent]: ...

    def head_position(self, *, conn: Any = None) -> int: ...

    def load_snapshot(self, stream: str, *, conn: Any = None) -> tuple[int, dict[str, Any]] | None: ...

    def load_snapshots(
        self, streams: Sequence[str], *, conn: Any = None
    ) -> dict[str, tuple[int, dict[str, Any]]]: ...
