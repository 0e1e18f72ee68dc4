"""The whole game loop, every process real (``make run``'s command lines, one Kafka-protocol broker):
two new accounts register and log in, queue, are paired by matchmaking, play the match through the
match service, and then see what the rules say they earned — coins in economy, pass XP and quest
progress in progression, and, for a ranked match only, their ratings.

Expected values are computed here from the rules (docs/rules.md) and from the match's own
``MatchEnded`` as stored, not read back from the services being checked.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
import requests

from harness.stack import Stack
from libs.client import ApiError, ArcanaClient
from libs.contracts import MatchEnded
from libs.db import make_pool
from libs.eventstore import EventStore, RecordedEvent
from services.progression.domain.catalog import load_quests
from services.progression.domain.facts import MatchResult
from tests.e2e.test_match_e2e import Client, known_to_match, play_both, wait_for
from tests.e2e.test_ranked_e2e import matched, queue

pytestmark = pytest.mark.e2e

PASSWORD = "a long enough secret"
NEW_ACCOUNT, DAILY_LOGIN, STREAK_DAY_1 = 400, 50, 30
WIN_COINS, LOSS_COINS = 60, 20
WIN_XP, LOSS_XP = 60, 25


OURS: set[str] = set()  # this module's players (the shared stack holds other modules' too)


class Player(Client):
    """A real account: registered and logged in through accounts with the typed client
    (``libs.client``), its token from there."""

    def __init__(self, stack: Stack, username: str) -> None:
        self.api = ArcanaClient(stack.url)
        created = self.api.register(username, PASSWORD)
        super().__init__(stack, created["player_id"])
        OURS.add(created["player_id"])
        self.log_in(username)
        wait_for(lambda: known_to_match(stack, self.id), 60)  # a match may be requested for it

    def log_in(self, username: str) -> None:
        self.api.log_in(username, PASSWORD)
        self.http = requests.Session()  # for the match helpers this shares with test_match_e2e
        self.http.headers["Authorization"] = f"Bearer {self.api.token}"


def _coins(p: Player) -> int | None:
    """The wallet's coins; None while economy has not opened the wallet yet (404)."""
    try:
        return p.api.wallet()["coins"]
    except ApiError as err:
        if err.status == 404 and err.code == "wallet_not_found":
            return None
        raise


def _welcomed(p: Player) -> None:
    """Until economy paid the new account, the day's log-in and progression's streak day 1."""
    expected = NEW_ACCOUNT + DAILY_LOGIN + STREAK_DAY_1
    wait_for(lambda: _coins(p) == expected, 60)
    assert p.api.streak()["kept_today"] is True


def _match_ended(stack: Stack, match_id: str) -> tuple[dict[str, Any], dt.date]:
    pool = make_pool(stack.database_url, min_size=1, max_size=1)
    try:
        [ended] = [e for e in EventStore(pool, "match").read(f"match-{match_id}") if e.type == "MatchEnded"]
    finally:
        pool.close()
    return dict(ended.data), ended.occurred_at.date()


def _play(stack: Stack, a: Player, b: Player, mode: str) -> tuple[str, MatchResult]:
    """Queue both, be paired, play the match to its end; the match id and its MatchEnded as stored."""
    ta, tb = queue(a, mode), queue(b, mode)
    match_id = matched(a, ta["ticket_id"])
    assert matched(b, tb["ticket_id"]) == match_id
    play_both(a, b, match_id)
    data, day = _match_ended(stack, match_id)
    result = MatchResult.from_event(MatchEnded.decode_data(data), day)
    # Both clients hit the hero every turn from 30 health: the match reaches turn 4, and a draw
    # (both heroes at 0 at once) is very unlikely.
    assert result.counts and not result.draw, data
    return match_id, result


def _expected_quests(p: Player, result: MatchResult, offered: list[dict[str, Any]]) -> list[tuple[str, int]]:
    quests = load_quests()
    return [(q["id"], min(result.count(quests[q["id"]], p.id), q["target"])) for q in offered]


@pytest.mark.parametrize("mode", ["ranked", "casual"])
def test_a_new_player_queues_plays_and_sees_coins_xp_quests_and_rating_move(stack: Stack, mode: str) -> None:
    a, b = Player(stack, f"loop_{mode}_a"), Player(stack, f"loop_{mode}_b")
    for p in (a, b):
        _welcomed(p)
    offered = {p.id: p.api.quests()["quests"] for p in (a, b)}
    assert all(q["progress"] == 0 for qs in offered.values() for q in qs)

    match_id, result = _play(stack, a, b, mode)
    won, lost = (a, b) if result.winner == a.id else (b, a)

    for p, coins, xp in ((won, WIN_COINS, WIN_XP), (lost, LOSS_COINS, LOSS_XP)):
        expected_progress = _expected_quests(p, result, offered[p.id])

        def progressed(p: Player = p, expected: list[tuple[str, int]] = expected_progress) -> bool:
            return [(q["id"], q["progress"]) for q in p.api.quests()["quests"]] == expected

        wait_for(progressed, 60)
        quests = p.api.quests()["quests"]
        done = [q for q in quests if q["completed"]]
        assert all(q["progress"] >= q["target"] for q in done)
        total = NEW_ACCOUNT + DAILY_LOGIN + STREAK_DAY_1 + coins + sum(q["coins"] for q in done)
        wait_for(lambda p=p, total=total: _coins(p) == total, 60)
        ledger = p.api.wallet_history()["entries"]
        assert any(e["amount"] == coins and match_id in e["source"] for e in ledger), ledger
        # Quests that this match does not move show their progress before progression read it:
        # wait for the pass itself.
        want = xp + sum(q["xp"] for q in done)
        season_pass = wait_for(lambda p=p, want=want: (sp := p.api.season_pass())["xp"] == want and sp, 60)
        assert season_pass["level"] == season_pass["xp"] // season_pass["xp_per_level"]

    if mode == "ranked":
        wait_for(lambda: won.api.my_rating()["games"] == 1, 60)
        assert (won.api.my_rating()["rating"], lost.api.my_rating()["rating"]) == (920, 880)
    else:
        for p in (a, b):
            mine = p.api.my_rating()
            assert (mine["rating"], mine["games"]) == (900, 0), mine


