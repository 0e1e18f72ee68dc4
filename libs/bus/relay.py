"""The outbox relay: publishes a service's events to Kafka, in position order, never losing one.

The events table is the outbox. The relay follows ``EventStore.read_all`` from its recorded
progress and, for each page (``batch_size`` events): publishes every event to
``arcana.<service>.events`` keyed by stream, as one record batch per partition
(``libs/bus/batch_publish.py``: ``acks=all``, requests answered one after the other, so a
stream's events keep their order in its partition), waits until the broker confirmed the whole
page, and only then records the page's last position in ``<schema>.relay_progress``. A crash
anywhere before that record means the page is published again: duplicates are allowed
(consumers are idempotent), losses are not.

Polling: while it finds events it polls every ``poll_interval`` (0.2 s; at once after a full
page). While it finds none, the wait doubles up to ``idle_max`` (1 s), so the relay of a quiet
service costs about one step a second; the first event after a quiet spell is published within
about ``idle_max``.

When the broker is unreachable the relay retries with bounded exponential backoff; it never
crashes and never skips (progress only moves after a confirmed publish).

A NEW broker (the dev broker keeps nothing; a replaced cluster starts empty) is detected by the
cluster id recorded with the progress: before each batch the relay asks the cluster for its id
(``libs/bus/cluster.py``); a different id means everything must be published again, so the
progress is reset to 0 for that cluster and the relay republishes from the first event. After
publishing a batch the id is checked again, so a batch that may have gone to the previous broker
is never recorded as published to the new one. As a fallback for a broker that reuses a cluster
id, a topic that no longer exists while progress is above 0 also resets progress to 0.

The relay creates its topic when it is missing (``partitions``, ``replication_factor``; -1 means
the broker's default) and its publisher never auto-creates topics (nor do the consumers), so "the
topic is missing" really means the broker lost it. Production may pre-create the topic instead.

A service may declare a ``Publication`` (``libs/bus/publication.py``: ``ServiceDef.publication``) that
says what each stored event becomes on which topics (e.g. match: a public form on its events topic,
complete records of ended matches on a second topic); the relay then publishes each page's messages
topic by topic, every topic's confirmed before the page's progress is recorded, and creates every
topic of the publication when missing (a missing one with progress above 0 means publishing again
from the start, which also fills a newly declared topic). The progress stays that of
``arcana.<service>.events``. Without one, every event goes as stored to ``arcana.<service>.events``.

Run one relay per service (``python -m libs.kit.relay --service NAME --schema SCHEMA`` with
``DATABASE_URL`` and ``KAFKA_BOOTSTRAP_SERVERS`` set; SIGTERM/SIGINT stop it cleanly). Two at
once are safe but publish duplicates. For tests, ``ARCANA_FAULT=kill_after_publish`` makes the
process SIGKILL itself between publishing and recording progress (``libs/bus/faults.py``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg
from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kafka.errors import KafkaError, TopicAlreadyExistsError
from psycopg import sql
from psycopg_pool import PoolTimeout

from libs.bus import faults, heartbeat
from libs.bus.background import BackgroundLoop
from libs.bus.backoff import Backoff
from libs.bus.batch_publish import BatchPublisher, Message
from libs.bus.cluster import ClusterProbe
from libs.bus.publication import Publication
from libs.bus.security import client_options
from libs.bus.topics import message_headers, message_key, message_value, topic_for
from libs.eventstore import EventStore, RecordedEvent

log = logging.getLogger(__name__)


class BrokerChanged(Exception):
    """The cluster changed while a batch was being published: the batch is not recorded."""


class SchemaViolation(Exception):
    """An event does not match what its topic declares (strict checking): nothing is published."""


# (topic, event as published) -> its problems against the topic's declared schema (libs.kit.schemas)
SchemaCheck = Callable[[str, RecordedEvent], list[str]]
CHECK_MODES = ("off", "log", "strict")


class OutboxRelay(BackgroundLoop):
    """Publishes the events of ``store`` (one service's schema) to ``arcana.<service>.events``."""

    def __init__(
        self,
        store: EventStore,
        service: str,
        bootstrap: str,
        *,
        batch_size: int = 2000,
        poll_interval: float = 0.2,
        idle_max: float = 1.0,
        backoff_initial: float = 0.1,
        backoff_max: float = 5.0,
        request_timeout: float = 15.0,
        partitions: int = 4,
        replication_factor: int = -1,
        publication: Publication | None = None,
        check: SchemaCheck | None = None,
        strict: bool = False,
    ) -> None:
        self.store = store
        self.check = check
        self.strict = strict
        self.service = service
        self.topic = topic_for(service)
        self.publication = publication
        self.topics = publication.topics if publication is not None else (self.topic,)
        if self.topics[0] != self.topic:
            raise ValueError(f"a publication's first topic must be {self.topic}, not {self.topics[0]}")
        self.bootstrap = bootstrap
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        # Polls while nothing is new: poll_interval, doubling up to idle_max (an idle relay of a
        # quiet service asks PostgreSQL and the broker about once a second, not five times).
        self.idle = Backoff(poll_interval, max(idle_max, poll_interval))
        self.backoff = Backoff(backoff_initial, backoff_max)
        self.request_timeout = request_timeout
        self.partitions = partitions
        self.replication_factor = replication_factor
        self.probe = ClusterProbe(bootstrap)
        self._publishers: dict[str, BatchPublisher] = {}
        self._publisher_cluster: str | None = None
        super().__init__()
        self.thread_name = f"relay-{self.service}"
        progress = sql.Identifier(store.schema, "relay_progress")
        self._select_progress = sql.SQL("SELECT position, cluster_id FROM {} WHERE relay = %s").format(
            progress
        )
        self._upsert_progress = sql.SQL(
            "INSERT INTO {} (relay, position, cluster_id) VALUES (%s, %s, %s) "
            "ON CONFLICT (relay) DO UPDATE SET position = EXCLUDED.position, "
            "cluster_id = EXCLUDED.cluster_id, updated_at = now()"
        ).format(progress)

    # -- progress ------------------------------------------------------------------------------

    def progress(self) -> tuple[int, str | None]:
        """(last published position, cluster id it was published to); (0, None) before any."""
        with self.store.pool.connection() as conn:
            row = conn.execute(self._select_progress, (self.topic,)).fetchone()
        return (int(row[0]), row[1]) if row else (0, None)

    def _record(self, position: int, cluster_id: str) -> None:
        with self.store.pool.connection() as conn:
            conn.execute(self._upsert_progress, (self.topic, position, cluster_id))

    # -- one step ------------------------------------------------------------------------------

    def step(self) -> int:
        """Publish the next batch, if any; return how many events were published.

        Raises on any broker or database failure; nothing is recorded then.
        """
        view = self.probe.view(list(self.topics))
        position, known_cluster = self.progress()
        if known_cluster != view.cluster_id:
            if known_cluster is not None:
                log.warning(
                    "%s: new broker (cluster %s, was %s): publishing again from the start",
                    self.topic,
                    view.cluster_id,
                    known_cluster,
                )
            position = 0
            self._record(0, view.cluster_id)
        missing = [t for t in self.topics if t in view.missing_topics]
        if missing:
            if position > 0:
                log.warning("%s: topic %s is gone: publishing again from the start", self.topic, missing[0])
                position = 0
                self._record(0, view.cluster_id)
            for topic in missing:
                self._create_topic(topic)
        events = self.store.read_all(position, self.batch_size)
        if not events:
            return 0
        self._publish(events, view.cluster_id)
        faults.maybe_die(faults.KILL_AFTER_PUBLISH)
        if self.probe.cluster_id() != view.cluster_id:
            raise BrokerChanged(f"{self.topic}: the cluster changed during a publish")
        self._record(events[-1].position, view.cluster_id)
        log.debug("%s: published up to position %d", self.topic, events[-1].position)
        return len(events)

    def _publish(self, events: list[RecordedEvent], cluster_id: str) -> None:
        """Send the page and return once the broker confirmed every message of it (raise if not)."""
        for topic, messages in self._messages(events).items():
            self._publisher_for(cluster_id, topic).publish(messages)

    def _messages(self, events: list[RecordedEvent]) -> dict[str, list[Message]]:
        """The page's messages per topic, in the page's order (the publication's, else as stored)."""
        by_topic: dict[str, list[Message]] = {t: [] for t in self.topics}
        for event in events:
            routed = self.publication.route(event, self.store) if self.publication else [(self.topic, event)]
            for topic, published in routed:
                self._check(topic, published)
                by_topic[topic].append(
                    Message(message_key(published), message_value(published), message_headers(published))
                )
        return {t: m for t, m in by_topic.items() if m}

    def _check(self, topic: str, event: RecordedEvent) -> None:
        """Log (or, strict, refuse the page for) an event that does not match its topic's schema."""
        found = self.check(topic, event) if self.check is not None else []
        if not found:
            return
        message = f"{topic}: event {event.event_id} ({event.stream} v{event.version}): {'; '.join(found)}"
        log.error("schema violation: %s", message)
        if self.strict:
            raise SchemaViolation(message)

    def _create_topic(self, topic: str | None = None) -> None:
        topic = topic or self.topic
        admin = KafkaAdminClient(
            bootstrap_servers=self.bootstrap,
            client_id="arcana-relay-admin",
            request_timeout_ms=10000,
            api_version_auto_timeout_ms=5000,
            **client_options(),
        )
        try:
            admin.create_topics([NewTopic(topic, self.partitions, self.replication_factor)])
            log.info("%s: topic created (%d partitions)", topic, self.partitions)
        except TopicAlreadyExistsError:
            pass
        finally:
            admin.close()

    def _publisher_for(self, cluster_id: str, topic: str) -> BatchPublisher:
        """The publisher of ``topic`` connected to ``cluster_id`` (new ones after the cluster changed)."""
        if self._publishers and self._publisher_cluster != cluster_id:
            self._drop_publisher()
        publisher = self._publishers.get(topic)
        if publisher is None:
            publisher = self._publishers[topic] = BatchPublisher(
                self.bootstrap, topic, request_timeout_ms=int(self.request_timeout * 1000)
            )
            self._publisher_cluster = cluster_id
        return publisher

    def _drop_publisher(self) -> None:
        for publisher in self._publishers.values():
            try:
                publisher.close()
            except Exception:  # closing a broken connection must not stop the relay
                log.debug("closing the publisher failed", exc_info=True)
        self._publishers.clear()

    # -- running -------------------------------------------------------------------------------

    def run(self, stop: threading.Event | None = None) -> None:
        """Publish until ``stop`` (default: this relay's own stop event) is set."""
        stop = stop or self._stop
        try:
            while not stop.is_set():
                heartbeat.beat(f"relay {self.topic}")
                try:
                    published = self.step()
                except BrokerChanged as exc:
                    log.warning("%s", exc)
                    continue
                except (KafkaError, OSError) as exc:
                    log.warning("%s: broker unavailable (%r); retrying", self.topic, exc)
                    self._drop_publisher()
                    self.probe.close()
                    self.backoff.wait(stop)
                    continue
                except (psycopg.OperationalError, PoolTimeout) as exc:
                    log.warning("%s: database unavailable (%r); retrying", self.topic, exc)
                    self.backoff.wait(stop)
                    continue
                except Exception:
                    log.exception("%s: relay step failed; retrying", self.topic)
                    self._drop_publisher()
                    self.backoff.wait(stop)
                    continue
                self.backoff.reset()
                if published == 0:
                    self.idle.wait(stop)
                    continue
                self.idle.reset()
                if published < self.batch_size:
                    stop.wait(self.poll_interval)
        finally:
            self._drop_publisher()
            self.probe.close()
