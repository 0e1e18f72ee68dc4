"""The idempotent consumer runner: Kafka messages -> a handler, exactly once in PostgreSQL.

For every message the runner opens ONE PostgreSQL transaction, inserts ``(consumer, event_id)``
into ``<schema>.inbox`` and, only if that row is new, calls ``handler(event, conn)`` on the same
connection; both commit together. A redelivered message (a rebalance, a restart, a relay that
published twice, a new broker replayed from the start) finds its event_id in the inbox and changes
nothing. Kafka offsets are committed only after the PostgreSQL commit (a crash in between means a
redelivery, which the inbox absorbs).

A handler that raises rolls its transaction back; the runner seeks back to that message and
retries it with bounded exponential backoff (the partition waits). After ``max_attempts`` failures
in a row on one event (default 5), or at once when it does not decode to its declared type
(``libs.contracts.MalformedEvent``) or is refused for good (``libs.contracts.Unacceptable``):
trying again cannot help; the event becomes a dead letter
(``libs/bus/deadletters.py``): recorded in ``<schema>.dead_letters``, published to
``arcana.<service>.dead-letters``, its offset committed, NOT in the inbox, and the partition goes
on; ``python -m libs.kit.deadletters retry`` applies it later. The database being unreachable
(``PoolTimeout``, a connection error) is not the handler's failure: it is retried without
counting, however long it lasts. A value that is not an event envelope is logged and skipped.

Inbox horizon (``libs/bus/inbox.py``, ``libs/bus/purge.py``): an event that occurred before the
consumer's recorded horizon counts as already applied (its inbox row may have been purged).

New broker. The offsets a group committed mean nothing on a different cluster, and positions
kept in memory from the old broker would skip messages on the new one. So the runner asks the
cluster id (``libs/bus/cluster.py``) every ``probe_interval`` seconds (or takes the answer another
runner of the process got no longer ago: ``RECENT``), on every assignment and before every offset
commit (asking itself): on a new id it seeks every assigned partition back to the beginning,
and it never commits offsets read before the change (a brand-new cluster also rejects them, as
it does not know the group member). Offsets are committed with the cluster id as metadata; where
the broker keeps it (Kafka does, the dev broker does not), an offset committed on another cluster
is ignored on assignment. Reading a partition again only costs inbox look-ups.

Types nobody handles. A runner given ``types`` claims and handles only events of those types;
any other event on its topics is counted in ``ignored`` and costs no database work (a subscriber
to the match topic would otherwise write an inbox row for every card played, to do nothing).
Such an event has no effect to make exactly-once, so nothing needs to remember it was seen.

Topics are never auto-created by a consumer (the relay creates its own topic; see relay.py); a
topic created again on a new broker is picked up within seconds: every fetch that meets it missing
refreshes the consumer's metadata.

Broker restarts and rebalances: kafka-python reconnects and rejoins by itself; any error that
escapes ``poll`` closes the consumer and a new one is made after a backoff.

Run it in a thread (``start()``/``stop()``) or as a process (``run_consumer_process`` or
``python -m libs.bus.consumer``), stopping cleanly on SIGTERM.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

import psycopg
from kafka import ConsumerRebalanceListener, KafkaConsumer, TopicPartition
from kafka.consumer.fetcher import ConsumerRecord
from kafka.errors import KafkaError
from kafka.structs import OffsetAndMetadata
from psycopg_pool import ConnectionPool, PoolTimeout

from libs import config
from libs.bus import deadletters, heartbeat, inbox, metrics  # modules (libs/bus/__init__ loads none)
from libs.bus.background import BackgroundLoop
from libs.bus.backoff import Backoff
from libs.bus.cluster import RECENT, ClusterProbe
from libs.bus.deadletters import DeadLetterPublisher, Failure
from libs.bus.security import client_options
from libs.bus.topics import dead_letter_topic, decode_value, header
from libs.contracts import MalformedEvent, Unacceptable
from libs.eventstore import RecordedEvent, Upcasters, caused_by

log = logging.getLogger(__name__)

Handler = Callable[[RecordedEvent, psycopg.Connection[Any]], None]

DEFAULT_CONSUMER_CONFIG: dict[str, Any] = {
    "auto_offset_reset": "earliest",
    "enable_auto_commit": False,
    "session_timeout_ms": 10000,
    # An idle consumer costs what it asks the broker: a heartbeat every 3 s (a third of the session
    # timeout) and a fetch the broker holds up to 1 s when there is nothing (it answers at once when
    # a message arrives). With 1 s and 0.5 s, the 16 consumers of `make run` took 16 % of a core
    # while idle; now about 6 %.
    "heartbeat_interval_ms": 3000,
    "fetch_max_wait_ms": 1000,
    # The periodic metadata refresh. It need not notice a topic the relay has just created again (a
    # new broker): a fetch that meets the missing topic asks for metadata at once, on every pass
    # (tests/integration/bus/test_new_broker.py). Every 3 s, it was 5 metadata requests a
    # second from an idle stack's consumers (docs/capacity.md, "What the stack costs...").
    "metadata_max_age_ms": 30000,
    "allow_auto_create_topics": False,  # the relay creates topics (see relay.py)
    "request_timeout_ms": 30000,
    "reconnect_backoff_max_ms": 1000,
}


TOPIC_WAIT_SECONDS = 0.5  # between looks for topics the relays have not created yet


def group_id(name: str) -> str:
    """The Kafka group of consumer ``name``: ``ARCANA_KAFKA_GROUP_PREFIX`` + name. A prefix lets
    several copies of the stack share one broker (the e2e tests, a staging copy) without joining each
    other's groups; the inbox keeps the plain name."""
    return config.KAFKA_GROUP_PREFIX.get() + name


