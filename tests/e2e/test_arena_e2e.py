"""Arcane Arena end to end (issue 24's acceptance), every process real (``make run``'s command lines):
three new accounts queue for a table of 3, are seated by matchmaking and play the match to its end
over REST, each moving by its legal commands; one of them goes silent until the match marks them
disconnected, then comes back; a reaction window is left to expire on the way (the clock moved
through the stack's clock file, never slept). Then a practice match against 3 bots, played to its
end. Coins and pass XP are paid once, as the BRIEF says (first place 60 coins and 60 XP, any other
place 20 and 25; practice nothing), and no response ever showed a player another's hand, the pile's
order or the seed (``tests/leaks.py``). On the e2e modules' shared stack (``tests/e2e/conftest.py``):
new players of its own, every ticket seated, the clock moved back at the end.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest

from harness.stack import Stack
from libs.client import ApiError, ArcanaClient
from libs.db import make_pool
from libs.eventstore import EventStore
from tests.e2e.test_match_e2e import known_to_match, wait_for
from tests.leaks import assert_no_arena_leak

pytestmark = pytest.mark.e2e

WELCOME = 400 + 50 + 30  # a new account, the day's log-in, streak day 1
FIRST, OTHER = {"coins": 60, "xp": 60}, {"coins": 20, "xp": 25}
TABLE_OF_3_WAIT = 10  # services/matchmaking/README.md: a table of 3 once the oldest waited 10 s
ATTACKS = ("fireball", "explosion", "lightning")
SILENCE = 20  # services/match/README.md: no request for 20 s -> disconnected

Seen = list[tuple[str, int, Any]]


class Wizard:
    """A new account, registered and logged in through the typed client."""

    def __init__(self, stack: Stack) -> None:
        name, password = f"arena_{uuid.uuid4().hex[:10]}", "a long enough secret"
        self.api = ArcanaClient(stack.url)
        self.id = str(self.api.register(name, password)["player_id"])
        self.api.log_in(name, password)

    def coins(self) -> int | None:
        try:
            return int(self.api.wallet()["coins"])
        except ApiError as err:
            if err.status == 404:  # economy has not opened the wallet yet
                return None
            raise

    def credits(self, match_id: str) -> list[int]:
        entries = self.api.wallet_history()["entries"]
        return [e["amount"] for e in entries if match_id in e["source"]]

    def move(self, match_id: str, seen: Seen) -> None:
        """One legal command if the match waits for this player (a 409: someone or a timer came first)."""
        legal = self.api.legal_commands(match_id)
        seen.append((self.id, legal["version"], legal))
        if not legal["commands"]:
            return
        try:
            done = self.api.command(match_id, choose(legal["commands"]), expected_version=legal["version"])
        except ApiError as err:
            if err.status != 409:
                raise
            return
        seen.append((self.id, done["version"], done))


def choose(commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A plain policy that ends rounds: attack, answer an attack with a defence card (else let it
    through), draw, end the turn; anything else only when nothing of that is allowed."""
    preferences = (
        lambda c: c["type"] == "combo" and c["combo"] == "flame_burst",
        lambda c: c["type"] == "play" and c["card"].rsplit("-", 1)[0] in ATTACKS,
        lambda c: c["type"] == "react",
        lambda c: c["type"] == "draw",
        lambda c: c["type"] in ("end_turn", "pass"),
    )
    for wanted in preferences:
        for c in commands:
            if wanted(c):
                return c
    return next(c for c in commands if c["type"] != "concede")


def look(p: Wizard, match_id: str, seen: Seen) -> dict[str, Any]:
    view = p.api.match(match_id)
    seen.append((p.id, view["version"], view))
    return view


def stored(stack: Stack, match_id: str) -> list[Any]:  # RecordedEvents: tests.leaks.StoredEvent
    pool = make_pool(stack.database_url, min_size=1, max_size=1)
    try:
        return EventStore(pool, "match").read(f"match-{match_id}")
    finally:
        pool.close()


def seated(stack: Stack, players: list[Wizard]) -> str:
    """All queue for an arena table of 3 and are seated at one: the match id."""
    tickets = [p.api.queue("casual", game="arena", sizes=[3])["ticket_id"] for p in players]
    stack.advance_clock(TABLE_OF_3_WAIT + 1)  # the oldest ticket waited long enough for a table of 3

    def match_of(p: Wizard, ticket_id: str) -> str | None:
        ticket = p.api.ticket(ticket_id)
        assert ticket["status"] in ("waiting", "paired", "matched"), ticket
        return ticket.get("match_id") if ticket["status"] == "matched" else None

    ids = {wait_for(lambda p=p, t=t: match_of(p, t), 60) for p, t in zip(players, tickets, strict=True)}
    (match_id,) = ids
    assert [p.api.ticket(t)["table_size"] for p, t in zip(players, tickets, strict=True)] == [3, 3, 3]
    return str(match_id)


