"""``arcana``: the one command for what operators and analysts run by hand.

Every subcommand finds the database as the services do: ``DATABASE_URL`` (or
``DATABASE_URL_FILE``), else the database of the running ``make run``. Exit codes scripts can
trust: 0 done, 1 the work found a problem (a replay that drifts, a dead letter that failed again,
a migration not applied), 2 bad usage or nothing to work on (unknown service, no database, no such
match). Progress goes to standard error, data to standard output.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

USAGE_ERROR = 2

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A request the command cannot act on (exit 2, with the message)."""


def _known_service(name: str) -> str:
    from libs.kit.registry import service_names

    if name not in service_names():
        raise argparse.ArgumentTypeError(f"no service {name!r} (have: {', '.join(service_names())})")
    return name


def _database() -> str:
    from libs.config import DatabaseNotFound, database_url

    try:
        return database_url()
    except DatabaseNotFound as exc:
        raise UsageError(str(exc)) from None


# -- export ------------------------------------------------------------------------------------


def _export_parser(commands: Any) -> None:
    p = commands.add_parser(
        "export",
        help="events of one or more services as JSON Lines or Parquet",
        description="Write the event logs of the named services (all by default), merged in time order, "
        "each event's envelope as stored plus `service`. JSON Lines to standard output, or --output. "
        "Reads what analysts may read: a match's events once it has ended (docs/analytics.md).",
    )
    p.add_argument("--service", action="append", type=_known_service, help="a service (repeat); default all")
    p.add_argument(
        "--since", help="only events that occurred at or after this time (ISO 8601, UTC by default)"
    )
    p.add_argument("--until", help="only events that occurred before this time (ISO 8601, UTC by default)")
    p.add_argument("--type", action="append", dest="types", help="only this event type (repeat)")
    p.add_argument("--stream", help="only this stream (e.g. match-<id>)")
    p.add_argument(
        "--from-position", type=int, default=0, help="only events after this position (one service)"
    )
    p.add_argument("--to-position", type=int, help="only events up to this position (one service)")
    p.add_argument(
        "--topic",
        help="read this topic (e.g. arcana.match.records) from the beginning instead of the database, "
        "each event once (KAFKA_BOOTSTRAP_SERVERS or the running make run's broker)",
    )
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl")
    p.add_argument("--output", type=Path, help="write here instead of standard output (required for parquet)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    from libs.analytics.export import (
        ExportFilter,
        ExportRefused,
        count,
        events,
        parse_time,
        service_of_topic,
        through_analysts_views,
    )
    from libs.cli_progress import Progress
    from libs.db import make_pool
    from libs.kit.registry import definition, service_names
    from libs.kit.runtime import schema_of

    if args.format == "parquet" and args.output is None:
        raise UsageError("--format parquet needs --output FILE")
    try:
        if args.topic and args.service:
            raise ExportRefused("--topic reads one topic: name no --service")
        services = (service_of_topic(args.topic),) if args.topic else tuple(args.service or service_names())
        where = ExportFilter(
            services=services,
            schemas={name: schema_of(definition(name)) for name in services},
            upcasters={name: u for name in services if (u := definition(name).upcasters) is not None},
            since=parse_time(args.since) if args.since else None,
            until=parse_time(args.until) if args.until else None,
            types=frozenset(args.types or ()),
            stream=args.stream,
            from_position=args.from_position,
            to_position=args.to_position,
        )
    except (ExportRefused, ValueError, LookupError) as exc:
        raise UsageError(str(exc)) from None
    if args.topic:
        return _export_topic(args, where)
    pool = make_pool(_database(), min_size=1, max_size=1, name="arcana-export")
    try:
        with pool.connection() as conn, conn.transaction():
            where = through_analysts_views(conn, where)
            progress = Progress("exported", "events", count(conn, where), quiet=args.quiet)
            _write(args, progress.track(events(conn, where)), progress)
    finally:
        pool.close()
    return 0


def _export_topic(args: argparse.Namespace, where: Any) -> int:
    from libs.analytics.export import from_recorded
    from libs.analytics.sources import SourceError, read_topic
    from libs.bus.security import client_options
    from libs.cli_progress import Progress
    from libs.config import KafkaNotFound, kafka_bootstrap

    try:
        found = read_topic(kafka_bootstrap(), args.topic, options=client_options())
    except (SourceError, KafkaNotFound) as exc:
        raise UsageError(str(exc)) from None
    rows = list(from_recorded(where.services[0], found, where))
    progress = Progress("exported", "events", len(rows), quiet=args.quiet)
    _write(args, progress.track(rows), progress)
    return 0


