"""``GET /v1/matches/{id}/stream`` (Server-Sent Events, issue 33) on the match app with a real
PostgreSQL: each visible event with its version as the id, a resume after ``Last-Event-ID``, the
same projection as the long-poll (hidden information), the per-player cap, heartbeats while idle,
presence while open, and the stream tickets browsers use."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import pytest
from flask import Flask
from prometheus_client import REGISTRY
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import Settings
from libs.games.arcana import STARTER_DECK
from libs.kit.web import current_service, service_app
from libs.web.auth import TokenClaims
from services.match import stream as stream_http
from services.match.scheduling import RecordingScheduler
from services.match.service import MatchService
from services.match.usecases import streams
from services.match.usecases.streams import StreamSettings
from tests.integration.bus.helpers import wait_until
from tests.integration.match.conftest import SECRET, Player
from tests.integration.match.play import decks_without_common_cards, play_to_end
from tests.leaks import assert_no_leak
from tests.sse import Frame, SseReader, messages

DECK = list(STARTER_DECK)


class _Revoked:
    """Sessions logged out (the SessionCheck the app asks): token ids."""

    def __init__(self) -> None:
        self.tokens: set[str] = set()

    def is_revoked(self, claims: TokenClaims) -> bool:
        return claims.token_id in self.tokens


@pytest.fixture
def revoked() -> _Revoked:
    return _Revoked()


def _app(settings: Settings, pool: ConnectionPool, schema: str, revoked: _Revoked, **stream: Any) -> Flask:
    return service_app(
        "match",
        settings,
        pool,
        schema=schema,
        scheduler=RecordingScheduler(),
        streams=StreamSettings(**stream),
        sessions=revoked,
    )


@pytest.fixture
def app(settings: Settings, pool: ConnectionPool, match_schema: str, revoked: _Revoked) -> Flask:
    return _app(settings, pool, match_schema, revoked, heartbeat_seconds=0.3)


class _Stream:
    """An open stream of the test client, read frame by frame."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.frames = SseReader(iter(response.response))

    def close(self) -> None:
        self.response.close()


def _open(player: Player, match_id: str, query: str = "", headers: dict[str, str] | None = None) -> Any:
    return player.client.get(
        f"/v1/matches/{match_id}/stream{query}", headers=player.headers(headers), buffered=False
    )


@pytest.fixture
def opened() -> Iterator[Any]:
    streams_: list[_Stream] = []

    def open_(
        player: Player, match_id: str, query: str = "", headers: dict[str, str] | None = None
    ) -> _Stream:
        response = _open(player, match_id, query, headers)
        assert response.status_code == 200, response.get_data()
        assert response.mimetype == "text/event-stream"
        s = _Stream(response)
        streams_.append(s)
        return s

    yield open_
    for s in streams_:
        s.close()


def _events(player: Player, match_id: str, after: int = 0) -> list[Any]:
    body = player.get(f"/v1/matches/{match_id}/events?after={after}").get_json()
    return list(body["events"])


def _mulligan(player: Player, match_id: str) -> dict[str, Any]:
    return player.command(match_id, {"type": "mulligan", "cards": []})


def _two_players_match(make_player: Any, admin: Any) -> tuple[Player, Player, str]:
    alice, bob = make_player(), make_player()
    return alice, bob, admin([alice, bob], [DECK, DECK])


def test_each_visible_event_comes_with_its_version_as_id_and_last_event_id_resumes_there(
    make_player: Any, admin: Any, opened: Any
) -> None:
    alice, bob, match_id = _two_players_match(make_player, admin)
    s = opened(alice, match_id)
    first = next(s.frames)
    assert first.retry == 2000
    frames = s.frames.until("state")
    assert messages(frames) == _events(alice, match_id)
    assert [f.id for f in frames if f.event is None] == [str(e["version"]) for e in messages(frames)]
    state = frames[-1].json
    assert set(state["awaiting"]) == {alice.id, bob.id}  # both mulligans are due
    assert state["legal_commands"] and frames[-1].id == str(state["version"])
    before = state["version"]

    _mulligan(alice, match_id)
    now = _mulligan(bob, match_id)["version"]
    pushed = _until_version(s.frames, now)
    assert messages(pushed) == _events(alice, match_id, before)
    s.close()

    # Resume: the header wins over ?after=, and the stream starts exactly after it.
    cut = messages(pushed)[0]["version"]
    again = opened(alice, match_id, "?after=0", {"Last-Event-ID": str(cut)})
    resumed = again.frames.until("state")
    assert messages(resumed) == _events(alice, match_id, cut)
    assert int(resumed[-1].id or 0) == _events(alice, match_id)[-1]["version"]


