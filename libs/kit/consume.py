"""Run services' Kafka subscriptions: ``python -m libs.kit.consume SERVICE [SERVICE ...]``.

Every ``Subscription`` of each service runs as an idempotent consumer (libs/bus/consumer.py) in a
thread of this process, on the service's object; SIGTERM stops them all after their current step.
A production pod runs one service's; ``make run`` and the e2e stacks run every consuming service's
in one process. A runner whose thread ends on its own ends the process (status 1), so that its
supervisor starts it again.
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
    from libs.bus.process import run_in_threads, setup_logging, stop_on_signals
    from libs.db import CONSUMERS_POOL_MAX
    from libs.kit.runtime import built

    parser = argparse.ArgumentParser(
        prog="python -m libs.kit.consume",
        description=__doc__.split("\n")[0]
        + " Several services: each one's subscriptions, all in threads of this one process.",
    )
    parser.add_argument("service", nargs="+", help="a service whose subscriptions to run")
    args = parser.parse_args(argv)
    setup_logging()
    # One pool per process (docs/operations.md, "Connection budget"): a service's share for each.
    size = CONSUMERS_POOL_MAX * len(args.service)
    built_ = [built(name, pool_size=size) for name in args.service]
    bootstrap = built_[0][0].settings.kafka_bootstrap_servers
    if not bootstrap:
        raise SystemExit("KAFKA_BOOTSTRAP_SERVERS must be set")
    client_options()  # a wrong Kafka security setting stops the process here
    stop = threading.Event()
    stop_on_signals(stop)
    loops = [r for runtime, service in built_ for r in runners(runtime, service, bootstrap)]
    metrics.serve(*(metrics.DeadLetterCollector(runtime.pool, runtime.schema) for runtime, _ in built_))
    log.info("%s: consuming %s", ", ".join(args.service), ", ".join(r.name for r in loops))
    run_in_threads({r.name: r.run for r in loops}, stop)


if __name__ == "__main__":
    main()
