"""Dead letters: events a consumer's handler kept failing on, kept aside so the partition goes on.
Operators list and retry them with ``python -m libs.kit.deadletters`` (``make dead-letters``).

When a handler has failed ``max_attempts`` times in a row on one event (``ConsumerRunner``; the
database being unreachable is not the handler's failure and is never counted), or at once when the
handler raises ``libs.contracts.MalformedEvent`` or ``libs.contracts.Unacceptable`` (an event it
refuses for good), the runner records
the event in ``<schema>.dead_letters`` (the envelope as delivered, the last error, the attempts,
the first and last failure time, where it was read), publishes the record to
``arcana.<service>.dead-letters`` and commits its offset past it. The inbox does not hold it: the
event was never applied.

``retry`` applies a waiting dead letter through the same subscription handler, in ONE transaction
with its inbox row (``libs.bus.inbox.claim``) and the change of its status to ``retried``: exactly
once, however often it is retried. An event a later delivery applied meanwhile is only marked
``retried``; an event older than the consumer's inbox horizon is marked ``expired`` and not
applied (the inbox can no longer tell whether it was applied: see ``libs/bus/purge.py``); a retry
that fails again leaves it waiting, with one more attempt and the new error. ``retry`` gets the
handler from a ``HandlerLookup`` (consumer name -> handler): the command looks it up in the
service's definition (``libs/kit/deadletters.py``).
"""

from __future__ import annotations

import enum
import json
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import NewTopic
from kafka.errors import TopicAlreadyExistsError
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from libs import clock
from libs.bus import inbox
from libs.bus.security import client_options
from libs.eventstore import RecordedEvent, Upcasters, caused_by

log = logging.getLogger(__name__)

Handler = Callable[[RecordedEvent, psycopg.Connection[Any]], None]  # as libs.bus.consumer.Handler
HandlerLookup = Callable[[str], Handler]  # consumer name -> its handler; raises LookupError

TABLE = "dead_letters"
ERROR_LIMIT = 8000  # characters of error text kept

PRODUCER_CONFIG: dict[str, Any] = {
    "acks": "all",
    "request_timeout_ms": 5000,
    "delivery_timeout_ms": 15000,
    "max_block_ms": 5000,
    "reconnect_backoff_max_ms": 1000,
    "allow_auto_create_topics": False,
}


@dataclass(frozen=True)
class Failure:
    """How a handler has failed on one event so far."""

    attempts: int
    first_failed_at: datetime
    last_failed_at: datetime
    error: str

    @classmethod
    def first(cls, exc: BaseException) -> Failure:
        at = clock.now()
        return cls(1, at, at, describe(exc))

    def again(self, exc: BaseException) -> Failure:
        return Failure(self.attempts + 1, self.first_failed_at, clock.now(), describe(exc))


def describe(exc: BaseException) -> str:
    """The error text kept with a dead letter: the exception and its traceback, bounded."""
    text = "".join(traceback.format_exception(exc)).strip()
    return text if len(text) <= ERROR_LIMIT else text[: ERROR_LIMIT - 3] + "..."