def _until_version(frames: SseReader, version: int) -> list[Frame]:
    """Frames up to the state at ``version`` (events stored close together come in one batch)."""
    got: list[Frame] = []
    while not got or got[-1].json["version"] < version:
        got += frames.until("state")
    return got


def test_a_stream_carries_exactly_what_the_players_projection_shows_and_nothing_hidden(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    deck_a, deck_b = decks_without_common_cards()
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [deck_a, deck_b])
    received: dict[str, list[Frame]] = {}

    def listen(player: Player) -> None:
        response = _open(player.fresh(), match_id)
        assert response.status_code == 200
        received[player.id] = list(SseReader(iter(response.response)))  # ends after MatchEnded
        response.close()

    listeners = [threading.Thread(target=listen, args=(p,)) for p in (alice, bob)]
    for t in listeners:
        t.start()
    play_to_end({alice.id: alice, bob.id: bob}, svc, match_id)
    for t in listeners:
        t.join(60)
        assert not t.is_alive(), "a stream did not end with its match"

    stored = svc.matches.read_events(match_id)
    for player in (alice, bob):
        frames = received[player.id]
        assert messages(frames) == _events(player, match_id), "not the long-poll's projection"
        assert messages(frames)[-1]["type"] == "MatchEnded"
        seen = [(player.id, int(f.id or 0), f.json) for f in frames if f.data]
        assert assert_no_leak(seen, stored) > 20
        # The match is over and the player has all of it: 204, which tells EventSource to stop.
        done = _open(player, match_id, headers={"Last-Event-ID": frames[-1].id or ""})
        assert done.status_code == 204


def test_streams_are_capped_per_player_and_counted_while_open(
    settings: Settings, pool: ConnectionPool, match_schema: str, revoked: _Revoked
) -> None:
    app = _app(settings, pool, match_schema, revoked, heartbeat_seconds=2.5, per_player=2)
    alice, bob = Player(app), Player(app)
    match_id = _admin_match(app, alice, bob)
    gauge_before = _open_streams()
    first, second = _started(alice, match_id), _started(alice.fresh(), match_id)
    assert _open_streams() == gauge_before + 2

    refused = _open(alice.fresh(), match_id)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    assert refused.headers["Retry-After"] == "3"  # a stream whose client left is noticed by then
    theirs = _started(bob, match_id)  # another player's streams are theirs
    assert alice.get(f"/v1/matches/{match_id}/events?after=0&wait=0.1").status_code == 200  # not a stream

    first.close()
    assert _open_streams() == gauge_before + 2  # bob's and alice's second
    third = _started(alice.fresh(), match_id)
    for response in (second, third, theirs):
        response.close()
    assert _open_streams() == gauge_before
    with app.app_context():
        assert current_service().streams.slots.open_for(alice.id) == 0


def _started(player: Player, match_id: str) -> Any:
    """An open stream whose first frame was read (a server starts writing at once)."""
    response = _open(player, match_id)
    assert response.status_code == 200, response.get_data()
    assert next(SseReader(iter(response.response))).retry == 2000
    return response


def _open_streams() -> float:
    return REGISTRY.get_sample_value("arcana_open_streams", {"service": "match"}) or 0.0


def _admin_match(app: Flask, *players: Player) -> str:
    from tests.integration.match.conftest import OPERATOR

    body = {"setup": {"players": [{"id": p.id, "deck": DECK} for p in players]}}
    r = app.test_client().post(
        "/v1/admin/matches", json=body, headers={"Authorization": f"Bearer {OPERATOR}"}
    )
    assert r.status_code == 201, r.get_json()
    return str(r.get_json()["match_id"])


