"""Bad input: every case a 4xx in the one error shape, and nothing written (events, idempotency
records, index rows)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from psycopg import sql

from libs.games.arcana import STARTER_DECK
from tests.integration.match.conftest import OPERATOR


@pytest.fixture
def game(make_player: Any, admin: Any) -> dict[str, Any]:
    """Alice's turn 1 (first player), both mulligans done; carol is in no match."""
    alice, bob, carol = make_player(), make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id, shuffle=False)
    alice.command(match_id, {"type": "mulligan", "cards": []})
    bob.command(match_id, {"type": "mulligan", "cards": []})
    return {"alice": alice, "bob": bob, "carol": carol, "match_id": match_id}


def _assert_error(response: Any, status: int, code: str | None = None) -> None:
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"} and isinstance(body["error"]["message"], str), body
    if code is not None:
        assert body["error"]["code"] == code, body


def test_bad_requests_are_4xx_and_write_nothing(game: dict[str, Any], counts: Any, app: Any) -> None:
    alice, bob, carol, mid = game["alice"], game["bob"], game["carol"], game["match_id"]
    view = alice.view(mid)
    hand = [c["id"] for c in view["you"]["hand"]]
    by_card = {c["card_id"]: c["id"] for c in view["you"]["hand"]}  # unshuffled starter deck, 1 mana
    unit, dart = by_card["wolf_pup"], by_card["ember_dart"]  # a 1-cost unit, a 1-cost "2 damage to a unit"
    bob_hand = [c["id"] for c in bob.view(mid)["you"]["hand"]]
    cmd = f"/v1/matches/{mid}/commands"
    other = str(uuid.uuid4())
    before = counts()
    cases: list[tuple[Any, int, str | None]] = [
        (alice.get(f"/v1/matches/{other}"), 404, "match_not_found"),
        (alice.get("/v1/matches/not-a-uuid"), 404, "match_not_found"),
        (alice.post(f"/v1/matches/{other}/commands", {"type": "end_turn"}), 404, "match_not_found"),
        (carol.get(f"/v1/matches/{mid}"), 404, "match_not_found"),
        (carol.get(f"/v1/matches/{mid}/events"), 404, "match_not_found"),
        (carol.get(f"/v1/matches/{mid}/legal-commands"), 404, "match_not_found"),
        (carol.post(cmd, {"type": "concede"}), 404, "match_not_found"),
        (app.test_client().get(f"/v1/matches/{mid}"), 401, "unauthorized"),
        (app.test_client().post(cmd, json={"type": "concede"}), 401, "unauthorized"),
        (alice.post(cmd, {"type": "dance"}), 422, "validation_error"),
        (alice.post(cmd, {"type": "play"}), 422, "validation_error"),
        (alice.post(cmd, {"type": "end_turn", "card": "c1"}), 422, "validation_error"),
        (alice.post(cmd, {"type": "end_turn", "extra": 1}), 422, "validation_error"),
        (alice.post(cmd, {"type": "play", "card": 5}), 422, "validation_error"),
        (alice.post(cmd, {"type": "play", "card": hand[0], "position": "0"}), 422, "validation_error"),
        (alice.post(cmd, {"type": "end_turn", "expected_version": -1}), 422, "validation_error"),
        (alice.post(cmd, {"type": "end_turn", "expected_version": True}), 422, "validation_error"),
        (alice.post(cmd, ["end_turn"]), 422, None),
        (
            alice.client.post(
                cmd, data="{not json", headers=alice.headers({"Content-Type": "application/json"})
            ),
            400,
            None,
        ),
        (alice.post(cmd, {"type": "play", "card": "c999"}), 422, "card_not_in_hand"),
        (alice.post(cmd, {"type": "play", "card": bob_hand[0]}), 422, "card_not_in_hand"),
        (alice.post(cmd, {"type": "play", "card": unit, "target": "hero"}), 422, "illegal_target"),
        (alice.post(cmd, {"type": "play", "card": dart, "target": "hero"}), 422, "illegal_target"),
        (alice.post(cmd, {"type": "play", "card": dart, "target": bob_hand[0]}), 422, "illegal_target"),
        (alice.post(cmd, {"type": "play", "card": dart}), 422, "target_required"),
        (alice.post(cmd, {"type": "play", "card": unit, "position": 3}), 422, "invalid_position"),
        (alice.post(cmd, {"type": "attack", "attacker": unit, "target": "hero"}), 422, "unknown_unit"),
        (alice.post(cmd, {"type": "attack", "attacker": "c1", "target": "hero"}), 422, "unknown_unit"),
        (alice.post(cmd, {"type": "mulligan", "cards": []}), 422, "wrong_phase"),
        (bob.post(cmd, {"type": "end_turn"}), 422, "not_your_turn"),
        (
            alice.post(cmd, {"type": "end_turn", "expected_version": view["version"] - 1}),
            409,
            "version_conflict",
        ),
        (alice.get(f"/v1/matches/{mid}/events?after=-1"), 422, "validation_error"),
        (alice.get(f"/v1/matches/{mid}/events?wait=26"), 422, "validation_error"),
        (alice.get(f"/v1/matches/{mid}/events?wait=abc"), 422, "validation_error"),
        (alice.get(f"/v1/matches/{mid}/events?since=3"), 422, "validation_error"),
        (alice.post("/v1/practice", {"deck": ["nope"] * 20}), 422, "invalid_deck"),
        (alice.post("/v1/practice", {"deck": "x"}), 422, "validation_error"),
        (alice.post("/v1/admin/matches", {"setup": {}}), 403, "forbidden"),
        (
            app.test_client().post(
                "/v1/admin/matches",
                json={"setup": {"players": [{"id": "a", "deck": list(STARTER_DECK)}] * 2}},
                headers={"Authorization": f"Bearer {OPERATOR}"},
            ),
            422,
            "invalid_setup",
        ),
    ]
    for i, (response, status, code) in enumerate(cases):
        try:
            _assert_error(response, status, code)
        except AssertionError as exc:
            raise AssertionError(f"case {i}: {exc}") from None
    assert counts() == before
    key = {"Idempotency-Key": "k-" + uuid.uuid4().hex}
    assert alice.post(cmd, {"type": "end_turn"}, headers=key).status_code == 200
    _assert_error(alice.post(cmd, {"type": "concede"}, headers=key), 422, "idempotency_key_reused")


def test_nothing_is_accepted_after_the_end(
    game: dict[str, Any], counts: Any, pool: Any, match_schema: str
) -> None:
    alice, bob, mid = game["alice"], game["bob"], game["match_id"]
    alice.command(mid, {"type": "concede"})
    alice.view(mid)
    query = sql.SQL("SELECT count(*) FROM {} WHERE match_id = %s").format(
        sql.Identifier(match_schema, "match_presence")
    )
    with pool.connection() as conn:
        assert conn.execute(query, (mid,)).fetchone() == (0,)  # presence is forgotten at the end
    before = counts()
    for player, body in (
        (alice, {"type": "end_turn"}),
        (bob, {"type": "concede"}),
        (bob, {"type": "end_turn"}),
    ):
        _assert_error(player.post(f"/v1/matches/{mid}/commands", body), 422, "match_over")
    assert counts() == before
    assert alice.get(f"/v1/matches/{mid}/legal-commands").get_json()["commands"] == []