def _write(args: argparse.Namespace, rows: Any, progress: Any) -> None:
    from libs.analytics.export import write_json_lines
    from libs.analytics.parquet import write_parquet

    if args.format == "parquet":
        written = write_parquet(rows, args.output)
    elif args.output is not None:
        with args.output.open("w") as out:
            written = write_json_lines(rows, out)
    else:
        written = write_json_lines(rows, sys.stdout)
        sys.stdout.flush()
    progress.done(written)


# -- import ------------------------------------------------------------------------------------


def _import_parser(commands: Any) -> None:
    p = commands.add_parser(
        "import",
        help="load an export into empty event stores (then `arcana rebuild` each service)",
        description="Append every event of a JSON Lines export (from `arcana export`) to its service's event "
        "store, keeping each event's id, stream, version and times. Each target store must be empty "
        "(run `arcana migrate` on a new database first).",
    )
    p.add_argument("file", type=Path, help="the export (JSON Lines); - for standard input")
    p.set_defaults(handler=_import)


def _import(args: argparse.Namespace) -> int:
    from libs.analytics.importing import ImportRefused, import_events, read_export
    from libs.db import make_pool
    from libs.kit.registry import definition, service_names
    from libs.kit.runtime import schema_of

    try:
        if str(args.file) == "-":
            exported = read_export(sys.stdin)
        else:
            with args.file.open() as lines:
                exported = read_export(lines)
    except OSError as exc:
        raise UsageError(str(exc)) from None
    except ImportRefused as exc:
        raise UsageError(str(exc)) from None
    schemas = {name: schema_of(definition(name)) for name in service_names()}
    pool = make_pool(_database(), min_size=1, max_size=2, name="arcana-import")
    try:
        imported = import_events(pool, exported, schemas)
    except ImportRefused as exc:
        raise UsageError(str(exc)) from None
    finally:
        pool.close()
    for service, n in sorted(imported.items()):
        print(f"{service}: {n} events imported")
    return 0


# -- replay ------------------------------------------------------------------------------------


def _replay_parser(commands: Any) -> None:
    from libs.analytics.sources import add_replay_arguments

    p = commands.add_parser(
        "replay",
        help="replay a stored match turn by turn, checking every state hash",
        description="Replay one match turn by turn and check it against the stored state hashes (exit 1 on "
        "drift or an event missing from the source, 2 when there is no such match). The events come from "
        "the database (an ended match only), a JSON Lines export or the records topic: the same replay "
        "for all three.",
    )
    add_replay_arguments(p)
    p.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    argv = [args.match_id, "--schema", args.schema, *(["--as", args.player] if args.player else [])]
    if args.export:
        argv += ["--export", args.export]
    if args.topic:
        argv += ["--topic", args.topic]
    return _delegate("services.match.replay", argv)


# -- rebuild -----------------------------------------------------------------------------------


def _rebuild_parser(commands: Any) -> None:
    p = commands.add_parser(
        "rebuild",
        help="drop a service's read models and rebuild them from its events",
        description="Empty a projection's tables and replay every event of the service into them, in one "
        "transaction. The projection defaults to the service's own (services/<service>/projections.py).",
    )
    p.add_argument("service", type=_known_service)
    p.add_argument(
        "--projection", help="dotted.module:object (default: services.<service>.projections:projection)"
    )
    p.add_argument("--batch-size", type=int, default=1000)
    p.set_defaults(handler=_rebuild)


def _rebuild(args: argparse.Namespace) -> int:
    from libs.bus.loading import load_object
    from libs.bus.projector import Projector, resolve_projection
    from libs.db import make_pool
    from libs.eventstore import EventStore
    from libs.kit.registry import definition
    from libs.kit.runtime import schema_of

    service = definition(args.service)
    schema = schema_of(service)
    target = args.projection or f"services.{args.service}.projections:projection"
    try:
        projection = resolve_projection(load_object(target), schema)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"no projection {target!r}: {exc}") from None
    pool = make_pool(_database(), min_size=1, max_size=2, name="arcana-rebuild")
    try:
        store = EventStore(pool, schema, service.upcasters)
        projector = Projector(store, projection, batch_size=args.batch_size)
        print(f"rebuilding {projection.name} in schema {schema} ...", file=sys.stderr)
        applied = projector.rebuild()
        checkpoint = projector.checkpoint()
        print(f"rebuilt {projection.name} in schema {schema}: {applied} events, checkpoint {checkpoint}")
    finally:
        pool.close()
    return 0


