"""Live matches survive a SIGKILL of the whole stack, and the deadlines that passed while it was down
are enforced after it comes back: the steps of `make bench-recovery` (``harness/recovery.py``) with
three matches, and no times asserted.

`make run` runs on a data folder of its own; three operator matches are played past the mulligan and
a few commands, both players' views and event lists are kept, then each turn is ended once more (the
last acknowledged command) and the other player looks at the match. Then every process `make run`
started and PostgreSQL are SIGKILLed in one pass and the clock jumps 61 s, past every turn deadline.
`make run` (the supervisor, left alive) must bring every part back; then every match answers both
players, a ``TurnTimedOut`` comes to a waiting player of each match, the relays publish everything
again to the new broker, and ``recovery.verify`` finds nothing lost or invented.

What makes it fail:

- a commit lost by the crash: the last command of each match is acknowledged a few milliseconds
  before the kill, so a command acknowledged before its WAL record was written
  (``synchronous_commit = off``, or a write the stack keeps in memory) is missing from the stored
  stream (with ``PGOPTIONS="-c synchronous_commit=off"`` in `make run`'s environment this test
  fails);
- a deadline that the restarted stack does not enforce: one kept only in memory or in a Celery task
  with an ``eta`` that died with the worker, or no sweep after a restart (no ``TurnTimedOut`` comes);
- anything else written after the crash (a second command, a timeout decided before its deadline,
  events that are not what the engine decides) or a view that is not the fold of the stored events;
- a part `make run` does not restart, or a relay that does not notice the new, empty broker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import recovery
from harness.makerun import MakeRun

pytestmark = pytest.mark.e2e

MATCHES = 3
THREADS = 3
LIMIT_SECONDS = 180  # how long the recovery may take before the test gives up (not asserted as a time)
RESTARTED = ("postgres", "kafka", "web", "celery-worker", "celery-beat", "relays", "consumers")


def test_live_matches_survive_a_crash_of_the_whole_stack_and_overdue_deadlines_are_enforced(
    tmp_path: Path,
) -> None:
    stack = MakeRun(tmp_path)
    try:
        stack.wait_ready()
        matches = recovery.open_and_drive(stack, MATCHES, THREADS)
        snapshots = recovery.take_snapshots(stack, matches, THREADS)
        assert all(s.playing for s in snapshots), [s.views for s in snapshots]
        snapshots = recovery.make_last_moves(stack, snapshots, THREADS)
        heads = recovery.log_heads(stack.database_url)
        before = recovery.relay_progress(stack.database_url)

        crashed = recovery.crash(stack)
        found = recovery.watch_recovery(
            stack, snapshots, crashed, heads=heads, before=before, threads=THREADS, limit=LIMIT_SECONDS
        )

        assert found.unanswered == [], f"{found.unanswered}\n{stack.text()[-3000:]}"
        assert found.not_enforced == [], f"{found.not_enforced}\n{stack.log('celery-worker')[-3000:]}"
        assert found.republished is not None, "a relay did not publish its log again to the new broker"
        assert recovery.verify(stack, snapshots, crashed, THREADS) == []
    finally:
        output = stack.stop()
    for part in RESTARTED:
        assert f"\n{part} restarted" in output, f"{part}:\n{output[-3000:]}"
    assert "Traceback" not in output, output[-3000:]
