"""Fair play at the match service (issue 17, findings 1, 2, 3, 7, 8) on the real PostgreSQL: each
MatchEnded carries every player's verdict, decided from the UTC day's tally as the match ends; a
request naming a player with an unfinished match, or with an active deck economy published as
illegal, is rejected; operator matches are always mode ``admin`` and count nothing."""

from __future__ import annotations

import random
import uuid
from typing import Any

from libs.contracts import match_id_for
from libs.games.arcana import STARTER_DECK
from services.match.service import MatchService
from tests.integration.match.conftest import OPERATOR, deliver, registered
from tests.integration.match.play import next_move


def _request(svc: MatchService, mode: str, *players: str) -> list[Any]:
    request_id = f"req-{uuid.uuid4()}"
    data = {
        "request_id": request_id,
        "mode": mode,
        "players": [{"id": p, "deck": list(STARTER_DECK)} for p in players],
    }
    deliver(svc, "MatchRequested", data, f"pairing-{request_id}")
    return svc.matches.read_events(match_id_for(request_id))


def _concede_on_turn(players: dict[str, Any], svc: MatchService, match_id: str, turn: int) -> dict[str, Any]:
    """Play greedy moves until ``turn`` is being played, then its active player concedes; the
    MatchEnded as stored."""
    rng = random.Random(turn)
    while True:
        m = svc.matches.load(match_id)
        assert m is not None and m.rules is not None
        if m.rules.turn >= turn and m.rules.phase == "playing":
            players[m.rules.pids[m.rules.active]].command(match_id, {"type": "concede"})
            break
        move = next_move(svc, match_id, rng)
        assert move is not None
        players[move[0]].command(match_id, move[1])
    (ended,) = [e.data for e in svc.matches.read_events(match_id) if e.type == "MatchEnded"]
    return dict(ended)


def test_the_fourth_counting_match_of_a_pair_in_a_day_carries_a_repeat_opponent_verdict(
    svc: MatchService, make_player: Any
) -> None:
    alice, bob, carol = make_player(), make_player(), make_player()
    players = {p.id: p for p in (alice, bob, carol)}
    setup = [{"id": alice.id, "deck": list(STARTER_DECK)}, {"id": bob.id, "deck": list(STARTER_DECK)}]
    verdicts = []
    for _ in range(4):
        match_id = svc.creation.create_match("casual", setup).after.match_id
        verdicts.append(_concede_on_turn(players, svc, match_id, 4)["verdict"])
    for v in verdicts[:3]:
        assert all(v[p]["coins"] and v[p]["xp"] and not v[p]["rating"] for p in (alice.id, bob.id))
    fourth = verdicts[3][alice.id]
    assert (fourth["coins"], fourth["xp"], fourth["rating"]) == (False, False, False)
    assert fourth["reasons"]["coins"] == "repeat_opponent" and fourth["message"] == "repeat opponent"
    # an early ranked concede: the leaver loses rating, no one is paid; the tally is per pair
    other = [{"id": alice.id, "deck": list(STARTER_DECK)}, {"id": carol.id, "deck": list(STARTER_DECK)}]
    match_id = svc.creation.create_match("ranked", other).after.match_id
    early = _concede_on_turn(players, svc, match_id, 1)
    leaver = early["loser"]
    assert early["verdict"][leaver]["rating"] and not early["verdict"][leaver]["coins"]
    assert early["verdict"][early["winner"]] == {
        "coins": False, "xp": False, "rating": False, "message": "conceded or forfeited before turn 4",
        "reasons": {"coins": "early_concede", "rating": "early_concede", "xp": "early_concede"},
    }  # fmt: skip
    # shown to the players with the match
    assert alice.view(match_id)["mode"] == "ranked"


def test_a_request_naming_a_player_with_an_unfinished_match_is_rejected(
    svc: MatchService, make_player: Any
) -> None:
    alice, bob, carol = make_player(), make_player(), make_player()
    registered(svc, alice, bob, carol)
    first = _request(svc, "ranked", alice.id, bob.id)
    assert first[0].type == "MatchCreated"
    second = _request(svc, "casual", carol.id, alice.id)
    assert [e.type for e in second] == ["MatchRequestRejected"]
    running = first[0].data["match_id"]
    assert second[0].data["reason"] == "match_in_progress"
    assert second[0].data["problems"] == {alice.id: [f"match {running} has not ended"]}
    alice.command(running, {"type": "concede"})
    assert _request(svc, "casual", carol.id, alice.id)[0].type == "MatchCreated"


def test_a_request_with_an_active_deck_economy_published_as_illegal_is_rejected(
    svc: MatchService, make_player: Any
) -> None:
    alice, bob = make_player(), make_player()
    registered(svc, alice, bob)
    problems = ["you own 1 copy of ember_wolf, the deck has 2"]
    data = {
        "player_id": bob.id, "deck_id": "d", "name": "n", "cards": list(STARTER_DECK), "legal": False,
        "problems": problems,
    }  # fmt: skip
    deliver(svc, "ActiveDeckChanged", data, f"decks-{bob.id}", 2)  # a card disenchanted while queued
    rejected = _request(svc, "ranked", alice.id, bob.id)
    assert [e.type for e in rejected] == ["MatchRequestRejected"]
    assert rejected[0].data["reason"] == "illegal_deck" and rejected[0].data["problems"] == {bob.id: problems}


def test_operator_matches_are_always_admin_and_count_for_no_one(
    svc: MatchService, make_player: Any, app: Any
) -> None:
    alice, bob = make_player(), make_player()
    client = app.test_client()
    body = {"setup": {"players": [{"id": p.id, "deck": list(STARTER_DECK)} for p in (alice, bob)]}}
    auth = {"Authorization": f"Bearer {OPERATOR}"}
    for mode in ("ranked", "casual", "practice"):
        r = client.post("/v1/admin/matches", json={**body, "mode": mode}, headers=auth)
        assert r.status_code == 422, (mode, r.get_json())
    r = client.post("/v1/admin/matches", json=body, headers=auth)
    assert r.status_code == 201, r.get_json()
    match_id = r.get_json()["match_id"]
    assert alice.view(match_id)["mode"] == "admin"
    ended = _concede_on_turn({alice.id: alice, bob.id: bob}, svc, match_id, 5)
    assert ended["mode"] == "admin" and ended["turns"] >= 4
    assert all(not any(v[a] for a in ("coins", "xp", "rating")) for v in ended["verdict"].values())
