"""Which Kafka cluster are we talking to? A tiny metadata probe.

The dev broker keeps nothing across restarts, and a replaced production cluster starts empty too.
Both the relay and the consumer runner must notice that and start again from the beginning. The
signal is the **cluster id** that every broker reports in its metadata (Kafka generates a unique
one per cluster; ``DevBroker`` starts Tansu with a fresh random ``--cluster-id`` on every start).

The probe sends a ``MetadataRequest`` of at most version 7 (v8 asks for authorized operations,
which kafka-python 2.3 cannot decode from Tansu) with topic auto-creation off, so asking about a
topic never creates it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from kafka.client_async import KafkaClient
from kafka.errors import KafkaConnectionError, KafkaTimeoutError, NoBrokersAvailable
from kafka.protocol.metadata import MetadataRequest

from libs.bus.security import client_options

UNKNOWN_TOPIC_OR_PARTITION = 3


@dataclass(frozen=True)
class ClusterView:
    cluster_id: str
    missing_topics: frozenset[str]


class ClusterProbe:
    """One connection to the cluster, used only for metadata; reconnects after failures."""

    def __init__(self, bootstrap: str, *, timeout_ms: int = 5000, **config: Any) -> None:
        self.bootstrap = bootstrap
        self.timeout_ms = timeout_ms
        self.config = config
        self._client: KafkaClient | None = None

    def _connect(self) -> KafkaClient:
        if self._client is None:
            self._client = KafkaClient(
                bootstrap_servers=self.bootstrap,
                client_id="arcana-bus-probe",
                request_timeout_ms=self.timeout_ms,
                api_version_auto_timeout_ms=self.timeout_ms,
                reconnect_backoff_max_ms=1000,
                **{**client_options(), **self.config},
            )
        return self._client

    def view(self, topics: list[str] | None = None) -> ClusterView:
        """The cluster id and which of ``topics`` do not exist; raises a KafkaError when unreachable."""
        try:
            return self._view(list(topics or []))
        except Exception:
            self.close()
            raise

    def cluster_id(self) -> str:
        return self.view().cluster_id

    def _view(self, topics: list[str]) -> ClusterView:
        client = self._connect()
        node = client.least_loaded_node()
        if node is None:
            raise NoBrokersAvailable("no broker to ask for metadata")
        if not client.await_ready(node, timeout_ms=self.timeout_ms):
            raise KafkaConnectionError(f"broker {node} not ready")
        version = client.api_version(MetadataRequest, max_version=7)
        if version < 2:
            raise KafkaConnectionError("the broker reports no cluster id (MetadataRequest < v2)")
        if version >= 4:
            request = MetadataRequest[version](topics=topics, allow_auto_topic_creation=False)
        else:
            request = MetadataRequest[version](topics=topics)
        future = client.send(node, request)
        client.poll(future=future, timeout_ms=self.timeout_ms)
        if not future.is_done:
            raise KafkaTimeoutError("no metadata answer in time")
        if future.failed():
            raise future.exception
        response = future.value
        missing = frozenset(
            t[1] for t in response.topics if t[0] == UNKNOWN_TOPIC_OR_PARTITION and t[1] in topics
        )
        return ClusterView(cluster_id=str(response.cluster_id), missing_topics=missing)

    def close(self) -> None:
        if self._client is not None:
            try:
                self._client.close()
            finally:
                self._client = None


class RecentAnswers:
    """The last cluster id any probe of this process got from each bootstrap address, for periodic
    checks: the runners of one process (``make run``'s consumers: a thread for each of about 20
    subscriptions) each asked once a second, 20 metadata requests a second to say nothing changed.
    With this, one of them asks per interval and the others take its answer. An answer counts as
    old as the moment its question was sent. Checks that guard a commit ask their own probe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[float, str]] = {}

    def cluster_id(self, probe: ClusterProbe, max_age: float) -> str:
        """The cluster id at ``probe``'s address, asked at most ``max_age`` seconds ago; raises
        what ``probe.cluster_id`` raises when it has to ask and cannot."""
        with self._lock:
            seen = self._seen.get(probe.bootstrap)
        if seen is not None and time.monotonic() - seen[0] < max_age:
            return seen[1]
        asked_at = time.monotonic()
        found = probe.cluster_id()
        with self._lock:
            if self._seen.get(probe.bootstrap, (float("-inf"), ""))[0] < asked_at:
                self._seen[probe.bootstrap] = (asked_at, found)
        return found


RECENT = RecentAnswers()
