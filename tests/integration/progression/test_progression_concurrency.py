"""Concurrent requests of one player: PostgreSQL's expected versions decide, the loser retries from a
fresh read; one offer a day, one swap a day."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from psycopg_pool import ConnectionPool

from services.progression.service import ProgressionService
from tests.integration.progression.conftest import events_of


def _together(calls: list[Any]) -> list[Any]:
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        start.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_concurrent_first_looks_make_one_offer(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    ada = make_client()
    clients = [make_client(ada.id) for _ in range(8)]
    answers = _together([lambda c=c: c.get("/v1/quests") for c in clients])
    assert {r.status_code for r in answers} == {200}
    assert len({tuple(q["id"] for q in r.get_json()["quests"]) for r in answers}) == 1
    assert [t for t, _ in events_of(pool, progression.schema)] == ["QuestsOffered"]


def test_concurrent_swaps_one_wins(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    ada = make_client()
    quests = [q["id"] for q in ada.get("/v1/quests").get_json()["quests"]]
    clients = [make_client(ada.id) for _ in range(6)]
    answers = _together(
        [lambda c=c, i=i: c.post(f"/v1/quests/{quests[i % 3]}/swap") for i, c in enumerate(clients)]
    )
    assert Counter(r.status_code for r in answers)[200] == 1
    [winner] = [i for i, r in enumerate(answers) if r.status_code == 200]
    for i, r in enumerate(answers):
        if i == winner:
            continue
        # The losers decide again on a fresh read: the day's swap is used, or their quest is gone.
        gone = quests[i % 3] == quests[winner % 3]
        assert (r.status_code, r.get_json()["error"]["code"]) == (
            (404, "quest_not_offered") if gone else (409, "swap_used")
        )
    assert [t for t, _ in events_of(pool, progression.schema)] == ["QuestsOffered", "QuestSwapped"]
