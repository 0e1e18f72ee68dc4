"""One stack for the e2e modules that can share it (a stack costs 10 to 15 s to start).

A module that asks for ``stack`` without defining its own gets the shared one: started at the first
such module of the worker, stopped when the worker leaves ``tests/e2e`` (the package scope). Its
modules run one after the other on one worker (``SERIAL_GROUPS`` in ``tests/conftest.py``), so they
share it in time, not at once. What sharing asks of a module:

- new players of its own (never a count over every player or every event of a service);
- nothing left waiting in the queue (another module's players would be paired with it);
- the clock moved back at its end (``borrowed`` does it: tokens that the tests issue expire an hour
  after the real time);
- a module that needs other settings (``env``), or that leaves the stack busy (many live matches),
  keeps a stack of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from harness.stack import Stack

# The scripts of several modules register and queue faster than a person may (10 registrations an
# hour per address, 10 joins a minute per player: each tested on its own in tests/integration).
SHARED_ENV = {"ARCANA_REGISTER_MAX_PER_ADDRESS": "1000", "ARCANA_QUEUE_ACTIONS_PER_WINDOW": "1000"}


@pytest.fixture(scope="package")
def shared_stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with Stack(postgres_url, None, tmp_path_factory.mktemp("shared-e2e"), env=SHARED_ENV) as s:
        s.wait_ready()
        yield s


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Iterator[Stack]:
    yield from borrowed(shared_stack)


def borrowed(stack: Stack) -> Iterator[Stack]:
    """The shared stack for one module: its clock moved back to where the module found it, and no
    answer 500 in the web log the module's tests caused."""
    clock, logged = stack.clock_offset, len(stack.log("web"))
    try:
        yield stack
    finally:
        stack.advance_clock(clock - stack.clock_offset)
    web_log = stack.log("web")[logged:]
    assert '"status": 500' not in web_log, web_log[-3000:]
    left = waiting_tickets(stack)
    assert not left, (
        f"tickets left waiting in the shared stack's queue (another module's players meet them): {left}"
    )


def waiting_tickets(stack: Stack) -> list[tuple[str, str]]:
    """The (player, mode) of every ticket waiting in the stack's queue."""
    with psycopg.connect(stack.database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT player_id, mode FROM matchmaking.tickets WHERE status = 'waiting'"
        ).fetchall()
    return [(str(player), str(mode)) for player, mode in rows]