# -- dead letters, migrate, purge ----------------------------------------------------------------


def _dead_letters_parser(commands: Any) -> None:
    p = commands.add_parser(
        "dead-letters",
        help="list or retry the events a service's consumers could not apply",
        description="List a service's dead letters, or apply one (or all) again. "
        "Exit 1 when a retry fails again.",
    )
    p.add_argument("action", choices=("list", "retry"))
    p.add_argument("--service", required=True, type=_known_service)
    p.add_argument("id", nargs="?", type=int, help="with retry: the dead letter's id (from list)")
    p.add_argument(
        "--all", action="store_true", help="list: retried and expired ones too; retry: every waiting one"
    )
    p.set_defaults(handler=_dead_letters)


def _dead_letters(args: argparse.Namespace) -> int:
    argv = [args.action, "--service", args.service]
    if args.action == "retry" and (args.id is None) == (not args.all):
        raise UsageError("retry takes a dead letter's ID or --all")
    if args.id is not None:
        argv.append(str(args.id))
    if args.all:
        argv.append("--all")
    _database()
    return _delegate("libs.kit.deadletters", argv)


def _migrate_parser(commands: Any) -> None:
    p = commands.add_parser(
        "migrate",
        help="apply every service's database migrations",
        description="Apply every service's migrations (safe to run twice, and concurrently); with --check, "
        "apply nothing and exit 1 while a file is not applied (a pod's init container waits so).",
    )
    p.add_argument("--check", action="store_true", help="apply nothing: is every file applied?")
    p.add_argument("--wait", type=float, default=0.0, help="with --check: poll up to this many seconds")
    p.add_argument("schemas", nargs="*", help="with --check: these services' schemas only")
    p.set_defaults(handler=_migrate)


def _migrate(args: argparse.Namespace) -> int:
    _database()
    argv = [*(["--check", "--wait", str(args.wait)] if args.check else []), *args.schemas]
    return _delegate("libs.db.migrate_all", argv)


def _purge_parser(commands: Any) -> None:
    p = commands.add_parser(
        "purge",
        help="apply the purge policy now (idempotency keys, inbox rows, expired revocations)",
        description="What the hourly maintenance task does, now: the purge policy "
        "(ARCANA_IDEMPOTENCY_KEEP_HOURS, ARCANA_INBOX_HORIZON_DAYS) on every service's schema.",
    )
    p.add_argument("--service", action="append", type=_known_service, help="a service (repeat); default all")
    p.set_defaults(handler=_purge)


def _purge(args: argparse.Namespace) -> int:
    from libs.kit.registry import service_names
    from libs.maintenance.policy import PurgePolicy
    from libs.maintenance.tasks import purge_services

    _database()
    try:
        policy = PurgePolicy.from_env()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    names = args.service or service_names()
    reports = purge_services(names, policy)
    for report in reports:
        print(report)
    return 0 if len(reports) == len(names) else 1


# -- simulate ----------------------------------------------------------------------------------


def _simulate_parser(commands: Any) -> None:
    p = commands.add_parser(
        "simulate",
        help="play games on the rules engine between bots and print win rates",
        description="Play GAMES complete Arcana games between two bots (random decks from the catalog) on "
        "the pure rules engine, and print each side's win rate, draws, the first player's win rate and the "
        "average length. No database needed.",
    )
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--bot", action="append", choices=("random", "greedy"), help="each side's bot (twice)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.add_argument("--json", action="store_true", help="the summary as one JSON object")
    p.set_defaults(handler=_simulate)


def _simulate(args: argparse.Namespace) -> int:
    import json

    from libs.analytics.simulate import simulate
    from libs.cli_progress import Progress

    bots = tuple(args.bot or ("greedy", "random"))
    if len(bots) != 2:
        raise UsageError("--bot is given twice (one per side), or not at all")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    progress = Progress("played", "games", args.games, quiet=args.quiet)
    summary = simulate(args.games, bots, args.seed, on_game=progress.step)
    progress.done(args.games)
    if args.json:
        print(json.dumps(summary.to_dict(), sort_keys=True))
    else:
        print(summary.describe())
    return 0


