"""Replay one match from its stream, turn by turn, and check it against the stored state hashes.

    python -m services.match.replay MATCH_ID [--as PLAYER] [--schema match]

Prints every event (as ``PLAYER`` would see it with ``--as``; everything otherwise, seed included:
an analyst's tool) and, at each new turn, the game's progress; exits 1 when the replayed state differs from
a stored hash (drift), 2 when there is no such match. Reads ``DATABASE_URL`` (or the database of
a running ``make run``).
"""

from __future__ import annotations

import argparse
import json
import sys

from libs.bus.process import require_database
from libs.db import make_pool
from libs.eventstore import EventStore
from services.match import domain
from services.match.games import load_games
from services.match.repository import as_rows, stream_of


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m services.match.replay", description=__doc__.split("\n")[0]
    )
    parser.add_argument("match_id")
    parser.add_argument("--as", dest="player", help="show the events as this player sees them")
    parser.add_argument("--schema", default="match")
    args = parser.parse_args(argv)
    load_games()  # the built-in games and those ARCANA_GAMES names
    pool = make_pool(require_database(), min_size=1, max_size=1, name="match-replay")
    try:
        events = EventStore(pool, args.schema).read(stream_of(args.match_id))
    finally:
        pool.close()
    if not events:
        print(f"no match {args.match_id}", file=sys.stderr)
        return 2
    m = None
    turn = 0
    for kind, data, at, version in as_rows(events):
        m = domain.evolve_match(m, kind, data, at, version)
        shown = domain.client_event(kind, data, args.player, m.game) if args.player else dict(data)
        if shown is not None:
            print(f"{version:5d} {at.isoformat()} {kind:20s} {json.dumps(shown, sort_keys=True)}")
        progress = domain.game_of(m).progress(m.rules) if m.rules is not None else None
        if progress is not None and progress.turn != turn:
            turn = progress.turn
            print(f"      --- turn {turn} ({m.game}, {progress.phase}); active {progress.active}")
    problems = domain.replay_problems(as_rows(events))
    for problem in problems:
        print(f"DRIFT {problem}", file=sys.stderr)
    print(
        f"{len(events)} events replayed; {'drift found' if problems else 'every stored state hash matches'}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
