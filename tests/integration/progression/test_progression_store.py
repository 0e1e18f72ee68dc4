"""The store boundary: the rewards table's primary key is the last guard of exactly-once payment,
and a violation becomes the domain's ``RewardAlreadyGranted`` with nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from services.progression.domain import RewardAlreadyGranted
from services.progression.events import RewardGranted
from services.progression.service import ProgressionService


def test_a_reward_id_granted_twice_is_refused_and_nothing_is_written(
    pool: ConnectionPool, progression: ProgressionService, counts: Any
) -> None:
    reward = RewardGranted(
        "streak:p1:2026-12-01", "p1", 30, 0, "streak", {"streak_day": 1, "day": "2026-12-01"}
    )
    with pool.connection() as conn, conn.transaction():
        progression._append(conn, "streak-p1", 0, [reward])
    written = counts()
    with pytest.raises(RewardAlreadyGranted), pool.connection() as conn, conn.transaction():
        progression._append(conn, "streak-p1-copy", 0, [reward])  # another stream, the same reward id
    assert counts() == written
    assert written["rewards"] == 1 and written["events"] == 1
