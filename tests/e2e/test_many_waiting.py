"""Many waiting players: 300 long-polls on ``/events`` held open at once against the stack as
``make run`` starts it, while the players of another match keep playing; then one event appended to
each waited-on match answers every long-poll with it.

With gunicorn's former 2 x 16 threads this fails: the first 32 long-polls hold every thread, the
other match's commands are answered only once those polls time out, and the remaining polls time
out empty instead of returning their event.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from harness.polls import TIMEKEEPERS, long_poll, move, mulligan_first, new_match
from harness.stack import Stack

pytestmark = pytest.mark.e2e

MATCHES = 150  # each with both players waiting: 300 long-polls


@pytest.fixture(scope="module")
def stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with Stack(postgres_url, None, tmp_path_factory.mktemp("many-waiting")) as s:
        s.wait_ready()
        yield s
        web_log = s.log("web")
    assert '"status": 500' not in web_log, web_log[-3000:]


def _play_a_few_commands(stack: Stack, match: str, players: list[str]) -> int:
    """Both mulligans, then moves of whoever the match waits for; returns how many were answered 200."""
    return sum(move(stack, match, player) is not None for _ in range(8) for player in players)


def test_300_waitinglong_polls_hold_no_thread_others_play_and_every_poll_gets_its_event(
    stack: Stack,
) -> None:
    # No deadline may move a waited-on match while they are set up (the mulligan's 30 s): the Celery
    # worker and beat, which enforce deadlines, wait meanwhile.
    with stack.paused(*TIMEKEEPERS):
        with ThreadPoolExecutor(max_workers=8) as creators:
            waited = list(creators.map(lambda _: new_match(stack), range(MATCHES)))
        other, other_players, _ = new_match(stack)

        sent = threading.Semaphore(0)
        with ThreadPoolExecutor(max_workers=2 * MATCHES) as pollers:
            polls: dict[tuple[str, str], Future[dict]] = {
                (match, player): pollers.submit(long_poll, stack, match, player, version, sent)
                for match, players, version in waited
                for player in players
            }
            for _ in polls:
                assert sent.acquire(timeout=60)

            # Every long-poll is open; another match's players play meanwhile and are answered.
            answered = _play_a_few_commands(stack, other, other_players)
            assert answered >= 8
            still_open = [key for key, f in polls.items() if not f.done()]
            assert len(still_open) == len(polls), "a long-poll returned before any event was appended"

            # One event in each waited-on match: its first player keeps the opening hand.
            with ThreadPoolExecutor(max_workers=8) as movers:
                list(movers.map(lambda entry: mulligan_first(stack, entry), waited))

            for (match, player), future in polls.items():
                answer = future.result()
                after = next(version for m, _, version in waited if m == match)
                assert answer["events"], f"{player}'s long-poll on {match} returned no event"
                assert answer["events"][0]["version"] == after + 1
                assert any(e["type"] == "MulliganCompleted" for e in answer["events"]), answer
