"""Finding 4: a keyed request holds ONE pooled connection (its idempotency record's transaction);
its answer is read in that transaction, so it shows the change, equals the unkeyed answer, and a
pool of N connections serves N keyed requests at once without anyone waiting for a second one."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs.games.arcana import STARTER_DECK
from libs.kit.web import service_app
from services.economy.domain.credits import PlayerCredit
from services.economy.domain.wallet import Credit
from tests.integration.conftest import settings_for_tests
from tests.integration.economy.conftest import SECRET, Client

VOLATILE = ("deck_id", "created_at", "updated_at")


def _stable(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in VOLATILE}


class Keyed(Client):
    """A client sending every write with a fresh ``Idempotency-Key``."""

    def _keyed(self) -> dict[str, str]:
        return {**self.headers, "Idempotency-Key": f"k-{uuid.uuid4()}"}

    def post(self, path: str, body: Any = None) -> Any:
        return self.http.post(path, json=body, headers=self._keyed())

    def put(self, path: str, body: Any) -> Any:
        return self.http.put(path, json=body, headers=self._keyed())


def _session(me: Client) -> list[tuple[int, dict[str, Any]]]:
    """Every keyed write of economy once, with what each answers."""
    answers = []
    created = me.post("/v1/decks", {"name": "second", "cards": list(STARTER_DECK[:10])})
    answers.append(created)
    deck_id = created.get_json().get("deck_id")
    answers.append(me.put(f"/v1/decks/{deck_id}", {"name": "renamed", "cards": list(STARTER_DECK)}))
    answers.append(me.post(f"/v1/decks/{deck_id}/activate"))
    answers.append(me.post("/v1/disenchants", {"card_id": "wolf_pup"}))
    answers.append(me.post("/v1/crafts", {"card_id": "wolf_pup"}))
    return [(r.status_code, _stable(r.get_json())) for r in answers]


def _with_dust(svc: Any, player: str) -> str:
    svc.credit(PlayerCredit(player, Credit(f"grant:{player}", "grant", dust=1000)))
    return player


def test_keyed_writes_answer_the_state_after_the_change_like_unkeyed_ones(app, svc, new_player) -> None:  # type: ignore[no-untyped-def]
    plain = _session(Client(app, _with_dust(svc, new_player())))
    keyed_client = Keyed(app, _with_dust(svc, new_player()))
    keyed = _session(keyed_client)
    assert keyed == plain
    assert [status for status, _ in keyed] == [201, 200, 200, 201, 201]
    assert keyed[1][1]["name"] == "renamed" and keyed[2][1]["active"] is True
    assert (keyed[3][1]["copies"], keyed[4][1]["copies"]) == (1, 2)
    decks = keyed_client.get("/v1/decks").get_json()["decks"]
    assert [(d["name"], d["active"]) for d in decks] == [("Starter deck", False), ("renamed", True)]


@pytest.fixture
def tiny_pool(postgres_url: str) -> Iterator[ConnectionPool]:
    """A pool of 2 connections that gives up waiting after 2 s (the 503 of the finding)."""
    pool = ConnectionPool(postgres_url, min_size=2, max_size=2, timeout=2.0, open=False)
    pool.open(wait=True, timeout=30)
    yield pool
    pool.close()


def test_as_many_keyed_requests_as_the_pool_holds_do_not_block_others(
    postgres_url, tiny_pool, economy_schema, svc, new_player
) -> None:  # type: ignore[no-untyped-def]
    settings = settings_for_tests(postgres_url, token_secret=SECRET)
    app = service_app("economy", settings, tiny_pool, schema=economy_schema)
    writers = [Keyed(app, _with_dust(svc, new_player())) for _ in range(2)]
    reader = Client(app, new_player())
    statuses: list[int] = []
    start = threading.Barrier(3)

    def write(me: Keyed) -> None:
        start.wait()
        for i in range(8):
            statuses.append(
                me.put(f"/v1/decks/{deck_ids[me.id]}", {"name": f"n{i}", "cards": []}).status_code
            )
            statuses.append(me.post("/v1/disenchants", {"card_id": "squire"}).status_code)
            statuses.append(me.post("/v1/crafts", {"card_id": "squire"}).status_code)

    deck_ids = {
        me.id: me.post("/v1/decks", {"name": "d", "cards": []}).get_json()["deck_id"] for me in writers
    }
    threads = [threading.Thread(target=write, args=(me,)) for me in writers]
    for t in threads:
        t.start()
    start.wait()
    reads = [reader.get("/v1/wallet").status_code for _ in range(20)]
    for t in threads:
        t.join()
    assert reads == [200] * 20
    assert sorted(set(statuses)) == [200, 201], statuses


def test_a_keyed_request_needs_only_the_one_connection_a_pool_of_one_has(
    postgres_url, economy_schema, svc, new_player
) -> None:  # type: ignore[no-untyped-def]
    pool = ConnectionPool(postgres_url, min_size=1, max_size=1, timeout=2.0, open=False)
    pool.open(wait=True, timeout=30)
    try:
        settings = settings_for_tests(postgres_url, token_secret=SECRET)
        app = service_app("economy", settings, pool, schema=economy_schema)
        me = Keyed(app, _with_dust(svc, new_player()))
        assert [status for status, _ in _session(me)] == [201, 200, 200, 201, 201]
    finally:
        pool.close()
