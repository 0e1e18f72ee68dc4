"""Replay one match turn by turn and check it against the stored state hashes.

    python -m services.match.replay MATCH_ID [--as PLAYER] [--schema match]
    python -m services.match.replay MATCH_ID --export match-events.jsonl
    python -m services.match.replay MATCH_ID --topic [arcana.match.records]

The match's events come from the database (``DATABASE_URL`` or the running ``make run``'s), a JSON
Lines export (``arcana export``) or the records topic (``KAFKA_BOOTSTRAP_SERVERS`` or the running
``make run``'s broker); every source gives the same list, so the replay is the same code path.
Prints every event (as ``PLAYER`` would see it with ``--as``; everything otherwise, seed included:
an analyst's tool) and, at each new turn, the game's progress; exits 1 when the replayed state
differs from a stored hash (drift) or when the source lacks an event of the match (a gap in its
versions: one line on standard error, no replay), 2 when there is no such match. From the database
it reads what analysts may read (``libs.db.analyst``): a match only once it has ended.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from libs.analytics.sources import (
    SourceError,
    add_replay_arguments,
    from_database,
    from_export,
    from_topic,
    missing_versions,
)
from libs.eventstore import RecordedEvent
from services.match import domain
from services.match.games import load_games
from services.match.repository import as_rows, stream_of
from services.match.upcasting import SERVICE_UPCASTERS, upcast


def replay(events: Sequence[RecordedEvent], player: str | None, out: TextIO) -> list[str]:
    """Print the match turn by turn to ``out``; returns the drift problems (none: every hash matches)."""
    m = None
    turn = 0
    for kind, data, at, version in as_rows(events):
        m = domain.evolve_match(m, kind, data, at, version)
        shown = domain.client_event(kind, data, player, m.game) if player else dict(data)
        if shown is not None:
            print(f"{version:5d} {at.isoformat()} {kind:20s} {json.dumps(shown, sort_keys=True)}", file=out)
        progress = domain.game_of(m).progress(m.rules) if m.rules is not None else None
        if progress is not None and progress.turn != turn:
            turn = progress.turn
            print(f"      --- turn {turn} ({m.game}, {progress.phase}); active {progress.active}", file=out)
    return list(domain.replay_problems(as_rows(events)))


def _events(args: argparse.Namespace) -> list[RecordedEvent]:
    stream = stream_of(args.match_id)
    if args.export is not None:
        with open(args.export) as lines:
            return upcast(from_export(lines, stream, service="match"))
    if args.topic is not None:
        from libs.bus.security import client_options
        from libs.config import kafka_bootstrap

        return upcast(from_topic(kafka_bootstrap(), args.topic, stream, options=client_options()))
    from libs.bus.process import require_database
    from libs.db import make_pool

    pool = make_pool(require_database(), min_size=1, max_size=1, name="match-replay")
    try:
        return upcast(from_database(pool, args.schema, stream, SERVICE_UPCASTERS))
    finally:
        pool.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m services.match.replay", description=__doc__.split("\n")[0]
    )
    add_replay_arguments(parser)
    args = parser.parse_args(argv)
    load_games()  # the built-in games and those ARCANA_GAMES names
    try:
        events = _events(args)
    except (OSError, SourceError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if not events:
        print(f"no match {args.match_id}", file=sys.stderr)
        return 2
    gaps = missing_versions(events)
    if gaps:
        shown = ", ".join(map(str, gaps[:5])) + (f" and {len(gaps) - 5} more" if len(gaps) > 5 else "")
        print(f"match {args.match_id}: cannot replay, event version(s) {shown} missing", file=sys.stderr)
        return 1
    problems = replay(events, args.player, sys.stdout)
    for problem in problems:
        print(f"DRIFT {problem}", file=sys.stderr)
    print(
        f"{len(events)} events replayed; {'drift found' if problems else 'every stored state hash matches'}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
