"""A service's dead letters, for operators (``make dead-letters``):

    python -m libs.kit.deadletters list [--all] --service S      the waiting ones (--all: every one)
    python -m libs.kit.deadletters retry ID --service S          apply one again
    python -m libs.kit.deadletters retry --all --service S       apply every waiting one again

How dead letters are kept and retried is ``libs/bus/deadletters.py``; this command finds the
handler of a dead letter's consumer in the service's definition (the consumer is the
subscription's name) and the service object of ``libs.kit.runtime``. It reads ``DATABASE_URL`` or
the database of a running ``make run``. Exit status: 0, or 1 when a retry failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from libs.bus.consumer import Handler
from libs.bus.deadletters import DeadLetter, HandlerLookup, Outcome, RetryResult, listed, retry, retry_all
from libs.kit.consume import handler_for
from libs.kit.registry import definition


def subscription_handlers(service_name: str, service: Any, schema: str | None = None) -> HandlerLookup:
    """The handler of each of the service's subscriptions, by consumer (subscription) name, as its
    consumer runs it (``libs.kit.consume.handler_for``); raises ``LookupError`` for another name."""
    subscriptions = {sub.name: sub for sub in definition(service_name).subscriptions}

    def lookup(consumer: str) -> Handler:
        if consumer not in subscriptions:
            raise LookupError(f"service {service_name!r} has no subscription {consumer!r}")
        return handler_for(subscriptions[consumer], service, schema)

    return lookup


def _print_letters(letters: Sequence[DeadLetter]) -> None:
    if not letters:
        print("no dead letters")
        return
    for d in letters:
        summary = d.error.strip().splitlines()[-1] if d.error.strip() else ""  # the exception line
        print(
            f"{d.id:>6}  {d.status:<8} {d.consumer}  {d.type}  event {d.event_id}  stream {d.stream}  "
            f"attempts {d.attempts}  last failed {d.last_failed_at.isoformat()}  "
            f"({d.topic}[{d.kafka_partition}]@{d.kafka_offset})\n        {summary}"
        )


def _print_results(results: Sequence[RetryResult]) -> None:
    if not results:
        print("no dead letters waiting")
    for r in results:
        print(f"{r.id:>6}  {r.outcome.value}")
        if r.error:
            print("        " + r.error.replace("\n", "\n        "))


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--service", required=True, help="the service whose consumers' dead letters")
    parser = argparse.ArgumentParser(
        prog="python -m libs.kit.deadletters", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("list", parents=[common], help="list the dead letters")
    show.add_argument("--all", action="store_true", help="retried and expired ones too")
    again = commands.add_parser("retry", parents=[common], help="apply dead letters again")
    again.add_argument("id", nargs="?", type=int, help="the dead letter's id (from list)")
    again.add_argument("--all", action="store_true", help="every waiting dead letter")
    return parser


def main(argv: list[str] | None = None) -> int:
    from libs.bus.process import require_database
    from libs.kit.runtime import built

    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "retry" and (args.id is None) == (not args.all):
        parser.error("retry takes a dead letter's ID or --all")
    try:
        definition(args.service)
    except LookupError as exc:
        parser.error(str(exc))
    require_database()  # the reason, when there is no database to go to
    runtime, service = built(args.service, pool_size=2)
    if args.command == "list":
        _print_letters(listed(runtime.pool, runtime.schema, every=args.all))
        return 0
    handlers = subscription_handlers(args.service, service, runtime.schema)
    if args.all:
        results = retry_all(runtime.pool, runtime.schema, handlers)
    else:
        results = [retry(runtime.pool, runtime.schema, args.id, handlers)]
    _print_results(results)
    return 1 if any(r.outcome is Outcome.FAILED for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
