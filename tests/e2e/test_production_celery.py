"""The production configuration of Celery: the same stack with ``CELERY_BROKER_URL`` pointing at
Redis (as in Kubernetes) instead of the embedded filesystem transport. The practice bot only moves
through Celery tasks, so a bot that keeps moving shows the worker receives them over Redis.

Redis is not needed by `make run`; this test needs a Redis server on 127.0.0.1:6379 (this machine
kind runs one; `.ci/run` starts one where none answers). Elsewhere it is skipped, saying why, and
in CI that skip fails (tests/conftest.py).
"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator

import pytest
import requests

from harness.stack import Stack

pytestmark = pytest.mark.e2e

REDIS_URL = "redis://127.0.0.1:6379/13"


def _redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture(scope="module")
def redis_stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not _redis_answers():
        pytest.skip("no Redis server on 127.0.0.1:6379 for the production Celery configuration")
    env = {"CELERY_BROKER_URL": REDIS_URL}
    with Stack(postgres_url, None, tmp_path_factory.mktemp("redis-e2e"), env=env) as s:
        s.wait_ready()
        yield s


def test_the_bot_moves_through_celery_on_redis(redis_stack: Stack) -> None:
    me = str(uuid.uuid4())
    http = redis_stack.session(me)
    base = redis_stack.url
    created = http.post(f"{base}/v1/practice", timeout=10)
    assert created.status_code == 201, created.text
    match_id, bot = created.json()["match_id"], created.json()["bot"]
    bot_moves, deadline = 0, time.monotonic() + 90
    while bot_moves < 3 and time.monotonic() < deadline:
        view = http.get(f"{base}/v1/matches/{match_id}", timeout=10).json()
        if view["phase"] == "ended":
            break
        if me in view["awaiting"]:
            _keep_hand_or_end_turn(http, base, match_id)
        elif bot in view["awaiting"]:
            bot_moves += _wait_for_the_bot(http, base, match_id, view["version"])
        else:
            time.sleep(0.1)
    assert bot_moves >= 3 or view["phase"] == "ended", view
    worker_log = redis_stack.log("celery-worker")
    assert "redis://" in worker_log and "filesystem" not in worker_log


def _keep_hand_or_end_turn(http: requests.Session, base: str, match_id: str) -> None:
    legal = http.get(f"{base}/v1/matches/{match_id}/legal-commands", timeout=10).json()
    kinds = {c["type"]: c for c in legal["commands"]}
    body = kinds.get("end_turn") or {"type": "mulligan", "cards": []}
    r = http.post(f"{base}/v1/matches/{match_id}/commands", json=body, timeout=40)
    assert r.status_code in (200, 409), r.text  # 409: the bot's move came first


def _wait_for_the_bot(http: requests.Session, base: str, match_id: str, version: int) -> int:
    """Long-poll until the match moves on; 1 when it did within 10 s (the bot's Celery task ran)."""
    r = http.get(f"{base}/v1/matches/{match_id}/events", params={"after": version, "wait": 10}, timeout=20)
    assert r.status_code == 200 and r.json()["events"], f"the bot did not move in 10 s: {r.text}"
    return 1
