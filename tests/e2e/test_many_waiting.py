"""Many waiting players: 300 long-polls on ``/events`` held open at once against the stack as
``make run`` starts it, while the players of another match keep playing; then one event appended to
each waited-on match answers every long-poll with it.

With gunicorn's former 2 x 16 threads this fails: the first 32 long-polls hold every thread, the
other match's commands are answered only once those polls time out, and the remaining polls time
out empty instead of returning their event.
"""

from __future__ import annotations

import http.client
import json
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from harness.stack import OPERATOR_TOKEN, Stack
from libs.rules import STARTER_DECK

pytestmark = pytest.mark.e2e

MATCHES = 150  # each with both players waiting: 300 long-polls
WAIT = 25  # seconds, the longest wait the API allows


@pytest.fixture(scope="module")
def stack(
    postgres_url: str, kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    with Stack(postgres_url, kafka_bootstrap, tmp_path_factory.mktemp("many-waiting")) as s:
        s.wait_ready()
        yield s
        web_log = s.log("web")
    assert '"status": 500' not in web_log, web_log[-3000:]


def _call(stack: Stack, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=WAIT + 60)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def _new_match(stack: Stack) -> tuple[str, list[str], int]:
    players = [str(uuid.uuid4()), str(uuid.uuid4())]
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in players]}
    status, body = _call(stack, OPERATOR_TOKEN, "POST", "/v1/admin/matches", {"setup": setup})
    assert status == 201, body
    return body["match_id"], players, body["version"]


def _long_poll(stack: Stack, match: str, player: str, after: int, sent: threading.Semaphore) -> dict:
    """GET /events?after=…&wait=25 on a connection of its own; ``sent`` is released once the
    request is on the wire, before the answer is awaited."""
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=WAIT + 60)
    try:
        conn.request(
            "GET",
            f"/v1/matches/{match}/events?after={after}&wait={WAIT}",
            headers={"Authorization": f"Bearer {stack.token(player)}"},
        )
        sent.release()
        response = conn.getresponse()
        assert response.status == 200, response.read()
        return dict(json.loads(response.read()))
    finally:
        conn.close()


def _play_a_few_commands(stack: Stack, match: str, players: list[str]) -> int:
    """Both mulligans, then moves of whoever the match waits for; returns how many were answered 200."""
    answered = 0
    for _ in range(8):
        for player in players:
            token = stack.token(player)
            status, legal = _call(stack, token, "GET", f"/v1/matches/{match}/legal-commands")
            assert status == 200, legal
            if not legal["commands"]:
                continue
            command = next((c for c in legal["commands"] if c["type"] == "mulligan" and not c["cards"]), None)
            command = command or next(c for c in legal["commands"] if c["type"] == "end_turn")
            body = {**command, "expected_version": legal["version"]}
            status, reply = _call(stack, token, "POST", f"/v1/matches/{match}/commands", body)
            assert status == 200, reply
            answered += 1
    return answered


def test_300_waiting_long_polls_hold_no_thread_others_play_and_every_poll_gets_its_event(
    stack: Stack,
) -> None:
    with ThreadPoolExecutor(max_workers=8) as creators:
        waited = list(creators.map(lambda _: _new_match(stack), range(MATCHES)))
    other, other_players, _ = _new_match(stack)

    sent = threading.Semaphore(0)
    with ThreadPoolExecutor(max_workers=2 * MATCHES) as pollers:
        polls: dict[tuple[str, str], Future[dict]] = {
            (match, player): pollers.submit(_long_poll, stack, match, player, version, sent)
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
        def mulligan(entry: tuple[str, list[str], int]) -> None:
            match, players, version = entry
            body = {"type": "mulligan", "cards": [], "expected_version": version}
            status, reply = _call(
                stack, stack.token(players[0]), "POST", f"/v1/matches/{match}/commands", body
            )
            assert status == 200, reply

        with ThreadPoolExecutor(max_workers=8) as movers:
            list(movers.map(mulligan, waited))

        for (match, player), future in polls.items():
            answer = future.result()
            after = next(version for m, _, version in waited if m == match)
            assert answer["events"], f"{player}'s long-poll on {match} returned no event"
            assert answer["events"][0]["version"] == after + 1
            assert any(e["type"] == "MulliganCompleted" for e in answer["events"]), answer
