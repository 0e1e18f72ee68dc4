"""Drop and rebuild one projection from its service's event store, in one command.

    python -m libs.bus.rebuild --schema economy --projection services.economy.projections:wallets

``--projection`` names a ``libs.bus.projector.Projection`` or a function ``schema -> Projection``.
Reads ``DATABASE_URL`` (or the database of a running ``make run``). The projection's tables are
emptied and every event is replayed in one transaction (see ``libs/bus/projector.py``); prints
how many events were applied.
"""

from __future__ import annotations

import argparse
import sys

from libs.bus.loading import load_object
from libs.bus.process import require_database
from libs.bus.projector import Projector, resolve_projection
from libs.db import make_pool
from libs.eventstore import EventStore


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m libs.bus.rebuild", description=__doc__.split("\n")[0])
    parser.add_argument("--schema", required=True, help="the service's PostgreSQL schema")
    parser.add_argument("--projection", required=True, help="dotted.module:object")
    parser.add_argument("--batch-size", type=int, default=1000)
    args = parser.parse_args(argv)
    projection = resolve_projection(load_object(args.projection), args.schema)
    pool = make_pool(require_database(), min_size=1, max_size=2, name="rebuild")
    try:
        projector = Projector(EventStore(pool, args.schema), projection, batch_size=args.batch_size)
        applied = projector.rebuild()
        print(
            f"rebuilt {projection.name} in schema {args.schema}: {applied} events, "
            f"checkpoint {projector.checkpoint()}",
            file=sys.stdout,
        )
    finally:
        pool.close()


if __name__ == "__main__":
    main()
