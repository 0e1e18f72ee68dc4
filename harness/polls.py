"""HTTP helpers of the many-waiting-players e2e tests: one request on a connection of its own, a
match created by the operator route, a long-poll that asks again after an empty answer."""

from __future__ import annotations

import http.client
import json
import threading
import time
import uuid
from typing import Any

from harness.stack import OPERATOR_TOKEN, Stack
from libs.games.arcana import STARTER_DECK

WAIT = 25  # seconds, the longest wait the API allows


def call(stack: Stack, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=WAIT + 60)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def new_match(stack: Stack) -> tuple[str, list[str], int]:
    """A match of two new players (the starter deck each): its id, the players, its version."""
    players = [str(uuid.uuid4()), str(uuid.uuid4())]
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in players]}
    status, body = call(stack, OPERATOR_TOKEN, "POST", "/v1/admin/matches", {"setup": setup})
    assert status == 201, body
    return body["match_id"], players, body["version"]


TIMEKEEPERS = ("celery-worker", "celery-beat")  # what enforces deadlines and presence rules


def long_poll(stack: Stack, match: str, player: str, after: int, sent: threading.Semaphore | None) -> dict:
    """GET /events?after=…&wait=25 on a connection of its own, as a client does: again after an
    empty answer (the wait ran out), until events come. ``sent`` is released once the first
    request is on the wire, before any answer is awaited."""
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=WAIT + 60)
    try:
        while True:
            conn.request(
                "GET",
                f"/v1/matches/{match}/events?after={after}&wait={WAIT}",
                headers={"Authorization": f"Bearer {stack.token(player)}"},
            )
            if sent is not None:
                sent.release()
                sent = None
            response = conn.getresponse()
            assert response.status == 200, response.read()
            answer = dict(json.loads(response.read()))
            if answer["events"]:
                return answer
    finally:
        conn.close()


def mulligan_first(stack: Stack, entry: tuple[str, list[str], int]) -> None:
    """One event in the match: its first player keeps the opening hand."""
    match, players, version = entry
    body = {"type": "mulligan", "cards": [], "expected_version": version}
    status, reply = call(stack, stack.token(players[0]), "POST", f"/v1/matches/{match}/commands", body)
    assert status == 200, reply


def move(stack: Stack, match: str, player: str) -> float | None:
    """``player``'s next move when it is theirs (keep the opening hand, else end the turn), asserted
    answered 200: the seconds the command took; None when the match does not wait for them."""
    token = stack.token(player)
    status, legal = call(stack, token, "GET", f"/v1/matches/{match}/legal-commands")
    assert status == 200, legal
    if not legal["commands"]:
        return None
    command = next((c for c in legal["commands"] if c["type"] == "mulligan" and not c["cards"]), None)
    command = command or next(c for c in legal["commands"] if c["type"] == "end_turn")
    body = {**command, "expected_version": legal["version"]}
    started = time.perf_counter()
    status, reply = call(stack, token, "POST", f"/v1/matches/{match}/commands", body)
    assert status == 200, reply
    return time.perf_counter() - started
