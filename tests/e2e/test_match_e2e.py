"""The match service end to end: gunicorn, Celery worker + beat, relays and consumers started as
``make run`` starts them, driven over HTTP; the clock moved through ``ARCANA_CLOCK_FILE``.

- two HTTP clients play complete matches (one requested through Kafka as matchmaking will);
- a practice match against the bot, which plays its turns through Celery;
- restart survival: SIGKILL every match-service process and the Celery worker mid-match, start them
  again: the view is identical and play goes on; a turn whose deadline passed while everything was
  down is timed out right after the restart.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import psycopg
import pytest
import requests
from psycopg_pool import ConnectionPool

from harness.stack import Stack
from libs.bus import OutboxRelay
from libs.contracts import MatchRequested, match_id_for
from libs.db import make_pool, migrate
from libs.eventstore import EventStore, Expect, NewEvent
from libs.games.arcana import STARTER_DECK
from tests.integration.bus.helpers import RawReader

pytestmark = pytest.mark.e2e

MATCH_PROCESSES = ("web", "celery-worker", "celery-beat", "relays", "consumers")


class Client:
    """One player's client process, as a game client would be: view, long-poll, act."""

    def __init__(self, stack: Stack, player_id: str | None = None) -> None:
        self.id = player_id or str(uuid.uuid4())
        self.url = stack.url
        self.http = stack.session(self.id)

    def get(self, path: str, **params: Any) -> dict[str, Any]:
        r = self.http.get(self.url + path, params=params, timeout=40)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def view(self, match_id: str) -> dict[str, Any]:
        return self.get(f"/v1/matches/{match_id}")

    def act(self, match_id: str) -> bool:
        """Make one move if the match waits for this player; False when it does not."""
        legal = self.get(f"/v1/matches/{match_id}/legal-commands")
        if not legal["commands"]:
            return False
        body = {**choose(legal["commands"]), "expected_version": legal["version"]}
        r = self.http.post(f"{self.url}/v1/matches/{match_id}/commands", json=body, timeout=40)
        assert r.status_code in (200, 409), r.text  # 409: a timer or presence event came first
        return True

    def play(self, match_id: str, limit: float = 90) -> dict[str, Any]:
        """Play until the match ends, long-polling while the opponent moves."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            view = self.view(match_id)
            if view["phase"] == "ended":
                return view
            if not self.act(match_id):
                self.get(f"/v1/matches/{match_id}/events", after=view["version"], wait=5)
        raise AssertionError(f"{self.id}: match {match_id} did not end in {limit}s")


def choose(commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A simple client policy: keep the hand, hit the hero, play cards, attack, end the turn."""
    preferences = (
        lambda c: c["type"] == "mulligan" and not c["cards"],
        lambda c: c["type"] == "attack" and c["target"] == "hero",
        lambda c: c["type"] == "play" and "target" not in c,
        lambda c: c["type"] == "attack",
        lambda c: c["type"] == "end_turn",
    )
    for wanted in preferences:
        for c in commands:
            if wanted(c):
                return c
    return commands[0]


def admin_match(stack: Stack, a: Client, b: Client, **setup: Any) -> str:
    players = [{"id": a.id, "deck": list(STARTER_DECK)}, {"id": b.id, "deck": list(STARTER_DECK)}]
    r = stack.operator().post(
        f"{stack.url}/v1/admin/matches", json={"setup": {"players": players, **setup}}, timeout=10
    )
    assert r.status_code == 201, r.text
    return str(r.json()["match_id"])


def announce_players(stack: Stack, *clients: Client) -> None:
    """Publish each client's PlayerRegistered on ``arcana.accounts.events`` as accounts does (an
    event store of its own + an outbox relay; the clients' tokens are issued directly), and wait
    until the match service's consumer knows them: match starts requested matches only between
    registered players."""
    pool: ConnectionPool = make_pool(stack.database_url, max_size=2)
    try:
        migrate(stack.database_url, "e2e_accounts")
        store = EventStore(pool, "e2e_accounts")
        for c in clients:
            data = {"player_id": c.id, "username": f"p{c.id[:8]}"}
            store.append(f"player-{c.id}", Expect.NO_STREAM, [NewEvent("PlayerRegistered", data)])
        relay = OutboxRelay(store, "accounts", stack.kafka)
        relay.start()
        ids = [c.id for c in clients]
        try:
            with pool.connection() as conn:
                known = "SELECT count(*) FROM match.players WHERE player_id = ANY(%s)"
                wait_for(lambda: conn.execute(known, (ids,)).fetchone()[0] == len(ids), 60)  # type: ignore[index]
        finally:
            relay.stop()
    finally:
        pool.close()


