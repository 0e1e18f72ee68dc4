"""Export a service's event log as JSON Lines, for analysts.

    python -m libs.bus.export --schema match [--stream match-42] [--from-position N] > events.jsonl

Reads ``DATABASE_URL`` (or the database of a running ``make run``). One line per event, in
position order (or version order for one stream), each the envelope of ``RecordedEvent.to_dict()``
exactly as stored (no upcasting), so ``RecordedEvent.from_dict(json.loads(line))`` gives the
stored event back.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from libs.eventstore import EventStore, RecordedEvent


def events_to_export(
    store: EventStore, stream: str | None = None, from_position: int = 0
) -> Iterable[RecordedEvent]:
    if stream is not None:
        return (e for e in store.read(stream) if e.position > from_position)
    return store.iter_all(from_position)


def export_events(store: EventStore, out: TextIO, stream: str | None = None, from_position: int = 0) -> int:
    """Write the events as JSON Lines to ``out``; return how many were written."""
    count = 0
    for event in events_to_export(store, stream, from_position):
        out.write(json.dumps(event.to_dict(), separators=(",", ":"), sort_keys=True))
        out.write("\n")
        count += 1
    return count


def main(argv: list[str] | None = None) -> None:
    from libs.bus.process import require_database
    from libs.db import make_pool

    parser = argparse.ArgumentParser(prog="python -m libs.bus.export", description=__doc__.split("\n")[0])
    parser.add_argument("--schema", required=True, help="the service's PostgreSQL schema")
    parser.add_argument("--stream", help="export only this stream")
    parser.add_argument("--from-position", type=int, default=0, help="only events after this position")
    args = parser.parse_args(argv)
    pool = make_pool(require_database(), min_size=1, max_size=1, name="export")
    try:
        count = export_events(EventStore(pool, args.schema), sys.stdout, args.stream, args.from_position)
        sys.stdout.flush()
        print(f"exported {count} events", file=sys.stderr)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