class HandlerFailed(Exception):
    """The handler raised for one message; its transaction was rolled back."""


def database_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be reached (no connection in time, a broken
    connection, a server shutting down), rather than that the handler failed."""
    if isinstance(exc, PoolTimeout | psycopg.InterfaceError):
        return True
    if isinstance(exc, psycopg.OperationalError):
        state = exc.sqlstate
        return state is None or state.startswith(("08", "57P"))
    return False


class _OnRebalance(ConsumerRebalanceListener):
    def __init__(self, runner: ConsumerRunner, consumer: KafkaConsumer) -> None:
        self.runner = runner
        self.consumer = consumer

    def on_partitions_revoked(self, revoked: Any) -> None:
        log.info("%s: partitions revoked: %s", self.runner.name, sorted(revoked))
        self.runner._failures.clear()  # whoever gets them counts afresh

    def on_partitions_assigned(self, assigned: Any) -> None:
        log.info("%s: partitions assigned: %s", self.runner.name, sorted(assigned))
        self.runner._on_assigned(self.consumer, list(assigned))


class ConsumerRunner(BackgroundLoop):
    """Consume ``topics`` as group ``name`` and apply each event once with ``handler``.

    ``name`` is both the Kafka group id and the inbox's ``consumer`` column. ``service_name`` (the
    schema's name by default) names the dead-letter topic ``arcana.<service_name>.dead-letters``;
    ``max_attempts`` failures in a row on one event make it a dead letter.
    """

    def __init__(
        self,
        pool: ConnectionPool,
        schema: str,
        name: str,
        topics: Sequence[str],
        handler: Handler,
        bootstrap: str,
        *,
        upcasters: Upcasters | None = None,
        service_name: str | None = None,
        max_attempts: int = 5,
        poll_timeout_ms: int = 1000,
        max_records: int = 500,
        probe_interval: float = 1.0,
        backoff_initial: float = 0.1,
        backoff_max: float = 5.0,
        consumer_config: dict[str, Any] | None = None,
        types: Collection[str] | None = None,
    ) -> None:
        if not topics:
            raise ValueError("a consumer needs at least one topic")
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.pool = pool
        self.schema = schema
        self.name = name
        self.topics = list(topics)
        self.handler = handler
        self.bootstrap = bootstrap
        self.upcasters = upcasters or Upcasters()
        self.poll_timeout_ms = poll_timeout_ms
        self.max_records = max_records
        self.probe_interval = probe_interval
        self.backoff = Backoff(backoff_initial, backoff_max)
        self.waiting_for: list[str] = []  # topics of the subscription not created yet (diagnostics)
        self.topic_checks = 0  # how often it looked for them
        self.consumer_config = {**DEFAULT_CONSUMER_CONFIG, **(consumer_config or {})}
        self.probe = ClusterProbe(bootstrap)
        self.cluster_id: str | None = None
        self._probed_at = 0.0
        self.max_attempts = max_attempts
        self.dead_letters = DeadLetterPublisher(bootstrap, dead_letter_topic(service_name or schema))
        self.applied = 0  # events handled (new to the inbox)
        self.skipped = 0  # events already in the inbox, or older than the horizon
        self.dead_lettered = 0  # events given up on (see libs/bus/deadletters.py)
        self.types = None if types is None else frozenset(types)  # None: every type is handled
        self.ignored = 0  # events of a type not in ``types`` (no inbox row, no handler)
        self._failures: dict[Any, Failure] = {}  # event id -> failures in a row so far
        super().__init__()
        self.thread_name = f"consumer-{self.name}"
        self._claim = inbox.claim_query(schema)

    @property
    def seen(self) -> int:
        """Events taken from the topics so far, whatever became of them (dead letters aside)."""
        return self.applied + self.skipped + self.ignored

    # -- one message ---------------------------------------------------------------------------

    def apply(self, event: RecordedEvent, topic: str = "", partition: int = -1, offset: int = -1) -> bool:
        """Apply ``event`` once: True if the handler ran now, False if it was already applied (or
        occurred before the consumer's inbox horizon, or is of a type not in ``types``). Raises
        what the handler raises (nothing is written then) or a psycopg error."""
        event = self.upcasters.upcast(event)
        if self.types is not None and event.type not in self.types:
            self.ignored += 1
            return False
        with self.pool.connection() as conn, conn.transaction():
            params = inbox.claim_params(self.name, event, topic, partition, offset)
            inserted = conn.execute(self._claim, params).rowcount == 1
            if inserted:
                with caused_by(event):
                    self.handler(event, conn)
        if inserted:
            self.applied += 1
        else:
            self.skipped += 1
        return inserted

    def _apply_record(self, record: ConsumerRecord) -> None:
        if self.types is not None and header(record.headers, "type") not in (None, *self.types):
            self.ignored += 1  # known from the header: not even decoded (upcasters keep the type)
            return
        try:
            event = decode_value(record.value)
        except ValueError:
            log.error(
                "%s: %s[%d]@%d is not an event; skipped",
                self.name,
                record.topic,
                record.partition,
                record.offset,
            )
            return
        try:
            self.apply(event, record.topic, record.partition, record.offset)
        except Exception as exc:
            if database_unreachable(exc):
                log.warning("%s: database unreachable (%r); will retry", self.name, exc)
                raise HandlerFailed(str(event.event_id)) from exc
            failure = self._count_failure(event, exc)
            if failure.attempts < self.max_attempts and not isinstance(exc, (MalformedEvent, Unacceptable)):
                log.exception(
                    "%s: handling %s (%s) failed (attempt %d of %d); will retry",
                    self.name,
                    event.event_id,
                    event.type,
                    failure.attempts,
                    self.max_attempts,
                )
                raise HandlerFailed(str(event.event_id)) from exc
            self._dead_letter(event, failure, record)
        else:
            self._failures.pop(event.event_id, None)

    def _count_failure(self, event: RecordedEvent, exc: BaseException) -> Failure:
        before = self._failures.get(event.event_id)
        failure = Failure.first(exc) if before is None else before.again(exc)
        self._failures[event.event_id] = failure
        return failure

    def _dead_letter(self, event: RecordedEvent, failure: Failure, record: ConsumerRecord) -> None:
        """Record and publish ``event`` as a dead letter; raises ``HandlerFailed`` when either
        fails (the message comes again, fails again, and is recorded again: an upsert)."""
        try:
            letter = deadletters.record(
                self.pool,
                self.schema,
                self.name,
                event,
                failure,
                record.topic,
                record.partition,
                record.offset,
            )
            self.dead_letters.publish(letter)
        except Exception as exc:
            log.warning(
                "%s: cannot record dead letter %s yet (%r); will retry", self.name, event.event_id, exc
            )
            raise HandlerFailed(str(event.event_id)) from exc
        self._failures.pop(event.event_id, None)
        self.dead_lettered += 1
        log.error(
            "%s: %s (%s) at %s[%d]@%d failed %d times: dead letter %d; going on",
            self.name,
            event.event_id,
            event.type,
            record.topic,
            record.partition,
            record.offset,
            failure.attempts,
            letter.id,
        )

    # -- the Kafka side ------------------------------------------------------------------------

    def _connect(self) -> KafkaConsumer | None:
        """A consumer subscribed to ``topics`` once every one of them exists, or None when stopped
        first."""
        with self.pool.connection() as conn:
            inbox.register(conn, self.schema, self.name)  # before any purge of its inbox rows
        if not self._wait_for_topics():
            return None
        self.cluster_id = self.probe.cluster_id()
        self._probed_at = time.monotonic()
        consumer = KafkaConsumer(
            bootstrap_servers=self.bootstrap,
            group_id=group_id(self.name),
            client_id=f"arcana-{self.name}",
            **{**client_options(), **self.consumer_config},
        )
        consumer.subscribe(self.topics, listener=_OnRebalance(self, consumer))
        return consumer

    def _wait_for_topics(self) -> bool:
        """Wait until every topic of the subscription exists (the relays create them, each its
        own); False when stopped first. A group that joins before its topic exists is assigned no
        partition of it, and with the dev broker the rejoin once the topic appears is assigned none
        either, so the consumer would read nothing until it restarted
        (tests/integration/bus/test_consumer_topics.py). Making the consumer again once a topic
        appears did not help there: the new member of the group was never assigned anything."""
        while not self._stop.is_set():
            absent = self.probe.view(list(self.topics)).missing_topics
            missing = [topic for topic in self.topics if topic in absent]
            self.topic_checks += 1
            if missing and missing != self.waiting_for:
                log.info("%s: waiting for %s (the relays create them)", self.name, ", ".join(missing))
            self.waiting_for = missing
            if not missing:
                return True
            heartbeat.beat(f"consumer {self.name}")
            self._stop.wait(TOPIC_WAIT_SECONDS)
        return False

    def _ask_cluster(self, max_age: float | None = None) -> str | None:
        """The cluster id now (with ``max_age``: or as another runner of the process got it no
        longer ago), or None when the broker cannot be asked (the consumer reconnects)."""
        self._probed_at = time.monotonic()
        try:
            return self.probe.cluster_id() if max_age is None else RECENT.cluster_id(self.probe, max_age)
        except Exception as exc:
            log.info("%s: cannot ask the cluster id (%r)", self.name, exc)
            return None

    def _new_cluster(
        self, consumer: KafkaConsumer, current: str, partitions: list[TopicPartition] | None = None
    ) -> None:
        """A new broker: read every assigned partition again from its beginning."""
        log.warning("%s: new broker (cluster %s, was %s): reading again", self.name, current, self.cluster_id)
        self.cluster_id = current
        assigned = list(consumer.assignment()) if partitions is None else partitions
        if assigned:
            consumer.seek_to_beginning(*assigned)

    def _on_assigned(self, consumer: KafkaConsumer, partitions: list[TopicPartition]) -> None:
        """On assignment: distrust offsets committed on another cluster, as far as we can tell."""
        current = self._ask_cluster()
        if current is not None and current != self.cluster_id:
            self._new_cluster(consumer, current, partitions)
            return
        for tp in partitions:
            committed = consumer.committed(tp, metadata=True)
            # Kafka keeps the metadata we commit (our cluster id); the dev broker drops it ("").
            if committed is not None and committed.metadata and committed.metadata != self.cluster_id:
                log.warning(
                    "%s: offset %s of %s was committed on cluster %r, not %r: reading it from the start",
                    self.name,
                    committed.offset,
                    tp,
                    committed.metadata,
                    self.cluster_id,
                )
                consumer.seek_to_beginning(tp)

    def _check_cluster(self, consumer: KafkaConsumer) -> None:
        """Every ``probe_interval``: on a new cluster, read every assigned partition again. The
        answer may be another runner's of this process, no older than ``probe_interval``."""
        if time.monotonic() - self._probed_at < self.probe_interval:
            return
        current = self._ask_cluster(max_age=self.probe_interval)
        if current is not None and current != self.cluster_id:
            self._new_cluster(consumer, current)
        if not consumer.assignment():
            self._look_for_topics(consumer)

    def _look_for_topics(self, consumer: KafkaConsumer) -> None:
        """With nothing assigned, ask for the metadata of any topic the consumer does not know: a
        group that joined a new broker before the relay created the topic again was assigned
        nothing, and only a metadata change makes it join again. The periodic refresh is 30 s
        away (``metadata_max_age_ms``); this finds the topic within ``probe_interval``."""
        for topic in self.topics:
            consumer.partitions_for_topic(topic)  # unknown: fetched now, and a change rejoins

    def poll_once(self, consumer: KafkaConsumer) -> int:
        """Poll one batch, apply it, commit its offsets; return how many messages were seen.

        Offsets are committed only if the cluster is still the one asked before the poll: offsets
        read from a previous broker must never be committed on a new one (on a new cluster the
        group is also unknown, so such a commit is rejected by the broker as well).
        """
        self._check_cluster(consumer)
        cluster_at_poll = self.cluster_id
        batch = consumer.poll(timeout_ms=self.poll_timeout_ms, max_records=self.max_records)
        done: dict[TopicPartition, int] = {}
        failed = False
        seen = 0
        for tp, records in batch.items():
            for record in records:
                try:
                    self._apply_record(record)
                except HandlerFailed:
                    consumer.seek(tp, record.offset)
                    failed = True
                    break
                seen += 1
                done[tp] = record.offset + 1
        if done:
            self._commit(consumer, done, cluster_at_poll)
        if failed:
            self.backoff.wait(self._stop)
        elif seen:
            self.backoff.reset()
        return seen

    def _commit(self, consumer: KafkaConsumer, done: dict[TopicPartition, int], cluster: str | None) -> None:
        current = self._ask_cluster()
        if current is None or current != cluster:
            if current is not None and current != self.cluster_id:
                self._new_cluster(consumer, current)
            log.info("%s: offsets not committed (cluster changed or unreachable)", self.name)
            return
        offsets = {tp: OffsetAndMetadata(offset, current, -1) for tp, offset in done.items()}
        try:
            consumer.commit(offsets)
        except KafkaError as exc:  # e.g. rebalanced meanwhile: those messages come again
            log.warning("%s: offset commit failed (%r); messages will be redelivered", self.name, exc)

    # -- running -------------------------------------------------------------------------------

    def run(self, stop: threading.Event | None = None) -> None:
        """Consume until ``stop`` (default: this runner's own stop event) is set."""
        if stop is not None:
            self._stop = stop
        stop = self._stop
        consumer: KafkaConsumer | None = None
        try:
            while not stop.is_set():
                heartbeat.beat(f"consumer {self.name}")
                try:
                    if consumer is None:
                        consumer = self._connect()
                        if consumer is None:
                            break
                    metrics.polled(self.name, self.poll_once(consumer), consumer)
                except Exception as exc:
                    if isinstance(exc, KafkaError | OSError):
                        log.warning("%s: broker trouble (%r); reconnecting", self.name, exc)
                    else:
                        log.exception("%s: consumer loop failed; reconnecting", self.name)
                    consumer = self._close(consumer)
                    self.probe.close()
                    self.backoff.wait(stop)
        finally:
            self._close(consumer)
            self.probe.close()
            self.dead_letters.close()

    @staticmethod
    def _close(consumer: KafkaConsumer | None) -> None:
        if consumer is not None:
            try:
                consumer.close(autocommit=False)
            except Exception:
                log.debug("closing the consumer failed", exc_info=True)


def run_consumer_process(runner: ConsumerRunner) -> None:
    """Run ``runner`` in the current process until SIGTERM or SIGINT."""
    from libs.bus.process import setup_logging, stop_on_signals

    setup_logging()
    stop = threading.Event()
    stop_on_signals(stop)
    log.info("consumer %s on %s", runner.name, ", ".join(runner.topics))
    runner.run(stop)
    log.info("consumer %s stopped", runner.name)


def main(argv: list[str] | None = None) -> None:
    from libs.bus.loading import load_object
    from libs.bus.process import require_database, require_env
    from libs.db import RELAY_POOL_MAX, make_pool, pool_max

    parser = argparse.ArgumentParser(prog="python -m libs.bus.consumer", description=__doc__.split("\n")[0])
    parser.add_argument("--schema", required=True, help="PostgreSQL schema holding the inbox")
    parser.add_argument("--name", required=True, help="consumer name = Kafka group id")
    parser.add_argument("--topic", action="append", required=True, help="a topic (repeatable)")
    parser.add_argument("--handler", required=True, help="dotted.module:function(event, conn)")
    parser.add_argument(
        "--service", help="dead letters go to arcana.<service>.dead-letters (default: schema)"
    )
    parser.add_argument(
        "--max-attempts", type=int, default=5, help="failures on one event before a dead letter"
    )
    args = parser.parse_args(argv)
    # one subscription: a pool as small as a relay's
    pool = make_pool(
        require_database(), min_size=1, max_size=pool_max(RELAY_POOL_MAX), name=f"consumer-{args.name}"
    )
    try:
        runner = ConsumerRunner(
            pool,
            args.schema,
            args.name,
            args.topic,
            load_object(args.handler),
            require_env("KAFKA_BOOTSTRAP_SERVERS"),
            service_name=args.service,
            max_attempts=args.max_attempts,
        )
        run_consumer_process(runner)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