# -- release -----------------------------------------------------------------------------------


def _release_parser(commands: Any) -> None:
    from libs.ops.release import COMPONENT

    p = commands.add_parser(
        "release",
        help="point the production overlay at a release's images, by digest",
        description="Write the production overlay's release component: every image by the digest FILE "
        "gives (lines IMAGE[:TAG]@sha256:..., as `crane digest --full-ref` prints, or the JSON of "
        "`docker buildx build --metadata-file`), the backend's tag VERSION, and VERSION as the suffix of "
        "every Job's name. Nothing is written when an image has no digest (docs/upgrading.md).",
    )
    p.add_argument("version", help="the release's tag, e.g. 0.2.0 (the Jobs: arcana-migrate-0-2-0)")
    p.add_argument(
        "--digests",
        type=Path,
        action="append",
        required=True,
        metavar="FILE",
        help="the images' digests (repeat)",
    )
    p.add_argument("--component", type=Path, default=COMPONENT, help=argparse.SUPPRESS)
    p.set_defaults(handler=_release)


def _release(args: argparse.Namespace) -> int:
    from libs.ops import release

    try:
        print(release.main(args.version, args.digests, args.component))
    except release.ReleaseError as exc:
        raise UsageError(str(exc)) from None
    return 0


# -- ops ---------------------------------------------------------------------------------------


def _ops_parser(commands: Any) -> None:
    p = commands.add_parser(
        "ops",
        help="stop, start or look at every Arcana process on Kubernetes (the restore runbook)",
        description="stop: note each Deployment's replicas and scale every Arcana process (web, "
        "match-waits, relays, consumers, Celery worker and beat; not Redis) to 0, then wait until "
        "their pods are gone. start: scale each back to what it ran before. status: what runs. "
        'With kubectl, in NAMESPACE (docs/operations.md, "Restoring").',
    )
    p.add_argument("action", choices=("stop", "start", "status"))
    p.add_argument("--namespace", "-n", default="arcana")
    p.add_argument("--kubectl", default="kubectl", help="the kubectl to run (default: kubectl on PATH)")
    p.add_argument("--timeout", type=float, default=600.0, help="stop: seconds to wait for the pods to go")
    p.set_defaults(handler=_ops)


def _ops(args: argparse.Namespace) -> int:
    from libs.ops import cluster

    kubectl = cluster.Kubectl(args.kubectl, args.namespace)
    try:
        if args.action == "stop":
            cluster.stop(kubectl, args.timeout, print)
        elif args.action == "start":
            cluster.start(kubectl, print)
        else:
            cluster.status(kubectl, print)
    except cluster.OpsError as exc:
        print(f"arcana ops {args.action}: {exc}", file=sys.stderr)
        return 1
    return 0


# -- admin and audit -------------------------------------------------------------------------------


def _admin_parser(commands: Any) -> None:
    p = commands.add_parser(
        "admin",
        help="operator actions (suspend, restore, refund, claw-back, void-rating), each with a reason",
        description="Send an operator action to the services' /v1/admin/... endpoints (--url, default "
        "make run's http://127.0.0.1:8000) with the operator token ARCANA_OPERATOR_TOKEN (or its "
        "_FILE). Each is recorded with the token's operator and the reason (arcana audit). Exit 1 "
        "when the service refuses it (its error printed), 2 for bad usage.",
    )
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the API's base URL (the internal Ingress)")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, about, target in (
        ("suspend", "suspend an account: tokens refused, tickets cancelled, matches forfeited", "player_id"),
        ("restore", "lift an account's suspension", "player_id"),
        ("refund", "pay a player back (a compensating credit)", "player_id"),
        ("claw-back", "take back what was paid in error (a compensating debit)", "player_id"),
        ("void-rating", "void what a ranked match moved of its players' ratings", "match_id"),
    ):
        a = actions.add_parser(name, help=about, description=about)
        a.add_argument(target)
        a.add_argument("--reason", required=True, help="why (recorded in the audit log): say why, never who")
        if name in ("refund", "claw-back"):
            for amount in ("coins", "dust", "free-packs"):
                a.add_argument(f"--{amount}", type=int, default=0)
            a.add_argument("--id", help="an id (a support ticket): the same id is applied once")
    p.set_defaults(handler=_admin)


