"""Waiting players cannot delay commands: 1,000 long-polls on ``/events`` wait in the long-poll
process (gevent, ``services/match/waits_wsgi.py``) while the players of other matches keep playing through
the same port; then one event appended to each waited-on match answers every long-poll with it.

The commands' median and worst answer times are printed (``-s``) for docs/capacity.md; nothing
asserts a speed. What is asserted: every command is answered 200, every long-poll stays open until
its match moves and then returns that event, the long-polls were served by the long-poll process
and not one by the gthread gunicorn that answered the commands.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from harness.polls import TIMEKEEPERS, long_poll, move, mulligan_first, new_match
from harness.stack import Stack, waits_apart

pytestmark = pytest.mark.e2e

MATCHES = 500  # each with both players waiting: 1,000 long-polls
PLAYING = 4  # matches whose players keep playing meanwhile


@pytest.fixture(scope="module")
def stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with waits_apart(postgres_url, None, tmp_path_factory.mktemp("waiting-apart")) as s:
        yield s


def _play(stack: Stack, match: str, players: list[str], times: list[float]) -> None:
    """Both mulligans, then moves of whoever the match waits for, each command timed into ``times``."""
    for _ in range(6):
        for player in players:
            took = move(stack, match, player)
            if took is not None:
                times.append(took)


def _waiting_matches(
    stack: Stack, pollers: ThreadPoolExecutor
) -> tuple[list[tuple[str, list[str], int]], dict[tuple[str, str], Future[dict]]]:
    """``MATCHES`` new matches, each with both players' long-polls opened right after it was created
    (a player silent for 20 s after the creation would be marked disconnected: an event)."""
    sent = threading.Semaphore(0)
    polls: dict[tuple[str, str], Future[dict]] = {}

    def create_and_wait(_: int) -> tuple[str, list[str], int]:
        match, players, version = new_match(stack)
        for player in players:
            polls[(match, player)] = pollers.submit(long_poll, stack, match, player, version, sent)
        return match, players, version

    with ThreadPoolExecutor(max_workers=8) as creators:
        waited = list(creators.map(create_and_wait, range(MATCHES)))
    for _ in range(2 * MATCHES):
        assert sent.acquire(timeout=120)
    return waited, polls


def test_commands_are_answered_while_1000_long_polls_wait_and_every_poll_gets_its_event(stack: Stack) -> None:
    # No deadline may move a waited-on match while 500 are set up (on a loaded machine the mulligan's
    # 30 s ran out in 14 of them first): the Celery worker and beat, which enforce them, wait meanwhile.
    with stack.paused(*TIMEKEEPERS), ThreadPoolExecutor(max_workers=2 * MATCHES) as pollers:
        waited, polls = _waiting_matches(stack, pollers)
        playing = [new_match(stack) for _ in range(PLAYING)]
        time.sleep(2)  # let the last polls reach their wait

        times: list[float] = []
        with ThreadPoolExecutor(max_workers=PLAYING) as players:
            list(players.map(lambda m: _play(stack, m[0], m[1], times), playing))
        assert len(times) >= 4 * PLAYING
        early = [f.result() if not f.exception() else f.exception() for f in polls.values() if f.done()]
        assert not early, f"{len(early)} long-polls returned before their match moved: {early[:3]}"
        print(
            f"\n{len(times)} commands while {len(polls)} long-polls waited: "
            f"median {statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms"
        )

        with ThreadPoolExecutor(max_workers=8) as movers:
            list(movers.map(lambda entry: mulligan_first(stack, entry), waited))

        versions = {match: version for match, _, version in waited}
        for (match, player), future in polls.items():
            answer = future.result()
            assert answer["events"], f"{player}'s long-poll on {match} returned no event"
            assert answer["events"][0]["version"] == versions[match] + 1
            assert any(e["type"] == "MulliganCompleted" for e in answer["events"]), answer

    assert "/events" in stack.log("waits")
    assert "/events" not in stack.log("web"), "a long-poll was served by the gthread gunicorn"
