"""Issue 17, finding 9: deck writes (save, rename, delete, activate) are limited per player: over
the limit, 429 ``too_many_requests`` with ``Retry-After`` in the one error shape, nothing written;
another player is not affected and the window's end frees the player again."""

from __future__ import annotations

from typing import Any

import pytest

from libs import clock
from tests.integration.economy.test_bad_input import assert_refused


@pytest.fixture(autouse=True)
def _limits(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("ARCANA_DECK_WRITES_PER_WINDOW", "5")
    monkeypatch.setenv("ARCANA_DECK_WRITES_WINDOW_SECONDS", "60")
    clock.set_offset(0)
    yield
    clock.set_offset(0)


def test_renaming_the_active_deck_in_a_loop_is_stopped(client, counts) -> None:  # type: ignore[no-untyped-def]
    me, other = client(), client()
    (deck,) = me.get("/v1/decks").get_json()["decks"]
    path, cards = f"/v1/decks/{deck['deck_id']}", deck["cards"]
    for i in range(4):
        assert me.put(path, {"name": f"n{i}", "cards": cards}).status_code == 200
    assert me.post(f"{path}/activate").status_code == 200  # the fifth write of the minute
    before = counts()
    for refused in (
        me.put(path, {"name": "again", "cards": cards}),
        me.post(f"{path}/activate"),
        me.post("/v1/decks", {"name": "new", "cards": []}),
        me.delete(path),
    ):
        assert_refused(refused, 429, "too_many_requests")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert counts() == before  # no event, no row: nothing for other services to store either
    assert me.get("/v1/decks").get_json()["decks"][0]["name"] == "n3"  # reads are not limited
    (theirs,) = other.get("/v1/decks").get_json()["decks"]
    assert other.put(f"/v1/decks/{theirs['deck_id']}", {"name": "x", "cards": cards}).status_code == 200
    clock.advance(61)
    assert me.put(path, {"name": "later", "cards": cards}).status_code == 200
