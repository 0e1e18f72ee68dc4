"""Economy end to end: gunicorn, relays and consumers started as ``make run`` starts them, driven
over HTTP. Register -> 400 coins, the starter collection and an active legal deck; log in twice the
same day -> 50 coins once, the next UTC day (every process's clock moved) -> 50 more; a casual
match played to the end -> 60 and 20 coins (20 each on a draw); a practice match -> nothing; after
a SIGKILL of economy's consumers, a lost inbox and every match event published again -> paid once."""

from __future__ import annotations

import time
import uuid
from typing import Any

import psycopg
import pytest
import requests

from harness.stack import Stack
from tests.e2e.test_match_e2e import Client, known_to_match, play_both, wait_for
from tests.e2e.test_ranked_e2e import queued_match

pytestmark = pytest.mark.e2e


def eventually(probe: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def register(stack: Stack) -> tuple[Client, str]:
    username = f"e2e_{uuid.uuid4().hex[:12]}"
    password = "correct horse battery"
    r = requests.post(
        f"{stack.url}/v1/accounts", json={"username": username, "password": password}, timeout=10
    )
    assert r.status_code == 201, r.text
    player_id = r.json()["player_id"]
    wait_for(lambda: known_to_match(stack, player_id), 60)  # a match may be requested for it
    return Client(stack, player_id), username


def wallet(stack: Stack, player: Client) -> dict[str, Any] | None:
    r = player.http.get(f"{stack.url}/v1/wallet", timeout=10)
    return r.json() if r.status_code == 200 else None


def consumed(stack: Stack, stream: str, type_: str) -> bool:
    """Whether economy's consumer has applied an event ``type_`` of ``stream`` (its inbox row)."""
    with psycopg.connect(stack.database_url) as conn:
        query = "SELECT count(*) FROM economy.inbox WHERE stream = %s AND type = %s"
        row = conn.execute(query, (stream, type_)).fetchone()
    return bool(row and row[0])


def logins_consumed(stack: Stack, player: Client) -> int:
    """The player's PlayerLoggedIn events economy's consumer applied."""
    with psycopg.connect(stack.database_url) as conn:
        query = "SELECT count(*) FROM economy.inbox WHERE stream = %s AND type = 'PlayerLoggedIn'"
        row = conn.execute(query, (f"player-{player.id}",)).fetchone()
    return int(row[0]) if row else 0


def test_a_new_player_gets_coins_cards_and_an_active_legal_deck(stack: Stack) -> None:
    player, _ = register(stack)
    found = eventually(lambda: wallet(stack, player), 60, "the new player's wallet")
    assert (found["coins"], found["free_packs"], found["pity_counter"]) == (400, 0, 0)
    cards = player.get("/v1/collection")["cards"]
    assert sum(c["copies"] for c in cards) >= 20
    (deck,) = player.get("/v1/decks")["decks"]
    assert deck["active"] and deck["legal"] and len(deck["cards"]) == 20


def log_in(stack: Stack, username: str) -> str:
    body = {"username": username, "password": "correct horse battery"}
    r = requests.post(f"{stack.url}/v1/sessions", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def daily_logins(player: Client) -> list[dict[str, Any]]:
    return [e for e in player.get("/v1/wallet/history")["entries"] if e["reason"] == "daily_login"]


def match_credits(player: Client, match_id: str) -> list[int]:
    """The coins credited to ``player`` for ``match_id`` (quest rewards may come on top, later)."""
    history = player.get("/v1/wallet/history")["entries"]
    return [e["amount"] for e in history if e["reason"] == "match" and match_id in e["source"]]


def test_two_log_ins_the_same_day_pay_50_coins_once_and_the_next_day_pays_again(stack: Stack) -> None:
    player, username = register(stack)
    eventually(lambda: wallet(stack, player), 60, "the wallet")
    log_in(stack, username)
    log_in(stack, username)
    # Progression pays streak days through the same wallet: read the daily log-in credits themselves.
    eventually(lambda: [e["amount"] for e in daily_logins(player)] == [50], 60, "the daily coins")
    eventually(lambda: logins_consumed(stack, player) >= 2, 30, "both log-ins consumed")
    assert [e["amount"] for e in daily_logins(player)] == [50]

    stack.advance_clock(24 * 3600)  # every process of the stack: the next UTC day
    try:
        player.http.headers["Authorization"] = f"Bearer {log_in(stack, username)}"  # the stack's clock
        eventually(
            lambda: [e["amount"] for e in daily_logins(player)] == [50, 50], 60, "the next day's coins"
        )
    finally:
        stack.advance_clock(-24 * 3600)


def test_a_casual_match_pays_60_and_20_and_practice_pays_nothing(stack: Stack) -> None:
    (a, _), (b, _) = register(stack), register(stack)
    for p in (a, b):
        eventually(lambda p=p: wallet(stack, p), 60, "the wallets")
    match_id = queued_match(a, b, "casual")  # operator matches pay nothing: through the queue
    ended, _ = play_both(a, b, match_id)
    assert ended["phase"] == "ended" and ended["turn"] >= 4
    eventually(lambda: consumed(stack, f"match-{match_id}", "MatchEnded"), 60, "the MatchEnded consumed")
    paid = {p.id: match_credits(p, match_id) for p in (a, b)}
    winner = ended.get("winner")
    if winner in paid:
        loser = next(p for p in paid if p != winner)
        assert (paid[winner], paid[loser]) == ([60], [20])
    else:
        assert paid == {a.id: [20], b.id: [20]}

    r = a.http.post(f"{stack.url}/v1/practice", json={}, timeout=10)
    assert r.status_code == 201, r.text
    practice = r.json()["match_id"]
    conceded = a.http.post(
        f"{stack.url}/v1/matches/{practice}/commands", json={"type": "concede"}, timeout=40
    )
    assert conceded.status_code == 200, conceded.text
    eventually(
        lambda: consumed(stack, f"match-{practice}", "MatchEnded"), 60, "the practice MatchEnded consumed"
    )
    history = a.get("/v1/wallet/history")["entries"]
    assert [e for e in history if practice in e["source"]] == []  # practice pays nothing


def test_match_coins_are_paid_once_after_a_consumer_sigkill_and_everything_redelivered(stack: Stack) -> None:
    """SIGKILL economy's consumers, forget their inbox and make the match relay publish every event
    again: restarted, they read the MatchEnded again and pay nothing twice (credits are keyed by
    their source in the event store itself)."""
    (a, _), (b, _) = register(stack), register(stack)
    for p in (a, b):
        eventually(lambda p=p: wallet(stack, p), 60, "the wallets")
    match_id = queued_match(a, b, "ranked")
    play_both(a, b, match_id)
    eventually(lambda: consumed(stack, f"match-{match_id}", "MatchEnded"), 60, "the MatchEnded consumed")
    paid = [match_credits(p, match_id) for p in (a, b)]
    assert sorted(paid) in ([[20], [60]], [[20], [20]])

    stack.kill("consumers")
    with psycopg.connect(stack.database_url, autocommit=True) as conn:
        conn.execute("DELETE FROM economy.inbox")
        conn.execute("UPDATE match.relay_progress SET position = 0")
    stack.start("consumers")
    eventually(
        lambda: consumed(stack, f"match-{match_id}", "MatchEnded"), 90, "the MatchEnded consumed again"
    )
    assert [match_credits(p, match_id) for p in (a, b)] == paid
