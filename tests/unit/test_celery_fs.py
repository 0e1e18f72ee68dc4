"""The atomic filesystem transport: producer processes never hand the consumer a torn message."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from kombu import Connection, Exchange, Queue

from libs.celery_fs import Transport


def _queue(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A queue folder and transport options keeping every file under ``tmp_path``."""
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path / "control"),  # not the working directory
        "polling_interval": 0.01,
    }
    return folder, options


def test_concurrent_producers_and_a_consumer_lose_nothing(tmp_path: Path) -> None:
    _, options = _queue(tmp_path)
    queue = Queue("q", Exchange("x", type="direct"), routing_key="q")
    received: list[int] = []

    def produce(base: int) -> None:
        with Connection(transport=Transport, transport_options=options) as conn:
            producer = conn.Producer()
            for i in range(150):
                producer.publish(
                    {"n": base + i, "pad": "x" * 20_000},
                    exchange=queue.exchange,
                    routing_key="q",
                    declare=[queue],
                )

    with Connection(transport=Transport, transport_options=options) as conn:
        queue(conn.default_channel).declare()
        ctx = multiprocessing.get_context("fork")
        producers = [ctx.Process(target=produce, args=(k * 1000,)) for k in range(4)]
        with conn.Consumer(
            queue, callbacks=[lambda body, message: (received.append(body["n"]), message.ack())]
        ):
            for p in producers:
                p.start()
            while len(received) < 600:
                conn.drain_events(timeout=10)
        for p in producers:
            p.join(30)
    assert sorted(received) == sorted(k * 1000 + i for k in range(4) for i in range(150))


def test_a_torn_message_file_is_skipped_not_fatal(tmp_path: Path) -> None:
    folder, options = _queue(tmp_path)
    # Names of its own: kombu keeps declared exchanges in class-level state across connections.
    queue = Queue("qt", Exchange("xt", type="direct"), routing_key="qt")
    received: list[int] = []
    with Connection(transport=Transport, transport_options=options) as conn:
        queue(conn.default_channel).declare()
        (folder / "0_torn.qt.msg").write_bytes(b"")  # what kombu's own writer exposes for a moment
        conn.Producer().publish({"n": 1}, exchange=queue.exchange, routing_key="qt")
        with conn.Consumer(
            queue, callbacks=[lambda body, message: (received.append(body["n"]), message.ack())]
        ):
            conn.drain_events(timeout=5)
            if not received:
                conn.drain_events(timeout=5)
    assert received == [1]
