"""Publishing a page of messages to one topic in a few produce requests, for the outbox relay.

``KafkaProducer.send`` costs about 40 us of CPU per message in kafka-python (a future, a size
estimate, the accumulator, the partitioner, a wake-up of its I/O thread), which capped the relay
at about 13,000 events/s. A relay does not need a general producer: it publishes a page of events
and then waits for the broker to confirm the whole page before recording its progress. So this
module builds one record batch per partition for the page (the same record format and the same
murmur2 partitioning of keys as ``KafkaProducer``, so a stream stays in its partition), sends one
produce request per partition leader with ``acks=all``, and waits for every answer. Any error
raises, and the relay then publishes the page again: duplicates are allowed, losses are not.

Order: a page's messages are appended to their partition's batch in the page's order, a request
is answered before the next one is sent, and a page is confirmed before the next page is read.
A page larger than ``max_request_bytes`` goes out in several requests, one after the other.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kafka import errors as kafka_errors
from kafka.client_async import KafkaClient
from kafka.partitioner.default import murmur2
from kafka.protocol.produce import ProduceRequest
from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.structs import TopicPartition

from libs.bus.security import client_options

Headers = list[tuple[str, bytes]]

RECORD_FORMAT = 2  # the record batch format of Kafka >= 0.11 (headers need it)
NO_COMPRESSION = 0
ALL_REPLICAS = -1  # acks=all
NO_PRODUCER_ID = -1


@dataclass(frozen=True)
class Message:
    """One message of a page: its key (chooses the partition), value and headers."""

    key: bytes
    value: bytes
    headers: Headers


class BatchPublisher:
    """Publishes pages of messages to ``topic``; ``publish`` returns once the broker confirmed all."""

    def __init__(
        self,
        bootstrap: str,
        topic: str,
        *,
        request_timeout_ms: int = 15000,
        max_request_bytes: int = 900_000,
        client_id: str = "arcana-relay",
    ) -> None:
        self.topic = topic
        self.timeout_ms = request_timeout_ms
        self.max_request_bytes = max_request_bytes
        self.client = KafkaClient(
            bootstrap_servers=bootstrap,
            client_id=client_id,
            request_timeout_ms=request_timeout_ms,
            api_version_auto_timeout_ms=5000,
            reconnect_backoff_max_ms=1000,
            allow_auto_create_topics=False,
            **client_options(),
        )
        self._partition_of: dict[bytes, int] = {}
        self._partitions: list[int] = []

    # -- the one operation ---------------------------------------------------------------------

    def publish(self, messages: Sequence[Message]) -> None:
        """Send ``messages`` in order and wait until the broker confirmed every one; raise if not."""
        partitions = self._topic_partitions()
        batches: dict[int, _PartitionBatch] = {}
        pending_bytes = 0
        timestamp = int(time.time() * 1000)
        for message in messages:
            partition = self._partition(message.key, partitions)
            batch = batches.get(partition)
            if batch is None:
                batch = batches[partition] = _PartitionBatch()
            pending_bytes += batch.add(message, timestamp)
            if pending_bytes >= self.max_request_bytes:
                self._send_and_confirm(batches)
                batches, pending_bytes = {}, 0
        if batches:
            self._send_and_confirm(batches)

    def close(self) -> None:
        self.client.close()

    # -- partitions and leaders ----------------------------------------------------------------

    def _topic_partitions(self) -> list[int]:
        """The topic's partitions, sorted (what ``KafkaProducer``'s partitioner indexes into)."""
        if not self._partitions:
            self.client.add_topic(self.topic)
            future = self.client.cluster.request_update()  # fresh metadata, also after an error
            self.client.poll(future=future, timeout_ms=self.timeout_ms)
            found = self.client.cluster.partitions_for_topic(self.topic)
            if not found:
                self.client.cluster.request_update()
                raise kafka_errors.UnknownTopicOrPartitionError(f"{self.topic}: no partitions known")
            self._partitions = sorted(found)
            self._partition_of.clear()
        return self._partitions

    def _partition(self, key: bytes, partitions: list[int]) -> int:
        """``KafkaProducer``'s default partitioner (murmur2 of the key), remembered per key."""
        partition = self._partition_of.get(key)
        if partition is None:
            partition = partitions[(murmur2(key) & 0x7FFFFFFF) % len(partitions)]
            self._partition_of[key] = partition
        return partition

    def _leader(self, partition: int) -> int:
        leader = self.client.cluster.leader_for_partition(TopicPartition(self.topic, partition))
        if leader is None or leader < 0:
            self._forget_metadata()
            raise kafka_errors.LeaderNotAvailableError(f"{self.topic}[{partition}]: no leader")
        return int(leader)

    def _forget_metadata(self) -> None:
        """After a leader or partition error: ask for fresh metadata before the next page."""
        self._partitions = []
        self.client.cluster.request_update()

    # -- requests ------------------------------------------------------------------------------

    def _send_and_confirm(self, batches: dict[int, _PartitionBatch]) -> None:
        """One produce request per leader with every partition it leads; wait for every answer."""
        by_leader: dict[int, list[tuple[int, bytes]]] = defaultdict(list)
        for partition, batch in batches.items():
            by_leader[self._leader(partition)].append((partition, batch.build()))
        futures = [self._send(node, records) for node, records in by_leader.items()]
        for future in futures:
            self._await(future)
            self._check(future.value)

    def _send(self, node: int, records: list[tuple[int, bytes]]) -> Any:
        if not self.client.await_ready(node, timeout_ms=self.timeout_ms):
            raise kafka_errors.KafkaConnectionError(f"broker {node} not ready")
        version = self.client.api_version(ProduceRequest, max_version=8)
        if version < 3:
            raise kafka_errors.UnsupportedVersionError("the broker does not take record batches with headers")
        request = ProduceRequest[version](
            transactional_id=None,
            required_acks=ALL_REPLICAS,
            timeout=self.timeout_ms,
            topics=[(self.topic, records)],
        )
        return self.client.send(node, request)

    def _await(self, future: Any) -> None:
        deadline = time.monotonic() + self.timeout_ms / 1000
        while not future.is_done:
            remaining_ms = int((deadline - time.monotonic()) * 1000)
            if remaining_ms <= 0:
                raise kafka_errors.KafkaTimeoutError(f"{self.topic}: no produce answer in time")
            self.client.poll(future=future, timeout_ms=remaining_ms)
        if future.failed():
            raise future.exception

    def _check(self, response: Any) -> None:
        """Raise the first partition error of a produce answer (a leader change: fresh metadata)."""
        for _topic, partitions in response.topics:
            for answer in partitions:
                partition, error_code = answer[0], answer[1]
                if error_code != 0:
                    error = kafka_errors.for_code(error_code)
                    if error.invalid_metadata:
                        self._forget_metadata()
                    raise error(f"{self.topic}[{partition}]")


class _PartitionBatch:
    """The records of one partition in one request: a record batch and how many it holds."""

    def __init__(self) -> None:
        self.builder = DefaultRecordBatchBuilder(
            RECORD_FORMAT,
            NO_COMPRESSION,
            is_transactional=False,
            producer_id=NO_PRODUCER_ID,
            producer_epoch=NO_PRODUCER_ID,
            base_sequence=NO_PRODUCER_ID,
            batch_size=2**31 - 1,  # the publisher bounds a request (max_request_bytes), not the builder
        )
        self.count = 0

    def add(self, message: Message, timestamp: int) -> int:
        """Append ``message`` (offsets count from 0 within the batch); return the bytes it added."""
        before = self.builder.size()
        self.builder.append(self.count, timestamp, message.key, message.value, message.headers)
        self.count += 1
        return self.builder.size() - before

    def build(self) -> bytes:
        return bytes(self.builder.build())
