"""The economy's OpenAPI document against the app (schemathesis): every documented endpoint, fed
generated requests (valid and not), answers below 500, and every 4xx has the one error shape."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ENDPOINTS = {
    "/v1/wallet",
    "/v1/wallet/history",
    "/v1/collection",
    "/v1/packs",
    "/v1/crafts",
    "/v1/disenchants",
    "/v1/decks",
    "/v1/decks/{deck_id}",
    "/v1/decks/{deck_id}/activate",
    "/v1/admin/grants",
    "/v1/admin/wallets/{player_id}/refunds",
    "/v1/admin/wallets/{player_id}/claw-backs",
    "/v1/line/welcome",
    "/v1/line/collection",
    "/v1/line/decks",
    "/v1/line/decks/{deck_id}",
    "/v1/line/decks/{deck_id}/activate",
    "/v1/line/decks/autofill",
    "/v1/line/tournament/entries",
}


def test_every_endpoint_is_documented(app: Any) -> None:
    doc = app.test_client().get("/v1/openapi/economy.json")
    assert doc.status_code == 200
    assert set(doc.get_json()["paths"]) == ENDPOINTS


def test_generated_requests_never_fail_with_a_server_error(app: Any, client: Any) -> None:
    me = client()
    schema = schemathesis.openapi.from_wsgi("/v1/openapi/economy.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= len(ENDPOINTS)
    tokens = st.sampled_from([me.headers["Authorization"], "Bearer nonsense", None])
    for operation in operations:
        _probe(operation, tokens)


def _probe(operation: Any, tokens: Any) -> None:
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=operation.as_strategy(), token=tokens)
    def probe(case: Any, token: str | None) -> None:
        response = case.call(headers={"Authorization": token} if token else {})
        assert response.status_code < 500, (operation.label, response.status_code, response.text)
        if response.status_code >= 400:
            body = response.json()
            assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body

    probe()
