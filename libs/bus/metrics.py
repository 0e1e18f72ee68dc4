"""Prometheus metrics of the bus processes (relays and consumers), on their own port.

- ``arcana_relay_pending_events`` and ``arcana_relay_oldest_pending_age_seconds``: events stored but
  not yet published, and how long the oldest has waited (read from the event store at each scrape);
- ``arcana_consumer_lag_messages``: messages on the consumer's assigned partitions it has not read
  yet (the broker's high-water mark minus the consumer's position, as of its last poll);
- ``arcana_consumer_last_applied_timestamp_seconds``: when the consumer last applied a message;
- ``arcana_dead_letters_waiting``: dead letters not yet retried, per consumer (at each scrape).

A process serves them on ``ARCANA_METRICS_PORT`` when it is set (the Deployments use 9100; the
monitoring component scrapes it). Alerts: deploy/k8s/components/monitoring/rules.yaml.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence

from kafka import KafkaConsumer
from prometheus_client import REGISTRY, Gauge, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs import config

PORT_ENV = config.METRICS_PORT.name
log = logging.getLogger(__name__)

CONSUMER_LAG = Gauge(
    "arcana_consumer_lag_messages", "Messages on the assigned partitions not read yet.", ["consumer"]
)
LAST_APPLIED = Gauge(
    "arcana_consumer_last_applied_timestamp_seconds",
    "When the consumer last applied a message.",
    ["consumer"],
)


def polled(name: str, applied: int, consumer: KafkaConsumer) -> None:
    """After a poll of consumer ``name``: its lag, and the time when it applied something."""
    if applied:
        LAST_APPLIED.labels(name).set_to_current_time()
    lag = 0
    for tp in consumer.assignment():
        high = consumer.highwater(tp)
        if high is not None:
            lag += max(0, high - consumer.position(tp))
    CONSUMER_LAG.labels(name).set(lag)


class RelayCollector(Collector):
    """Pending events of one relay, read at scrape time."""

    def __init__(self, pool: ConnectionPool, schema: str, relay: str) -> None:
        self.pool, self.relay = pool, relay
        self.query = sql.SQL(
            "SELECT count(*), coalesce(extract(epoch FROM now() - min(recorded_at)), 0) FROM {events} "
            "WHERE position > coalesce((SELECT position FROM {progress} WHERE relay = %s), 0)"
        ).format(events=sql.Identifier(schema, "events"), progress=sql.Identifier(schema, "relay_progress"))

    def collect(self) -> Iterator[GaugeMetricFamily]:
        with self.pool.connection() as conn:
            row = conn.execute(self.query, (self.relay,)).fetchone()
        count, age = row if row else (0, 0)
        pending = GaugeMetricFamily(
            "arcana_relay_pending_events", "Events not yet published.", labels=["relay"]
        )
        pending.add_metric([self.relay], float(count))
        oldest = GaugeMetricFamily(
            "arcana_relay_oldest_pending_age_seconds",
            "Age of the oldest unpublished event.",
            labels=["relay"],
        )
        oldest.add_metric([self.relay], float(age))
        yield pending
        yield oldest


class DeadLetterCollector(Collector):
    """Dead letters waiting in one schema, per consumer, read at scrape time."""

    def __init__(self, pool: ConnectionPool, schema: str) -> None:
        self.pool = pool
        self.query = sql.SQL(
            "SELECT consumer, count(*) FROM {} WHERE status = 'dead' GROUP BY consumer"
        ).format(sql.Identifier(schema, "dead_letters"))

    def collect(self) -> Iterator[GaugeMetricFamily]:
        with self.pool.connection() as conn:
            rows = conn.execute(self.query).fetchall()
        waiting = GaugeMetricFamily(
            "arcana_dead_letters_waiting", "Dead letters not yet retried.", labels=["consumer"]
        )
        for consumer, count in rows:
            waiting.add_metric([consumer], float(count))
        yield waiting


class Combined(Collector):
    """Several collectors as one, each metric family once with the samples of all (the registry
    refuses two collectors of the same metric: a process relaying several services has one
    ``RelayCollector`` per relay)."""

    def __init__(self, collectors: Sequence[Collector]) -> None:
        self.collectors = list(collectors)

    def collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        for collector in self.collectors:
            for family in collector.collect():
                if family.name in families:
                    families[family.name].samples.extend(family.samples)
                else:
                    families[family.name] = family
        yield from families.values()


def serve(*collectors: Collector) -> int | None:
    """Register ``collectors`` and serve every metric on ``ARCANA_METRICS_PORT`` (None: unset)."""
    port = config.METRICS_PORT.get()
    if port is None:
        return None
    REGISTRY.register(Combined(collectors))
    start_http_server(port)
    log.info("metrics on port %s", port)
    return port
