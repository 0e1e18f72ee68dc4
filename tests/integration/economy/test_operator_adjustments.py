"""Issue 34, point 5: an operator refunds and claws back coins, dust and packs, each with a reason.

Each is a compensating ledger event (a ``WalletCredited`` of reason ``refund``, a ``WalletDebited``
of reason ``claw_back``), never an edit: the ledger shows it with the balance after, the wallet's
balance follows, and economy's ``audit`` stream holds an ``OperatorActed`` naming the operator and
the reason. Bad input (an unknown wallet, no reason, more than the wallet holds, nothing to move, a
player's token) is a clear 4xx in the one error shape and writes nothing."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from libs.eventstore import EventStore
from tests.integration.economy.conftest import OPERATOR
from tests.integration.web.shape import assert_error

AUTH = {"Authorization": f"Bearer {OPERATOR}"}


def _ledger(me: Any, n: int) -> set[tuple[str, int, int, str]]:
    entries = me.get("/v1/wallet/history").get_json()["entries"][:n]
    return {(e["currency"], e["amount"], e["balance_after"], e["reason"]) for e in entries}


def test_refund_then_claw_back_are_compensating_ledger_events(
    client: Any, app: Any, pool: ConnectionPool, economy_schema: str
) -> None:
    me, http = client(), app.test_client()
    refund = {"coins": 150, "dust": 40, "reason": "pack bought twice by a client bug", "refund_id": "T-1"}
    r = http.post(f"/v1/admin/wallets/{me.id}/refunds", json=refund, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    assert r.get_json() == {
        "source": "refund:T-1",
        "coins": 150,
        "dust": 40,
        "free_packs": 0,
        "coins_after": 550,
        "dust_after": 40,
        "free_packs_after": 0,
    }
    assert _ledger(me, 2) == {("coins", 150, 550, "refund"), ("dust", 40, 40, "refund")}
    again = http.post(f"/v1/admin/wallets/{me.id}/refunds", json=refund, headers=AUTH)
    assert_error(again, 409, "already_credited")  # one refund per id

    taken = {"coins": 500, "reason": "coins from an exploited quest"}
    r = http.post(f"/v1/admin/wallets/{me.id}/claw-backs", json=taken, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["coins"], r.get_json()["coins_after"]) == (500, 50)
    assert _ledger(me, 1) == {("coins", -500, 50, "claw_back")}
    wallet = me.get("/v1/wallet").get_json()
    assert (wallet["coins"], wallet["dust"]) == (50, 40)

    stored = EventStore(pool, economy_schema)
    assert [e.type for e in stored.read(f"wallet-{me.id}")][-2:] == ["WalletCredited", "WalletDebited"]
    audit = [e.data for e in stored.read("audit")]
    assert [(a["action"], a["operator"], a["reason"], a["player_id"]) for a in audit] == [
        ("refund", "operator", "pack bought twice by a client bug", me.id),
        ("claw_back", "operator", "coins from an exploited quest", me.id),
    ]
    assert audit[1]["details"]["coins_after"] == 50 and audit[1]["subject"] == f"wallet-{me.id}"


def test_refused_adjustments_write_nothing(client: Any, app: Any, counts: Any) -> None:
    me, http = client(), app.test_client()
    before = counts()
    url = f"/v1/admin/wallets/{me.id}"
    stranger = f"/v1/admin/wallets/{uuid.uuid4()}"

    beyond = http.post(
        f"{url}/claw-backs", json={"coins": 401, "dust": 1, "reason": "too much"}, headers=AUTH
    )
    error = assert_error(beyond, 409, "beyond_balance")
    assert set(error["details"]["balance"]) == {"coins", "dust"}
    assert_error(http.post(f"{url}/refunds", json={"coins": 5}, headers=AUTH), 422, "validation_error")
    assert_error(
        http.post(f"{url}/refunds", json={"coins": 0, "reason": "nothing"}, headers=AUTH),
        422,
        "invalid_amount",
    )
    assert_error(
        http.post(f"{stranger}/refunds", json={"coins": 5, "reason": "who"}, headers=AUTH),
        404,
        "wallet_not_found",
    )
    assert_error(
        http.post(f"{stranger}/claw-backs", json={"coins": 5, "reason": "who"}, headers=AUTH),
        404,
        "wallet_not_found",
    )
    assert_error(me.post(f"{url}/refunds", {"coins": 5, "reason": "myself"}), 403, "forbidden")
    assert counts() == before
    assert me.get("/v1/wallet").get_json()["coins"] == 400