def known_to_match(stack: Stack, *player_ids: str) -> bool:
    """Whether the match service has consumed each player's registration. It starts a requested
    match only between players it knows, else rejects it (``unknown_player``) and matchmaking returns
    the tickets to waiting: a client that queues seconds after registering may be paired before match
    heard of it (these tests publish their own requests, so they wait for match to know their players)."""
    with psycopg.connect(stack.database_url) as conn:
        query = "SELECT count(*) FROM match.players WHERE player_id = ANY(%s)"
        row = conn.execute(query, (list(player_ids),)).fetchone()
    return bool(row and row[0] == len(set(player_ids)))


def request_match(stack: Stack, a: Client, b: Client) -> str:
    """Publish a MatchRequested exactly as matchmaking will: its own event store + outbox relay
    (between registered players: ``announce_players``)."""
    announce_players(stack, a, b)
    pool: ConnectionPool = make_pool(stack.database_url, max_size=2)
    try:
        migrate(stack.database_url, "matchmaking")
        store = EventStore(pool, "matchmaking")
        request_id = f"e2e-{uuid.uuid4()}"
        players = [{"id": a.id, "deck": list(STARTER_DECK)}, {"id": b.id, "deck": list(STARTER_DECK)}]
        requested = MatchRequested(
            request_id,
            "casual",
            players,
            tickets=[f"t-{a.id}", f"t-{b.id}"],
            match_id=match_id_for(request_id),
        )
        store.append(f"pairing-{request_id}", Expect.NO_STREAM, [NewEvent.of(requested)])
        relay = OutboxRelay(store, "matchmaking", stack.kafka)
        relay.start()
        try:
            match_id = match_id_for(request_id)
            wait_for(
                lambda: a.http.get(f"{stack.url}/v1/matches/{match_id}", timeout=5).status_code == 200, 60
            )
        finally:
            relay.stop()
        return match_id
    finally:
        pool.close()


def wait_for(probe: Any, timeout: float, interval: float = 0.2) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        assert time.monotonic() < end, f"timed out after {timeout}s"
        time.sleep(interval)