def disconnect_and_reconnect(stack: Stack, players: list[Wizard], match_id: str, seen: Seen) -> None:
    """The last player goes silent while the others look (an attack on one of them waiting for its
    answer): that window expires, the silent player is marked disconnected, then comes back."""
    *present, silent = players
    stack.advance_clock(SILENCE / 2 + 1)  # the reaction window (10 s) is over
    for p in present:
        look(p, match_id, seen)
    stack.advance_clock(SILENCE / 2)  # the silent player's 20 s are over, not the others'
    wait_for(lambda: not look(present[0], match_id, seen)["connected"][silent.id], 30)
    assert all(look(p, match_id, seen)["connected"][p.id] for p in present)
    assert look(silent, match_id, seen)["phase"] != "ended"  # back: no forfeit
    wait_for(lambda: look(present[0], match_id, seen)["connected"][silent.id], 30)


def play_table(stack: Stack, players: list[Wizard], match_id: str) -> tuple[Seen, str]:
    """Play to the end; once, while an attack on a present player waits, the last player drops out.
    What each player was shown, and the player whose reaction window was left to expire."""
    seen: Seen = []
    by_id = {p.id: p for p in players}
    unanswered = ""
    for moves in range(3000):
        view = look(players[moves % len(players)], match_id, seen)  # in turn: each one stays present
        if view["phase"] == "ended":
            assert unanswered, "the match ended before anyone was attacked"
            return seen, unanswered
        attack = view["attack"]
        if not unanswered and moves >= 6 and attack and attack["target"] != players[-1].id:
            disconnect_and_reconnect(stack, players, match_id, seen)
            unanswered = attack["target"]
            continue
        by_id[view["awaiting"][0]].move(match_id, seen)
    raise AssertionError(f"match {match_id} did not end")


def test_three_new_players_play_a_table_of_3_with_a_disconnection_and_are_paid_once(stack: Stack) -> None:
    players = [Wizard(stack) for _ in range(3)]
    for p in players:
        wait_for(lambda p=p: p.coins() == WELCOME, 60)
    wait_for(lambda: known_to_match(stack, *(p.id for p in players)), 60)  # it seats only those
    xp_before = {p.id: p.api.season_pass()["xp"] for p in players}

    match_id = seated(stack, players)
    assert [s["id"] for s in players[0].api.match(match_id)["seats"]] == [p.id for p in players]
    seen, unanswered = play_table(stack, players, match_id)

    events = stored(stack, match_id)
    assert assert_no_arena_leak(seen, events) > 100
    silent = players[-1].id
    presence = [e.type for e in events if e.type in ("PlayerDisconnected", "PlayerReconnected")]
    assert presence == ["PlayerDisconnected", "PlayerReconnected"]
    assert all(e.data["player_id"] == silent for e in events if e.type in presence)
    expired = [e.data["player_id"] for e in events if e.type == "ReactionPassed" and e.data["timed_out"]]
    assert unanswered in expired
    (ended,) = [e.data for e in events if e.type == "MatchEnded"]
    assert ended["game"] == "arena" and sorted(p for g in ended["placements"] for p in g) == sorted(
        p.id for p in players
    )
    assert all(v["coins"] and v["xp"] for v in ended["verdict"].values()), ended["verdict"]
    first = set(ended["placements"][0])
    for p in players:
        paid = FIRST if p.id in first else OTHER
        wait_for(lambda p=p, paid=paid: p.credits(match_id) == [paid["coins"]], 60)
        done = [q for q in p.api.quests()["quests"] if q["completed"]]
        xp = xp_before[p.id] + paid["xp"] + sum(q["xp"] for q in done)
        wait_for(lambda p=p, xp=xp: p.api.season_pass()["xp"] == xp, 60)

    practice_against_three_bots(stack, players[0])
    for p in players:  # still once, after the practice match's end was consumed too
        assert p.credits(match_id) == [(FIRST if p.id in first else OTHER)["coins"]]


def practice_against_three_bots(stack: Stack, me: Wizard) -> None:
    """A practice match against 3 bots played to its end: nothing hidden shown, nothing paid."""
    coins, xp = me.coins(), me.api.season_pass()["xp"]
    created = me.api.practice(game="arena", bots=3)
    match_id, bots = created["match_id"], created["bots"]
    assert len(bots) == 3
    seen: Seen = []
    for _ in range(2000):
        view = look(me, match_id, seen)
        if view["phase"] == "ended":
            break
        if me.id in view["awaiting"]:
            me.move(match_id, seen)
        else:  # the bots move through Celery: long-poll until something happens
            me.api.events(match_id, after=view["version"], wait=5)
    else:
        raise AssertionError(f"practice {match_id} did not end")
    assert sorted(p for g in view["placements"] for p in g) == sorted([me.id, *bots])
    events = stored(stack, match_id)
    assert assert_no_arena_leak(seen, events) > 10
    (ended,) = [e.data for e in events if e.type == "MatchEnded"]
    assert not any(v["coins"] or v["xp"] for v in ended["verdict"].values())

    def consumed(schema: str) -> bool:
        with psycopg.connect(stack.database_url) as conn:
            query = f"SELECT count(*) FROM {schema}.inbox WHERE stream = %s AND type = 'MatchEnded'"
            row = conn.execute(query, (f"match-{match_id}",)).fetchone()
        return bool(row and row[0])

    wait_for(lambda: consumed("economy") and consumed("progression"), 60)
    assert (me.coins(), me.api.season_pass()["xp"], me.credits(match_id)) == (coins, xp, [])
