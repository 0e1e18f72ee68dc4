"""Services' outbox relays as a process: ``python -m libs.kit.relay --service NAME [--service ...]``.

The relay itself is ``libs/bus/relay.py``; this command gives it what the service declares
(``ServiceDef.publication``, and the check of what it publishes against its declared catalogs:
``ARCANA_SCHEMA_CHECK``). It needs ``DATABASE_URL`` and ``KAFKA_BOOTSTRAP_SERVERS``;
SIGTERM/SIGINT stop it cleanly.
"""

from __future__ import annotations

import argparse
import logging
import threading

from libs import config
from libs.bus import metrics
from libs.bus.publication import Publication
from libs.bus.relay import CHECK_MODES, OutboxRelay, SchemaCheck
from libs.bus.security import client_options
from libs.eventstore import EventStore
from libs.kit.registry import definition
from libs.kit.schemas import catalog_check

log = logging.getLogger(__name__)


def declared_publication(service: str) -> Publication | None:
    """The ``Publication`` service ``service`` declares (None: none, or no such service here)."""
    try:
        return definition(service).publication
    except LookupError:
        return None


def declared_check(service: str) -> SchemaCheck | None:
    """The check of what ``service`` publishes against its declared catalogs (None: no such service)."""
    try:
        return catalog_check(definition(service).events)
    except LookupError:
        return None


def check_mode() -> str:
    """``ARCANA_SCHEMA_CHECK``: ``off``, ``log`` (the default: a violation is logged, the event
    published) or ``strict`` (the page is refused: the tests run so)."""
    mode = config.SCHEMA_CHECK.get()
    if mode not in CHECK_MODES:
        raise ValueError(f"ARCANA_SCHEMA_CHECK must be one of {', '.join(CHECK_MODES)}, not {mode!r}")
    return mode


def pairs(services: list[str], schemas: list[str] | None) -> list[tuple[str, str]]:
    """(service, schema) of each relay: ``--schema`` given once per ``--service``, in the same order,
    or not at all (each service's schema is named after it)."""
    if not schemas:
        return [(service, service) for service in services]
    if len(schemas) != len(services):
        raise SystemExit("give --schema once per --service (in the same order), or not at all")
    return list(zip(services, schemas, strict=True))


def main(argv: list[str] | None = None) -> None:
    from libs.bus.process import require_env, run_in_threads, setup_logging, stop_on_signals
    from libs.db import RELAY_POOL_MAX, make_pool, pool_max

    parser = argparse.ArgumentParser(
        prog="python -m libs.kit.relay",
        description=__doc__.split("\n")[0]
        + " Several --service: one relay per service, each in a thread of this one process.",
    )
    parser.add_argument(
        "--service", action="append", required=True, help="publishes to arcana.<service>.events (repeatable)"
    )
    parser.add_argument(
        "--schema",
        action="append",
        help="the service's PostgreSQL schema: once per --service, same order (default: the service's name)",
    )
    parser.add_argument("--batch-size", type=int, default=2000, help="events per page (one confirm each)")
    parser.add_argument("--poll-interval", type=float, default=0.2, help="seconds between polls while busy")
    parser.add_argument("--idle-max", type=float, default=1.0, help="longest wait between polls while idle")
    parser.add_argument("--backoff-max", type=float, default=5.0, help="longest retry delay, seconds")
    parser.add_argument("--partitions", type=int, default=4, help="when the relay creates its topic")
    parser.add_argument(
        "--replication-factor", type=int, default=-1, help="when it creates its topic; -1: broker default"
    )
    args = parser.parse_args(argv)
    relayed = pairs(args.service, args.schema)
    setup_logging()
    database_url = require_env("DATABASE_URL")
    bootstrap = require_env("KAFKA_BOOTSTRAP_SERVERS")
    client_options()  # a wrong Kafka security setting stops the process here
    mode = check_mode()
    # One pool per process (docs/operations.md, "Connection budget"): a relay's share for each.
    name = f"relay-{relayed[0][0]}" if len(relayed) == 1 else "relays"
    pool = make_pool(database_url, min_size=1, max_size=pool_max(RELAY_POOL_MAX * len(relayed)), name=name)
    try:
        relays = [
            OutboxRelay(
                EventStore(pool, schema),
                service,
                bootstrap,
                batch_size=args.batch_size,
                poll_interval=args.poll_interval,
                idle_max=args.idle_max,
                backoff_max=args.backoff_max,
                partitions=args.partitions,
                replication_factor=args.replication_factor,
                publication=declared_publication(service),
                check=declared_check(service) if mode != "off" else None,
                strict=mode == "strict",
            )
            for service, schema in relayed
        ]
        stop = threading.Event()
        stop_on_signals(stop)
        metrics.serve(*(metrics.RelayCollector(pool, r.store.schema, r.topic) for r in relays))
        for relay in relays:
            log.info("relay %s from schema %s to %s", relay.topic, relay.store.schema, bootstrap)
        run_in_threads({relay.thread_name: relay.run for relay in relays}, stop)
        log.info("relay %s stopped", ", ".join(relay.topic for relay in relays))
    finally:
        pool.close()


if __name__ == "__main__":
    main()