def test_an_idle_stream_sends_heartbeats_and_still_delivers_the_next_event(
    make_player: Any, admin: Any, opened: Any
) -> None:
    alice, bob, match_id = _two_players_match(make_player, admin)
    s = opened(bob, match_id)
    before = s.frames.until("state")[-1].json["version"]
    pings = [next(s.frames) for _ in range(4)]  # 0.3 s apart: nothing else happens meanwhile
    assert all(p.is_ping for p in pings), pings
    _mulligan(alice, match_id)
    pushed = [f for f in s.frames.until("state") if not f.is_ping]
    assert messages(pushed) and messages(pushed) == _events(bob, match_id, before)


def test_an_open_stream_is_presence(
    make_player: Any, admin: Any, opened: Any, pool: ConnectionPool, match_schema: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(streams, "TOUCH_EVERY_SECONDS", 0.2)
    _, bob, match_id = _two_players_match(make_player, admin)
    s = opened(bob, match_id)
    s.frames.until("state")
    clock.advance(30)  # longer than a player may be silent; the stream speaks for bob meanwhile
    target = clock.now() - timedelta(seconds=1)

    def seen() -> bool:
        next(s.frames)  # keeps the stream's generator running (a heartbeat at most 0.3 s away)
        return _last_seen(pool, match_schema, match_id, bob.id) >= target

    wait_until(seen, 10, "the open stream recorded bob's presence")


def _last_seen(pool: ConnectionPool, schema: str, match_id: str, player: str) -> datetime:
    with pool.connection() as conn:
        row = conn.execute(
            f'SELECT last_seen FROM "{schema}".match_presence WHERE match_id = %s AND player_id = %s',
            (match_id, player),
        ).fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def test_a_browser_opens_the_stream_with_a_ticket_of_its_session_and_of_that_match_only(
    make_player: Any, admin: Any, revoked: _Revoked, monkeypatch: Any
) -> None:
    alice, bob, eve = make_player(), make_player(), make_player()
    match_id = admin([alice, bob], [DECK, DECK])
    other = admin([alice, eve], [DECK, DECK])
    issued = alice.post(f"/v1/matches/{match_id}/stream-tickets")
    assert issued.status_code == 201, issued.get_json()
    ticket = issued.get_json()["ticket"]
    anonymous = alice.client

    def stream(mid: str, t: str) -> Any:
        return anonymous.get(f"/v1/matches/{mid}/stream?ticket={t}", buffered=False)

    ok = stream(match_id, ticket)
    assert ok.status_code == 200 and ok.mimetype == "text/event-stream"
    assert messages(SseReader(iter(ok.response)).until("state")) == _events(alice, match_id)
    ok.close()

    assert eve.post(f"/v1/matches/{match_id}/stream-tickets").status_code == 404  # not her match
    assert stream(other, ticket).status_code == 401  # another match
    assert stream(match_id, alice.token).status_code == 401  # a bearer token is no ticket
    as_bearer = anonymous.get(f"/v1/matches/{match_id}", headers={"Authorization": f"Bearer {ticket}"})
    assert as_bearer.status_code == 401  # and a ticket no bearer token
    assert anonymous.get(f"/v1/matches/{match_id}/stream").status_code == 401
    assert stream(match_id, _ticket(alice, match_id, minutes_ago=2)).status_code == 401  # expired

    # Logged out: the ticket no longer opens, and an open stream ends at its next presence beat.
    monkeypatch.setattr(streams, "TOUCH_EVERY_SECONDS", 0.2)
    live = stream(match_id, ticket)
    assert live.status_code == 200
    frames = SseReader(iter(live.response))
    frames.until("state")
    revoked.tokens.add(jwt.decode(alice.token, options={"verify_signature": False})["jti"])
    assert stream(match_id, ticket).status_code == 401
    assert all(f.is_ping for f in frames), "the stream went on after its session was logged out"
    live.close()


def _ticket(player: Player, match_id: str, *, minutes_ago: int) -> str:
    issued = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    claims = {
        "iss": stream_http.TICKET_ISSUER,
        "sub": player.id,
        "mid": match_id,
        "jti": uuid.uuid4().hex,
        "ver": 1,
        "tex": int((issued + timedelta(hours=1)).timestamp()),
        "iat": issued,
        "exp": issued + timedelta(seconds=stream_http.TICKET_SECONDS),
    }
    return jwt.encode(claims, stream_http._ticket_key(SECRET), algorithm="HS256")
