"""Issue 34, point 6, end to end: a player registers over HTTP, chooses a display name, plays a
practice match against the bot, and deletes the account. Then nothing of the person is left: no
table or view of any schema of the stack's database holds the username, the password hash or the
display name; no message of any topic (read from the beginning) holds the username or the hash;
`arcana export` of every service holds none of them. The game history stays whole: `arcana replay`
of the match still matches every stored state hash. The player's token answers 401 in accounts at
once and in the other services once their consumers hear of the deletion."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests
from kafka import KafkaConsumer, TopicPartition

from harness.stack import Stack
from harness.waiting import wait_until
from tests.erasure import places_holding

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long enough password"


def _register(stack: Stack) -> dict[str, Any]:
    username = "gone_" + uuid.uuid4().hex[:12]
    body = {"username": username, "password": PASSWORD}
    r = requests.post(f"{stack.url}/v1/accounts", json=body, timeout=10)
    assert r.status_code == 201, r.text
    player = r.json()["player_id"]
    r = requests.post(f"{stack.url}/v1/sessions", json=body, timeout=10)
    assert r.status_code == 201, r.text
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {r.json()['token']}"
    shown = "Gone " + uuid.uuid4().hex[:8]
    r = http.put(f"{stack.url}/v1/me/display-name", json={"display_name": shown}, timeout=10)
    assert r.status_code == 200, r.text
    return {"player": player, "username": username, "display_name": shown, "http": http}


def _play_practice(stack: Stack, http: requests.Session) -> str:
    """A practice match against the bot, played to its end (``_choose``)."""
    r = wait_until(lambda: _practice(stack, http), 60, "the match service to know the player", 0.2)
    assert r is not None
    match_id = str(r.json()["match_id"])
    end, turns = time.monotonic() + 120, 0
    while time.monotonic() < end:
        view = http.get(f"{stack.url}/v1/matches/{match_id}", timeout=10).json()
        if view["phase"] == "ended":
            return match_id
        legal = http.get(f"{stack.url}/v1/matches/{match_id}/legal-commands", timeout=10).json()
        if legal["commands"]:
            command = _choose(legal["commands"], turns)
            turns += command["type"] == "end_turn"
            body = {**command, "expected_version": legal["version"]}
            r = http.post(f"{stack.url}/v1/matches/{match_id}/commands", json=body, timeout=10)
            assert r.status_code in (200, 409), r.text
        else:
            params: dict[str, Any] = {"after": view["version"], "wait": 5}
            http.get(f"{stack.url}/v1/matches/{match_id}/events", params=params, timeout=40)
    raise AssertionError(f"practice match {match_id} did not end")


def _practice(stack: Stack, http: requests.Session) -> requests.Response | None:
    r = http.post(f"{stack.url}/v1/practice", timeout=10)
    return r if r.status_code == 201 else None


def _choose(commands: list[dict[str, Any]], turns: int) -> dict[str, Any]:
    """Keep the hand and end three turns (the bot plays its own), then concede: a short match."""
    for wanted in ("mulligan", "end_turn") if turns < 3 else ("concede",):
        for c in commands:
            if c["type"] == wanted and not c.get("cards"):
                return c
    return commands[0]


def _password_hash(stack: Stack, player: str) -> str:
    with psycopg.connect(stack.database_url) as conn:
        row = conn.execute(
            "SELECT password_hash FROM accounts.players WHERE player_id = %s", (player,)
        ).fetchone()
    assert row is not None
    return str(row[0])


def _in_database(stack: Stack, needles: list[str]) -> dict[str, list[str]]:
    with psycopg.connect(stack.database_url) as conn:
        return {n: found for n in needles if (found := places_holding(conn, n))}


def _in_topics(stack: Stack, needles: list[str]) -> dict[str, set[str]]:
    """The topics with a message (key, value or header) that holds a needle, every topic of the
    broker read from the beginning to its end."""
    consumer = KafkaConsumer(bootstrap_servers=stack.kafka, enable_auto_commit=False, group_id=None)
    found: dict[str, set[str]] = {}
    try:
        for topic in sorted(consumer.topics()):
            partitions = [
                TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())
            ]
            consumer.assign(partitions)
            consumer.seek_to_beginning(*partitions)
            ends = consumer.end_offsets(partitions)
            while any(consumer.position(tp) < ends[tp] for tp in partitions):
                for records in consumer.poll(timeout_ms=500, max_records=5000).values():
                    for r in records:
                        raw = b" ".join([r.key or b"", r.value or b"", *(v or b"" for _, v in r.headers)])
                        for needle in needles:
                            if needle.encode() in raw:
                                found.setdefault(needle, set()).add(topic)
    finally:
        consumer.close()
    return found


def _arcana(stack: Stack, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not (k.endswith("_FILE") or re.fullmatch(r"ARCANA_\w+_SCHEMA", k))
    }
    env.update(DATABASE_URL=stack.database_url, KAFKA_BOOTSTRAP_SERVERS=stack.kafka)
    arcana = str(Path(sys.executable).parent / "arcana")
    return subprocess.run([arcana, *argv], env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_a_deleted_account_leaves_no_person_and_its_match_still_replays(stack: Stack, tmp_path: Path) -> None:
    account = _register(stack)
    player, http = account["player"], account["http"]
    match_id = _play_practice(stack, http)
    personal = [account["username"], _password_hash(stack, player), account["display_name"]]
    assert set(_in_database(stack, personal)) == set(personal)  # the search finds each before
    on_topic = lambda: _in_topics(stack, [account["display_name"]])  # noqa: E731 (DisplayNameChanged)
    assert (
        "arcana.accounts.events"
        in wait_until(on_topic, 30, "the relay", interval=0.5)[account["display_name"]]
    )

    r = http.delete(f"{stack.url}/v1/accounts/me", json={"password": PASSWORD}, timeout=10)
    assert r.status_code == 204, r.text
    assert http.get(f"{stack.url}/v1/me", timeout=10).status_code == 401
    wait_until(
        lambda: http.get(f"{stack.url}/v1/wallet", timeout=10).status_code == 401, 60, "economy's 401", 0.2
    )

    wait_until(lambda: not _in_database(stack, personal), 60, "the read models to show the pseudonym", 0.5)
    assert _in_topics(stack, personal[:2]) == {}  # a topic cannot be erased: it never carried them
    export = tmp_path / "events.jsonl"
    done = _arcana(stack, "export", "--quiet", "--output", str(export))
    assert done.returncode == 0, done.stderr
    text = export.read_text()
    assert player in text and not [n for n in personal if n in text]
    replayed = _arcana(stack, "replay", match_id)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "every stored state hash matches" in replayed.stdout
