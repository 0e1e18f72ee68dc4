"""Run a service's Kafka subscriptions: ``python -m libs.kit.consume SERVICE``.

Every ``Subscription`` of the service runs as an idempotent consumer (libs/bus/consumer.py) in a
thread of this process, on the service's object; SIGTERM stops them all after their current step.
"""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs.bus import metrics
from libs.bus.consumer import ConsumerRunner, Handler
from libs.bus.security import client_options
from libs.eventstore import RecordedEvent
from libs.kit.definition import Subscription
from libs.kit.runtime import Runtime

log = logging.getLogger(__name__)


def handler_for(subscription: Subscription, service: Any, schema: str | None = None) -> Handler:
    """The runner's handler: the subscription's function for the event's type, others ignored.
    ``schema``: the consumer's schema (required by a subscription with a ``receiver``)."""
    if subscription.receiver is not None:
        if schema is None:
            raise ValueError(f"subscription {subscription.name!r} needs the consumer's schema")
        target = subscription.receiver(service, schema)
    else:
        target = service

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        apply = subscription.handlers.get(event.type)
        if apply is not None:
            apply(target, event, conn)

    return handle


def subscription_runner(
    sub: Subscription,
    service: Any,
    pool: ConnectionPool,
    schema: str,
    bootstrap: str,
    *,
    topics: Sequence[str] | None = None,
    name: str | None = None,
    **options: Any,
) -> ConsumerRunner:
    """The idempotent consumer of one subscription (``topics``/``name`` replace the declared ones in
    tests; ``options``: ConsumerRunner keywords)."""
    return ConsumerRunner(
        pool,
        schema,
        name or sub.name,
        list(topics or sub.topics),
        handler_for(sub, service, schema),
        bootstrap,
        **{"types": sub.handlers.keys(), **options},
    )


def runners(runtime: Runtime, service: Any, bootstrap: str, **options: Any) -> list[ConsumerRunner]:
    """One runner per subscription of the runtime's service."""
    return [
        subscription_runner(
            sub,
            service,
            runtime.pool,
            runtime.schema,
            bootstrap,
            **{"service_name": runtime.service.name, **options},
        )
        for sub in runtime.service.subscriptions
    ]


def main(argv: list[str] | None = None) -> None:
    from libs.bus.process import setup_logging, stop_on_signals
    from libs.kit.runtime import built

    parser = argparse.ArgumentParser(prog="python -m libs.kit.consume", description=__doc__.split("\n")[0])
    parser.add_argument("service")
    args = parser.parse_args(argv)
    setup_logging()
    runtime, service = built(args.service)
    bootstrap = runtime.settings.kafka_bootstrap_servers
    if not bootstrap:
        raise SystemExit("KAFKA_BOOTSTRAP_SERVERS must be set")
    client_options()  # a wrong Kafka security setting stops the process here
    stop = threading.Event()
    stop_on_signals(stop)
    loops = runners(runtime, service, bootstrap)
    metrics.serve(metrics.DeadLetterCollector(runtime.pool, runtime.schema))
    threads = [threading.Thread(target=r.run, args=(stop,), name=r.name) for r in loops]
    for t in threads:
        t.start()
    log.info("%s: consuming %s", args.service, ", ".join(r.name for r in loops))
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