def play_both(a: Client, b: Client, match_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    results: dict[str, Any] = {}

    def run(c: Client) -> None:
        try:
            results[c.id] = c.play(match_id)
        except BaseException as exc:  # reported below
            results[c.id] = exc

    threads = [threading.Thread(target=run, args=(c,)) for c in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for value in results.values():
        if isinstance(value, BaseException):
            raise value
    return results[a.id], results[b.id]


def test_two_http_clients_play_complete_matches(stack: Stack) -> None:
    a, b = Client(stack), Client(stack)
    for match_id in (request_match(stack, a, b), admin_match(stack, a, b)):
        view_a, view_b = play_both(Client(stack, a.id), Client(stack, b.id), match_id)
        assert view_a["phase"] == view_b["phase"] == "ended"
        assert view_a["winner"] == view_b["winner"] and view_a["winner"] in (a.id, b.id, "draw")
        events = a.get(f"/v1/matches/{match_id}/events")["events"]
        assert events[-1]["type"] == "MatchEnded" and events[-1]["data"]["stats"]
    listed = a.get("/v1/matches")["matches"]
    assert len(listed) == 2 and {m["mode"] for m in listed} == {"casual", "admin"}
    # The MatchEnded integration events reach Kafka through the match relay.
    reader = RawReader(stack.kafka, "arcana.match.events")
    streams = {f"match-{m['match_id']}" for m in listed}
    try:
        ended = wait_for(lambda: _ended_messages(reader, streams), 30)
    finally:
        reader.close()
    for message in ended:
        data = message.event["data"]
        assert {data["winner"], data["loser"]} <= {a.id, b.id, "draw", None}
        assert (
            data["mode"] in ("casual", "admin") and data["turns"] >= 1 and set(data["stats"]) == {a.id, b.id}
        )


def _ended_messages(reader: RawReader, streams: set[str]) -> list[Any]:
    found = [m for m in reader.poll() if m.key in streams and m.event["type"] == "MatchEnded"]
    return found if len(found) == len(streams) else []


def test_a_practice_match_against_the_bot(stack: Stack) -> None:
    me = Client(stack)
    r = me.http.post(f"{stack.url}/v1/practice", timeout=10)
    assert r.status_code == 201, r.text
    match_id, bot = r.json()["match_id"], r.json()["bot"]
    waits: list[float] = []
    end = time.monotonic() + 120
    while time.monotonic() < end:
        view = me.view(match_id)
        if view["phase"] == "ended":
            break
        if me.act(match_id):
            continue
        started = time.monotonic()
        assert bot in view["awaiting"], view
        try:
            wait_for(lambda: _my_move_or_end(me, match_id), 10, 0.1)
        except AssertionError:
            events = me.get(f"/v1/matches/{match_id}/events", after=max(0, view["version"] - 5))
            raise AssertionError(f"the bot did not move in 10 s: {view} {events}") from None
        waits.append(time.monotonic() - started)
    else:
        raise AssertionError("the practice match did not end")
    assert view["mode"] == "practice" and view["winner"] in (me.id, bot, "draw")
    assert waits and max(waits) < 10  # the bot moved within seconds every time


def _my_move_or_end(me: Client, match_id: str) -> bool:
    view = me.view(match_id)
    return me.id in view["awaiting"] or view["phase"] == "ended"


def test_restart_survival(stack: Stack) -> None:
    a, b = Client(stack), Client(stack)
    match_id = admin_match(stack, a, b, first=a.id)
    a.act(match_id)  # mulligans
    b.act(match_id)
    for _ in range(3):  # a few moves into a's first turn (not ending it)
        play_a_card(a, match_id)
    before = (a.view(match_id), b.view(match_id), a.get(f"/v1/matches/{match_id}/events"))
    assert before[0]["active_player"] == a.id

    stack.kill(*MATCH_PROCESSES)
    stack.start(*MATCH_PROCESSES)
    stack.wait_ready()
    after = (a.view(match_id), b.view(match_id), a.get(f"/v1/matches/{match_id}/events"))
    assert_same_after_restart(before, after)
    r = a.http.post(f"{stack.url}/v1/matches/{match_id}/commands", json={"type": "end_turn"}, timeout=40)
    assert r.status_code == 200, r.text  # play goes on
    assert b.view(match_id)["active_player"] == b.id
    version = b.view(match_id)["version"]

    stack.kill(*MATCH_PROCESSES)
    stack.advance_clock(61)  # b's turn deadline passes while everything is down
    stack.start(*MATCH_PROCESSES)
    stack.wait_ready()
    timed_out = wait_for(lambda: _timed_out(a, match_id, version), 20)
    assert timed_out["data"]["player_id"] == b.id and timed_out["data"]["timeouts"] == 1
    assert a.view(match_id)["active_player"] == a.id


PRESENCE_EVENTS = ("PlayerDisconnected", "PlayerReconnected")


def assert_same_after_restart(before: tuple[Any, ...], after: tuple[Any, ...]) -> None:
    """Both views and the event list are as before the restart. On a loaded machine the restart may
    outlast the presence rule (no request for 20 s: disconnected, reconnected at the next request):
    then the only new events are those, after every earlier event unchanged, and the views differ
    only in their version and who is connected."""
    if after == before:
        return
    (*views_before, log_before), (*views_after, log_after) = before, after
    stored = len(log_before["events"])
    kept, new = log_after["events"][:stored], log_after["events"][stored:]
    assert kept == log_before["events"], "a stored event changed or was lost"
    assert new and all(e["type"] in PRESENCE_EVENTS for e in new), new

    def game(view: dict[str, Any], *presence: str) -> dict[str, Any]:
        return {k: v for k, v in view.items() if k not in ("version", *presence)}

    assert [game(v, "connected") for v in views_after] == [game(v, "connected") for v in views_before]
    assert game(log_after, "events") == game(log_before, "events")


def play_a_card(c: Client, match_id: str) -> None:
    """Play a card if one is legal (``act`` would end the turn when only targeted plays are)."""
    legal = c.get(f"/v1/matches/{match_id}/legal-commands")
    plays = [m for m in legal["commands"] if m["type"] == "play"]
    if plays:
        body = {**min(plays, key=lambda m: "target" in m), "expected_version": legal["version"]}
        r = c.http.post(f"{c.url}/v1/matches/{match_id}/commands", json=body, timeout=40)
        assert r.status_code in (200, 409), r.text  # 409: a presence event came first


def _timed_out(client: Client, match_id: str, after: int) -> dict[str, Any] | None:
    events = client.get(f"/v1/matches/{match_id}/events", after=after)["events"]
    return next((e for e in events if e["type"] == "TurnTimedOut"), None)


def test_catalog_and_openapi_through_the_gateway(stack: Stack) -> None:
    r = requests.get(f"{stack.url}/v1/catalog", timeout=10)
    assert r.status_code == 200 and r.headers["ETag"]
    assert requests.get(f"{stack.url}/v1/openapi/match.json", timeout=10).status_code == 200
