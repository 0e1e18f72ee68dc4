"""Issue 17, finding 11: a player has a public display name separate from the log-in name: a
default that reveals nothing of the username, then one the player chooses (validated, unique
case-insensitively, never the player's own username), published as ``DisplayNameChanged``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.contracts import default_display_name
from tests.integration.web.shape import assert_error

Login = Callable[..., Any]


def _bearer(login: Login, username: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {login(username).get_json()['token']}"}


def _put(client: FlaskClient, headers: dict[str, str], name: Any) -> Any:
    return client.put("/v1/me/display-name", json={"display_name": name}, headers=headers)


def _events(pool: ConnectionPool, schema: str, player: str) -> list[tuple[str, dict[str, Any]]]:
    query = sql.SQL("SELECT type, data FROM {} WHERE stream = %s ORDER BY version")
    with pool.connection() as conn:
        rows = conn.execute(query.format(sql.Identifier(schema, "events")), (f"player-{player}",)).fetchall()
    return [(t, d) for t, d in rows if t != "PlayerLoggedIn"]


def test_a_new_player_has_a_default_name_that_reveals_nothing(
    client: FlaskClient, register: Callable[..., Any], login: Login
) -> None:
    created = register("secret_login")
    assert created["display_name"] == default_display_name(created["player_id"])
    assert "secret" not in created["display_name"].lower()
    me = client.get("/v1/me", headers=_bearer(login, "secret_login")).get_json()
    assert me["display_name"] == created["display_name"]


def test_a_player_chooses_a_name_published_once(
    client: FlaskClient,
    register: Callable[..., Any],
    login: Login,
    pool: ConnectionPool,
    accounts_schema: str,
) -> None:
    player = register("wren")["player_id"]
    headers = _bearer(login, "wren")
    changed = _put(client, headers, "Night Owl")
    assert changed.status_code == 200, changed.get_json()
    assert (changed.get_json()["display_name"], changed.get_json()["username"]) == ("Night Owl", "wren")
    assert client.get("/v1/me", headers=headers).get_json()["display_name"] == "Night Owl"
    assert _put(client, headers, "Night Owl").status_code == 200  # the same name: no new event
    assert _events(pool, accounts_schema, player) == [
        ("PlayerRegistered", {"player_id": player}),  # no username (issue 34)
        ("DisplayNameChanged", {"player_id": player, "display_name": "Night Owl"}),
    ]


def test_taken_names_and_the_own_username_are_refused_and_write_nothing(
    client: FlaskClient, register: Callable[..., Any], login: Login, counts: Callable[[], dict[str, int]]
) -> None:
    register("xena")
    register("yuri")
    zed = register("zed")  # keeps the default name
    assert _put(client, _bearer(login, "xena"), "Warrior Princess").status_code == 200
    yuri = _bearer(login, "yuri")
    before = counts()
    # another's (any case), the own username, a default name's form (another's default, or unused)
    for name in ("warrior princess", "YURI", zed["display_name"].lower(), "Player-0123456789ab"):
        assert_error(_put(client, yuri, name), 409, "display_name_taken")
    assert counts() == before


@pytest.mark.parametrize(
    "name", ["ab", "x" * 25, "two  spaces", " edge", "edge ", "emoji 🙂", "tab\tname", 7]
)
def test_invalid_names_are_422_and_write_nothing(
    client: FlaskClient,
    register: Callable[..., Any],
    login: Login,
    counts: Callable[[], dict[str, int]],
    name: Any,
) -> None:
    register("zora")
    headers = _bearer(login, "zora")
    before = counts()
    assert_error(_put(client, headers, name), 422, "validation_error")
    assert counts() == before


def test_name_changes_are_rate_limited(
    client: FlaskClient, register: Callable[..., Any], login: Login, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARCANA_DISPLAY_NAME_CHANGES_PER_WINDOW", "2")
    register("abel")
    headers = _bearer(login, "abel")
    assert [_put(client, headers, f"Name {i}").status_code for i in range(2)] == [200, 200]
    refused = _put(client, headers, "Name 3")
    assert_error(refused, 429, "too_many_requests")
    assert int(refused.headers["Retry-After"]) > 0
