"""Projections of a service's OWN event store: follow, checkpoint, rebuild from zero.

A projection declares its name, the tables that hold its read model (in the service's schema,
owned by it alone) and a ``handler(event, conn)`` that updates them. The projector follows
``EventStore.read_all`` from the projection's row in ``<schema>.projection_checkpoints``; each
batch of events and the new checkpoint are written in ONE transaction, so the read model is always
exactly "every event up to the checkpoint". The checkpoint row is locked (``FOR UPDATE``) for the
batch, so two projectors (or a projector and a rebuild) never apply the same event twice.

Rebuild (``rebuild()``; ``python -m libs.bus.rebuild --schema S --projection module:obj``):
in one transaction, lock the checkpoint, TRUNCATE the projection's tables, replay every event from
position 0, and set the checkpoint to the last one. Readers see the old read model until the new
one is complete; a running projector waits on the lock and then carries on from the new checkpoint.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from libs.bus.background import BackgroundLoop
from libs.bus.backoff import Backoff
from libs.eventstore import EventStore, RecordedEvent

log = logging.getLogger(__name__)

Handler = Callable[[RecordedEvent, psycopg.Connection[Any]], None]


@dataclass(frozen=True)
class Projection:
    """A read model built from the service's own events.

    ``tables`` are table names in the service's schema that only this projection writes; a
    rebuild empties them.
    """

    name: str
    tables: tuple[str, ...]
    handler: Handler


class Projector(BackgroundLoop):
    """Keeps ``projection`` up to date with ``store``."""

    def __init__(
        self,
        store: EventStore,
        projection: Projection,
        *,
        batch_size: int = 500,
        poll_interval: float = 0.2,
        backoff_max: float = 5.0,
    ) -> None:
        self.store = store
        self.projection = projection
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        self.backoff = Backoff(0.1, backoff_max)
        super().__init__()
        self.thread_name = f"projector-{self.projection.name}"
        table = sql.Identifier(store.schema, "projection_checkpoints")
        self._ensure = sql.SQL(
            "INSERT INTO {} (projection) VALUES (%s) ON CONFLICT (projection) DO NOTHING"
        ).format(table)
        self._select = sql.SQL("SELECT position FROM {} WHERE projection = %s").format(table)
        self._lock = self._select + sql.SQL(" FOR UPDATE")
        self._save = sql.SQL("UPDATE {} SET position = %s, updated_at = now() WHERE projection = %s").format(
            table
        )
        self._truncate = sql.SQL("TRUNCATE {}").format(
            sql.SQL(", ").join(sql.Identifier(store.schema, t) for t in projection.tables)
        )

    def checkpoint(self) -> int:
        """The position of the last event applied (0 before any)."""
        with self.store.pool.connection() as conn:
            row = conn.execute(self._select, (self.projection.name,)).fetchone()
        return int(row[0]) if row else 0

    def _locked_checkpoint(self, conn: psycopg.Connection[Any]) -> int:
        conn.execute(self._ensure, (self.projection.name,))
        row = conn.execute(self._lock, (self.projection.name,)).fetchone()
        return int(row[0]) if row else 0

    def _apply_batch(self, conn: psycopg.Connection[Any], position: int) -> tuple[int, int]:
        events = self.store.read_all(position, self.batch_size, conn=conn)
        for event in events:
            self.projection.handler(event, conn)
        if events:
            position = events[-1].position
            conn.execute(self._save, (position, self.projection.name))
        return len(events), position

    def step(self) -> int:
        """Apply the next batch (one transaction); return how many events were applied."""
        with self.store.pool.connection() as conn, conn.transaction():
            applied, _ = self._apply_batch(conn, self._locked_checkpoint(conn))
        return applied

    def catch_up(self) -> int:
        """Apply every event not applied yet; return how many."""
        total = 0
        while (applied := self.step()) > 0:
            total += applied
        return total

    def rebuild(self) -> int:
        """Empty the tables and replay every event, atomically; return how many were applied."""
        total = 0
        with self.store.pool.connection() as conn, conn.transaction():
            self._locked_checkpoint(conn)
            if self.projection.tables:
                conn.execute(self._truncate)
            conn.execute(self._save, (0, self.projection.name))
            position = 0
            while True:
                applied, position = self._apply_batch(conn, position)
                total += applied
                if applied < self.batch_size:
                    break
        log.info("projection %s rebuilt from %d events", self.projection.name, total)
        return total

    def run(self, stop: threading.Event | None = None) -> None:
        """Follow the store until ``stop`` (default: this projector's own stop event) is set."""
        stop = stop or self._stop
        while not stop.is_set():
            try:
                applied = self.step()
            except Exception:
                log.exception("projection %s: step failed; retrying", self.projection.name)
                self.backoff.wait(stop)
                continue
            self.backoff.reset()
            if applied < self.batch_size:
                stop.wait(self.poll_interval)


def resolve_projection(obj: Any, schema: str) -> Projection:
    """A ``Projection``, or a factory ``schema -> Projection`` (for projections that name their schema)."""
    if isinstance(obj, Projection):
        return obj
    if callable(obj):
        made = obj(schema)
        if isinstance(made, Projection):
            return made
    raise TypeError(f"{obj!r} is neither a Projection nor a function schema -> Projection")
