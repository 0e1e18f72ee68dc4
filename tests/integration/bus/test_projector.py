"""Projections of the service's own store: checkpointed, once per event, rebuilt by one command."""

from __future__ import annotations

from libs.bus import Projector
from libs.eventstore import EventStore
from tests.integration.bus import sample_projection
from tests.integration.bus.helpers import append_events, wait_until
from tests.integration.conftest import run_tool


def model(store: EventStore) -> list[tuple]:
    with store.pool.connection() as conn:
        return sample_projection.read_model(conn, store.schema)


def expected_model(store: EventStore) -> list[tuple]:
    totals: dict[str, list[int]] = {}
    for e in store.iter_all():
        t = totals.setdefault(e.stream, [0, 0, 0])
        t[0] += 1
        t[1] = e.version
        t[2] += e.data["n"]
    return [(s, *t) for s, t in sorted(totals.items())]


def test_projector_applies_each_event_once_and_follows(store: EventStore) -> None:
    with store.pool.connection() as conn:
        sample_projection.create_tables(conn, store.schema)
    projector = Projector(store, sample_projection.stream_totals(store.schema), batch_size=40)
    append_events(store, 130, streams=6)
    assert projector.catch_up() == 130
    assert projector.catch_up() == 0
    assert projector.checkpoint() == store.head_position()
    assert model(store) == expected_model(store)

    projector.start()
    try:
        append_events(store, 25, streams=6)
        wait_until(lambda: projector.checkpoint() == store.head_position(), 10, "the projector caught up")
    finally:
        projector.stop()
    assert model(store) == expected_model(store)


def test_rebuild_command_gives_the_same_read_model(store: EventStore, postgres_url: str) -> None:
    with store.pool.connection() as conn:
        sample_projection.create_tables(conn, store.schema)
    projector = Projector(store, sample_projection.stream_totals(store.schema))
    append_events(store, 300, streams=9)
    projector.catch_up()
    built = model(store)
    assert built == expected_model(store)

    with store.pool.connection() as conn:  # damage it: a rebuild must not keep anything of this
        conn.execute(f'UPDATE "{store.schema}".stream_totals SET total = -1')
        conn.execute(f"INSERT INTO \"{store.schema}\".stream_totals VALUES ('bogus', 1, 1, 1)")

    done = run_tool(
        postgres_url,
        "libs.bus.rebuild",
        "--schema",
        store.schema,
        "--projection",
        "tests.integration.bus.sample_projection:stream_totals",
        "--batch-size",
        "70",
    )
    assert done.returncode == 0, done.stderr
    assert "300 events" in done.stdout
    assert model(store) == built
    assert projector.checkpoint() == store.head_position()
    assert projector.catch_up() == 0  # nothing applied twice after the rebuild
    assert model(store) == built