def _admin(args: argparse.Namespace) -> int:
    import json

    from libs.client.client import ApiError, ArcanaClient
    from libs.config import secret_from_env

    token = secret_from_env("ARCANA_OPERATOR_TOKEN")
    if not token:
        raise UsageError("ARCANA_OPERATOR_TOKEN (or ARCANA_OPERATOR_TOKEN_FILE) is not set")
    url = args.url
    client = ArcanaClient(url, operator_token=token)
    given: dict[str, Any] = {}
    if args.action in ("refund", "claw-back"):
        amounts = {"coins": args.coins, "dust": args.dust, "free_packs": args.free_packs}
        given = {k: v for k, v in amounts.items() if v}
        if args.id:
            given["refund_id" if args.action == "refund" else "claw_back_id"] = args.id
    calls = {
        "suspend": lambda: client.suspend(args.player_id, args.reason),
        "restore": lambda: client.restore(args.player_id, args.reason),
        "refund": lambda: client.refund(args.player_id, args.reason, **given),
        "claw-back": lambda: client.claw_back(args.player_id, args.reason, **given),
        "void-rating": lambda: client.void_rating(args.match_id, args.reason),
    }
    try:
        answer = calls[args.action]()
    except ApiError as exc:
        print(f"arcana admin {args.action}: {exc}", file=sys.stderr)
        if exc.details:
            print(json.dumps(exc.details), file=sys.stderr)
        return 1
    except OSError as exc:  # requests' connection errors
        raise UsageError(f"cannot reach {url}: {exc}") from None
    print(json.dumps(answer) if answer is not None else "done")
    return 0


def _audit_parser(commands: Any) -> None:
    p = commands.add_parser(
        "audit",
        help="the operators' actions: who did what to whom, when and why",
        description="Print the entries of every service's `audit` stream (OperatorActed), oldest first: "
        "when, service, operator, action, player, the stream changed, the reason, the details.",
    )
    p.add_argument("--since", help="only entries at or after this time (ISO 8601, UTC by default)")
    p.add_argument("--operator", help="only this operator's entries")
    p.add_argument("--player", help="only the entries about this player id")
    p.add_argument("--json", action="store_true", help="JSON Lines instead of text")
    p.set_defaults(handler=_audit)


def _audit(args: argparse.Namespace) -> int:
    import json

    from libs.analytics.export import parse_time
    from libs.db import make_pool
    from libs.kit.registry import definition, service_names
    from libs.kit.runtime import schema_of
    from libs.ops import audit

    try:
        since = parse_time(args.since) if args.since else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    schemas = {name: schema_of(definition(name)) for name in service_names()}
    query = audit.AuditQuery(schemas, since, args.operator, args.player)
    pool = make_pool(_database(), min_size=1, max_size=1, name="arcana-audit")
    try:
        with pool.connection() as conn, conn.transaction():
            for entry in audit.entries(conn, query):
                print(json.dumps(entry, default=str) if args.json else audit.line(entry))
    finally:
        pool.close()
    return 0


# -- the command -------------------------------------------------------------------------------

SUBCOMMANDS = (
    _export_parser,
    _import_parser,
    _replay_parser,
    _rebuild_parser,
    _dead_letters_parser,
    _migrate_parser,
    _purge_parser,
    _simulate_parser,
    _release_parser,
    _ops_parser,
    _admin_parser,
    _audit_parser,
)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="arcana",
        description="Operators' and analysts' tools for the Arcana backend.",
        epilog="The database: DATABASE_URL, else the running `make run`'s. Exit codes: 0 done, 1 a problem "
        "found, 2 bad usage or nothing to work on.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(commands)
    return top


def _delegate(module: str, argv: Sequence[str]) -> int:
    """Run a tool module's ``main(argv)`` (the modules that own the work)."""
    result = importlib.import_module(module).main(list(argv))
    return int(result or 0)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except UsageError as exc:
        print(f"arcana {args.command}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except SystemExit as exc:  # a delegated tool's own exit (its argparse, or no database)
        code = exc.code
        if isinstance(code, str):
            print(code, file=sys.stderr)
            return USAGE_ERROR
        return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