# What each service writes while handling another service's event -> the types that cause it.
CAUSED_BY = {
    ("match", "MatchCreated"): {"MatchRequested"},
    ("matchmaking", "TicketMatched"): {"MatchCreated"},
    ("economy", "WalletOpened"): {"PlayerRegistered"},
    ("economy", "WalletCredited"): {"PlayerRegistered", "PlayerLoggedIn", "MatchEnded", "RewardGranted"},
    ("economy", "ActiveDeckChanged"): {"PlayerRegistered"},
    ("progression", "StreakDayKept"): {"PlayerLoggedIn"},
    ("progression", "QuestProgressed"): {"MatchEnded"},
    ("progression", "PassXpEarned"): {"MatchEnded"},
    ("progression", "RewardGranted"): {"PlayerLoggedIn", "MatchEnded"},
    ("ratings", "RatingChanged"): {"MatchEnded"},
}


def _every_event(stack: Stack) -> dict[str, list[Any]]:
    pool = make_pool(stack.database_url, min_size=1, max_size=1)
    try:
        services = {"accounts", *(service for service, _ in CAUSED_BY)}
        return {service: list(EventStore(pool, service).iter_all()) for service in services}
    finally:
        pool.close()


def _written_by_a_consumer(e: RecordedEvent, ours: set[str]) -> bool:
    """Of this module's players or their tickets (``ours``: the shared stack holds other modules',
    whose tests kill consumers and replay dead letters), neither an operator's grant nor a practice
    match (created by a request)."""
    practice = e.type == "MatchCreated" and e.data.get("request_id") is None
    text = e.stream + json.dumps(e.data, default=str)
    return e.data.get("reason") != "grant" and not practice and any(p in text for p in ours)


def test_every_consumer_written_event_names_its_cause_and_the_chain_s_correlation(stack: Stack) -> None:
    """After the loops above: every event a consumer wrote, in every service, has the consumed event's
    id as its causation id and that event's correlation (its own id when it began the chain)."""
    stored = _every_event(stack)
    by_id = {e.event_id: e for events in stored.values() for e in events}
    checked = set()
    opened = (e for e in stored["matchmaking"] if e.type == "TicketOpened")
    tickets = {e.stream for e in opened if e.data["player_id"] in OURS}
    ours = OURS | tickets
    for (service, kind), causes in CAUSED_BY.items():
        for e in (e for e in stored[service] if e.type == kind and _written_by_a_consumer(e, ours)):
            cause = by_id.get(e.causation_id)  # type: ignore[arg-type]
            assert cause is not None and cause.type in causes, (service, kind, e, cause)
            assert e.correlation_id == (cause.correlation_id or cause.event_id), (service, kind, e, cause)
            checked.add((service, kind))
    assert checked == set(CAUSED_BY)
    for ticket in (e for e in stored["matchmaking"] if e.type == "TicketMatched"):
        created = by_id[ticket.causation_id]  # type: ignore[index]
        requested = by_id[created.causation_id]  # type: ignore[index]
        assert requested.type == "MatchRequested" and requested.causation_id is None
        assert ticket.correlation_id == created.correlation_id == requested.event_id


def test_a_week_of_log_ins_pays_the_streak_through_economy(stack: Stack) -> None:
    """Log-ins on days 1, 2, 3, 5, 6, 7 and 8 (day 4 missed and forgiven): the streak goes on, and
    economy credits the daily coins, each streak day's coins and the day-7 pack. This test moves
    every process's clock, so it runs last in this module."""
    p = Player(stack, "loop_week")
    _welcomed(p)  # day 1: 400 + 50 + streak day 1 (30)
    streak_coins = {2: 40, 3: 50, 4: 60, 5: 75, 6: 100}  # streak day -> coins; day 7: a pack
    expected_coins, streak_day = NEW_ACCOUNT + DAILY_LOGIN + STREAK_DAY_1, 1
    for calendar_day in (2, 3, 5, 6, 7, 8):
        stack.advance_clock(86_400 * (2 if calendar_day == 5 else 1))
        p.log_in("loop_week")
        streak_day += 1
        expected_coins += DAILY_LOGIN + streak_coins.get(streak_day, 0)
        wait_for(lambda: p.api.streak()["kept_today"], 60)
        assert p.api.streak()["streak_day"] == streak_day
        wait_for(lambda expected=expected_coins: _coins(p) == expected, 60)
    assert p.api.streak()["forgiveness"]["available"] is False  # spent on day 4
    wait_for(lambda: p.api.wallet()["free_packs"] == 1, 60)  # streak day 7 (calendar day 8)
    assert p.api.open_pack()["paid_with"] == "free_pack"
    assert _coins(p) == expected_coins  # the held pack opened without coins