@dataclass(frozen=True)
class DeadLetter:
    id: int
    consumer: str
    event_id: str
    stream: str
    type: str
    envelope: dict[str, Any]
    error: str
    attempts: int
    first_failed_at: datetime
    last_failed_at: datetime
    topic: str
    kafka_partition: int
    kafka_offset: int
    status: str
    retried_at: datetime | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> DeadLetter:
        return cls(**{**row, "event_id": str(row["event_id"])})

    def event(self) -> RecordedEvent:
        return RecordedEvent.from_dict(self.envelope)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (published to the dead-letter topic)."""
        return {
            "id": self.id,
            "consumer": self.consumer,
            "event_id": self.event_id,
            "stream": self.stream,
            "type": self.type,
            "envelope": self.envelope,
            "error": self.error,
            "attempts": self.attempts,
            "first_failed_at": self.first_failed_at.isoformat(),
            "last_failed_at": self.last_failed_at.isoformat(),
            "topic": self.topic,
            "partition": self.kafka_partition,
            "offset": self.kafka_offset,
            "status": self.status,
        }


def _table(schema: str) -> sql.Identifier:
    return sql.Identifier(schema, TABLE)


# -- recording -----------------------------------------------------------------------------------


def record(
    pool: ConnectionPool,
    schema: str,
    consumer: str,
    event: RecordedEvent,
    failure: Failure,
    topic: str = "",
    partition: int = -1,
    offset: int = -1,
) -> DeadLetter:
    """Record (or update, when it is there already) the dead letter of ``event`` for ``consumer``;
    returns it. Raises psycopg errors when the database fails."""
    query = sql.SQL(
        "INSERT INTO {t} AS d (consumer, event_id, stream, type, envelope, error, attempts, "
        "first_failed_at, last_failed_at, topic, kafka_partition, kafka_offset) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (consumer, event_id) DO UPDATE SET error = EXCLUDED.error, "
        "attempts = GREATEST(d.attempts, EXCLUDED.attempts), "
        "first_failed_at = LEAST(d.first_failed_at, EXCLUDED.first_failed_at), "
        "last_failed_at = EXCLUDED.last_failed_at, topic = EXCLUDED.topic, "
        "kafka_partition = EXCLUDED.kafka_partition, kafka_offset = EXCLUDED.kafka_offset "
        "RETURNING *"
    ).format(t=_table(schema))
    params = (
        consumer,
        event.event_id,
        event.stream,
        event.type,
        Jsonb(event.to_dict()),
        failure.error,
        failure.attempts,
        failure.first_failed_at,
        failure.last_failed_at,
        topic,
        partition,
        offset,
    )
    with pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(query, params).fetchone()
    assert row is not None  # INSERT ... RETURNING always returns the row
    return DeadLetter.from_row(row)


class DeadLetterPublisher:
    """Publishes dead letters to one topic (created when missing, one partition by default)."""

    def __init__(
        self,
        bootstrap: str,
        topic: str,
        *,
        partitions: int = 1,
        replication_factor: int = -1,
        timeout: float = 15.0,
    ) -> None:
        self.bootstrap = bootstrap
        self.topic = topic
        self.partitions = partitions
        self.replication_factor = replication_factor
        self.timeout = timeout
        self._producer: KafkaProducer | None = None

    def publish(self, letter: DeadLetter) -> None:
        """Publish ``letter`` and wait for the broker's acknowledgement; raises a ``KafkaError``
        (the producer is dropped, so the next call starts afresh: the topic may be gone)."""
        try:
            producer = self._ready()
            future = producer.send(
                self.topic,
                key=letter.stream.encode(),
                value=json.dumps(letter.to_dict(), separators=(",", ":"), sort_keys=True).encode(),
                headers=[
                    ("event_id", letter.event_id.encode()),
                    ("type", letter.type.encode()),
                    ("consumer", letter.consumer.encode()),
                ],
            )
            producer.flush(timeout=self.timeout)
            future.get(timeout=0)
        except Exception:
            self.close()
            raise

    def _ready(self) -> KafkaProducer:
        if self._producer is None:
            self._create_topic()
            self._producer = KafkaProducer(
                bootstrap_servers=self.bootstrap, **PRODUCER_CONFIG, **client_options()
            )
        return self._producer

    def _create_topic(self) -> None:
        admin = KafkaAdminClient(
            bootstrap_servers=self.bootstrap,
            client_id="arcana-dead-letters-admin",
            request_timeout_ms=10000,
            api_version_auto_timeout_ms=5000,
            **client_options(),
        )
        try:
            admin.create_topics([NewTopic(self.topic, self.partitions, self.replication_factor)])
            log.info("%s: topic created", self.topic)
        except TopicAlreadyExistsError:
            pass
        finally:
            admin.close()

    def close(self) -> None:
        if self._producer is not None:
            try:
                self._producer.close(timeout=0)
            except Exception:
                log.debug("closing the dead-letter producer failed", exc_info=True)
            self._producer = None


# -- reading -------------------------------------------------------------------------------------


def listed(pool: ConnectionPool, schema: str, *, every: bool = False) -> list[DeadLetter]:
    """The waiting dead letters (``every``: whatever their status), oldest first."""
    where = sql.SQL("") if every else sql.SQL("WHERE status = 'dead' ")
    query = sql.SQL("SELECT * FROM {} {}ORDER BY id").format(_table(schema), where)
    with pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        return [DeadLetter.from_row(row) for row in cur.execute(query).fetchall()]


# -- retrying ------------------------------------------------------------------------------------


class Outcome(enum.Enum):
    APPLIED = "applied"
    ALREADY_APPLIED = "already applied by a later delivery; marked retried"
    EXPIRED = "older than the consumer's inbox horizon; marked expired, not applied"
    NOT_WAITING = "not waiting (retried or expired before); nothing done"
    UNKNOWN = "no such dead letter"
    FAILED = "failed again; still waiting"


@dataclass(frozen=True)
class RetryResult:
    id: int
    outcome: Outcome
    error: str | None = None


def retry(
    pool: ConnectionPool,
    schema: str,
    letter_id: int,
    handler_for: HandlerLookup,
    upcasters: Upcasters | None = None,
) -> RetryResult:
    """Apply dead letter ``letter_id`` once, through ``handler_for(its consumer)``, with its inbox
    row and its new status in one transaction. Never raises for the handler's failure (the result
    says ``FAILED`` and the row keeps the error); raises psycopg errors when the database fails."""
    try:
        with pool.connection() as conn, conn.transaction():
            return _retry_in(conn, schema, letter_id, handler_for, upcasters or Upcasters())
    except (psycopg.OperationalError, psycopg.InterfaceError):
        raise
    except Exception as exc:
        _failed_again(pool, schema, letter_id, exc)
        return RetryResult(letter_id, Outcome.FAILED, describe(exc))


def _retry_in(
    conn: psycopg.Connection[Any],
    schema: str,
    letter_id: int,
    handler_for: HandlerLookup,
    upcasters: Upcasters,
) -> RetryResult:
    query = sql.SQL("SELECT * FROM {} WHERE id = %s FOR UPDATE").format(_table(schema))
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(query, (letter_id,)).fetchone()
    if row is None:
        return RetryResult(letter_id, Outcome.UNKNOWN)
    letter = DeadLetter.from_row(row)
    if letter.status != "dead":
        return RetryResult(letter_id, Outcome.NOT_WAITING)
    try:
        handler = handler_for(letter.consumer)
    except LookupError as exc:  # not the handler's failure: nothing is counted
        return RetryResult(letter_id, Outcome.FAILED, str(exc))
    event = upcasters.upcast(letter.event())
    if inbox.claim(
        conn, schema, letter.consumer, event, letter.topic, letter.kafka_partition, letter.kafka_offset
    ):
        with caused_by(event):
            handler(event, conn)
        outcome = Outcome.APPLIED
    elif inbox.recorded(conn, schema, letter.consumer, event.event_id):
        outcome = Outcome.ALREADY_APPLIED
    else:
        outcome = Outcome.EXPIRED
    status = "expired" if outcome is Outcome.EXPIRED else "retried"
    conn.execute(
        sql.SQL("UPDATE {} SET status = %s, retried_at = now() WHERE id = %s").format(_table(schema)),
        (status, letter_id),
    )
    return RetryResult(letter_id, outcome)


def _failed_again(pool: ConnectionPool, schema: str, letter_id: int, exc: BaseException) -> None:
    query = sql.SQL(
        "UPDATE {} SET attempts = attempts + 1, error = %s, last_failed_at = %s "
        "WHERE id = %s AND status = 'dead'"
    ).format(_table(schema))
    with pool.connection() as conn:
        conn.execute(query, (describe(exc), clock.now(), letter_id))


def retry_all(
    pool: ConnectionPool, schema: str, handler_for: HandlerLookup, upcasters: Upcasters | None = None
) -> list[RetryResult]:
    """``retry`` every waiting dead letter, oldest first."""
    return [retry(pool, schema, letter.id, handler_for, upcasters) for letter in listed(pool, schema)]
