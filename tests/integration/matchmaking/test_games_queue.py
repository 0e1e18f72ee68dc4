"""The line's and the arena's queues over HTTP on the real PostgreSQL: what each game accepts (bad
input 4xx, nothing written), the line's deck, MMR and ranked unlock from its training battles, the
arena's tables of 2-4, pairing that never mixes games, and the rules shared by all games."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from libs import clock
from libs.contracts import MatchEnded, RatingChanged
from libs.eventstore import NewEvent
from libs.games.arcana import STARTER_DECK
from services.matchmaking import projections
from services.matchmaking.service import MatchmakingService
from tests.integration.web.shape import assert_error

from .conftest import Player, foreign_event, match_ended, requested

LINE = ["line-a", "line-b", "line-c", "line-d", "line-e"]


def line_deck(player: Player, cards: list[str] | None = None, position: int = 1) -> Any:
    data = {"player_id": player.id, "deck_id": "l1", "name": "my line", "cards": cards or LINE}
    return foreign_event(
        "ActiveDeckChanged", {**data, "legal": True, "problems": [], "game": "line"}, position=position
    )


def training(player: Player, game: str = "line", mode: str = "practice", won: bool = True) -> Any:
    """A finished match of ``player`` against a bot (a line training battle by default)."""
    match_id, bot = str(uuid.uuid4()), f"bot-{uuid.uuid4()}"
    winner, loser = (player.id, bot) if won else (bot, player.id)
    ended = MatchEnded(
        winner, "line_won", match_id, mode, [player.id, bot], loser, False, 0, 1, bot=bot, game=game
    )
    return foreign_event("MatchEnded", ended.data(), f"match-{match_id}", 9, 9)


def mmr(player: Player, after: int, version: int, game: str = "line") -> Any:
    changed = RatingChanged(
        player.id, str(uuid.uuid4()), 1000, after, "-", "-", after - 1000, "win", 1000, after, game=game
    )
    return foreign_event("RatingChanged", changed.data(), version=version)


def join(p: Player, body: dict[str, Any]) -> dict[str, Any]:
    resp = p.post("/v1/queue", body)
    assert resp.status_code == 202, resp.get_json()
    return dict(resp.get_json())


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"mode": "casual", "game": "chess"}, "validation_error"),
        ({"mode": "casual", "game": "arena", "sizes": [5]}, "validation_error"),
        ({"mode": "casual", "game": "arena", "sizes": [2, 2]}, "validation_error"),
        ({"mode": "casual", "game": "arena", "sizes": []}, "validation_error"),
        ({"mode": "casual", "game": "arena", "sizes": "2"}, "validation_error"),
        ({"mode": "ranked", "game": "arena"}, "invalid_mode"),
        ({"mode": "casual", "sizes": [2]}, "invalid_sizes"),
        ({"mode": "casual", "game": "line", "sizes": [2]}, "invalid_sizes"),
        ({"mode": "casual", "game": "line"}, "no_active_deck"),  # no line built yet
    ],
)
def test_what_a_game_does_not_offer_is_422_and_writes_nothing(
    player: Callable, counts: Callable, body: dict[str, Any], code: str
) -> None:
    before = counts()
    assert_error(player().post("/v1/queue", body), 422, code)
    assert counts() == before


def test_line_tickets_play_the_line_deck_at_the_line_mmr(
    player: Callable, deliver: Callable, mm: MatchmakingService
) -> None:
    ada = player()
    deliver(line_deck(ada, position=4))
    deliver(mmr(ada, 1004, version=2))
    deliver(mmr(ada, 1002, version=1))  # older, late: ignored
    deliver(mmr(ada, 1500, version=3, game="arcana"))  # Arcana's rating: another ladder
    ticket = join(ada, {"mode": "casual", "game": "line"})
    assert (ticket["game"], ticket["sizes"], ticket["rating"]) == ("line", [2], 1004)
    assert mm.look(ada.id, ticket["ticket_id"]).deck_id == "l1"
    assert ada.delete(f"/v1/queue/{ticket['ticket_id']}").status_code == 200
    arcana = join(ada, {"mode": "ranked"})  # the line's deck is not Arcana's active deck
    assert (arcana["game"], arcana["rating"]) == ("arcana", 1500)
    assert mm.look(ada.id, arcana["ticket_id"]).deck_id == "starter"
    bob = player()
    deliver(line_deck(bob))
    assert join(bob, {"mode": "casual", "game": "line"})["rating"] == 1000  # everyone starts at 1,000


def test_line_ranked_is_locked_until_three_training_battles(
    player: Callable, deliver: Callable, counts: Callable
) -> None:
    ada = player()
    deliver(line_deck(ada))
    first = training(ada)
    deliver(first)
    deliver(foreign_event("MatchEnded", first.data, first.stream, 9, 9))  # the same match again
    deliver(training(ada, mode="casual"))  # not training
    deliver(training(ada, game="arcana"))  # Arcana's practice: not the line's
    deliver(training(ada, won=False))  # lost: a training battle all the same
    before = counts()
    err = assert_error(ada.post("/v1/queue", {"mode": "ranked", "game": "line"}), 409, "ranked_locked")
    assert err["details"] == {"training_battles_left": 1, "training_battles_needed": 3}
    assert counts() == before
    casual = join(ada, {"mode": "casual", "game": "line"})  # casual is open from the start
    assert ada.delete(f"/v1/queue/{casual['ticket_id']}").status_code == 200
    deliver(training(ada))  # the third, lost or won
    assert join(ada, {"mode": "ranked", "game": "line"})["mode"] == "ranked"


def test_line_ranked_pairs_two_unlocked_players_by_mmr(
    player: Callable, deliver: Callable, mm: MatchmakingService
) -> None:
    ada, bob, cyd = player(), player(), player()
    for p in (ada, bob, cyd):
        deliver(line_deck(p))
        for _ in range(3):
            deliver(training(p))
    deliver(mmr(cyd, 1300, version=1))
    for p in (ada, bob, cyd):
        join(p, {"mode": "ranked", "game": "line"})
    assert join(player(), {"mode": "ranked"})["game"] == "arcana"  # Arcana's ranked queue: apart
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    assert req["game"] == "line" and req["mode"] == "ranked"
    assert {p["id"] for p in req["players"]} == {ada.id, bob.id}  # cyd is 300 MMR away


def test_an_arena_table_of_three_forms_once_the_oldest_waited_10_s(
    player: Callable, deliver: Callable, mm: MatchmakingService
) -> None:
    ada, bob, cyd, dan = player(), player(), player(), player()
    ta = join(ada, {"mode": "casual", "game": "arena"})
    assert (ta["game"], ta["sizes"], ta["rating"]) == ("arena", [2, 3, 4], 0)
    tb = join(bob, {"mode": "casual", "game": "arena", "sizes": [3, 4]})
    tc = join(cyd, {"mode": "casual", "game": "arena", "sizes": [3]})
    view = ada.get(f"/v1/queue/{ta['ticket_id']}").get_json()
    assert view["waiting"] == {"2": 1, "3": 3, "4": 2}
    assert bob.get(f"/v1/queue/{tb['ticket_id']}").get_json()["waiting"] == {"3": 3, "4": 2}
    assert mm.pair().pairs == 0  # three wait for a fourth
    clock.advance(10)
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    assert (req["game"], req["mode"]) == ("arena", "casual")
    assert [p["id"] for p in req["players"]] == [ada.id, bob.id, cyd.id]
    assert req["tickets"] == [ta["ticket_id"], tb["ticket_id"], tc["ticket_id"]]
    created = {"match_id": req["match_id"], "mode": "casual", "players": [ada.id, bob.id, cyd.id]}
    deliver(
        foreign_event(
            "MatchCreated", {**created, "bot": None, "request_id": req["request_id"], "game": "arena"}
        )
    )
    for p, t in ((ada, ta), (bob, tb), (cyd, tc)):
        view = p.get(f"/v1/queue/{t['ticket_id']}").get_json()
        assert (view["status"], view["match_id"], view["table_size"]) == ("matched", req["match_id"], 3)
        assert "waiting" not in view
    td = join(dan, {"mode": "casual", "game": "arena"})  # dan is not at the table: alone now
    assert dan.get(f"/v1/queue/{td['ticket_id']}").get_json()["waiting"] == {"2": 1, "3": 1, "4": 1}
    err = assert_error(ada.post("/v1/queue", {"mode": "casual", "game": "arena"}), 409, "match_in_progress")
    assert err["details"] == {"match_id": req["match_id"]}  # one match at a time, every game


def test_one_open_ticket_across_games(player: Callable, deliver: Callable, counts: Callable) -> None:
    ada = player()
    deliver(line_deck(ada))
    first = join(ada, {"mode": "casual", "game": "arena", "sizes": [4]})
    before = counts()
    for body in ({"mode": "casual", "game": "line"}, {"mode": "ranked"}, {"mode": "casual", "game": "arena"}):
        err = assert_error(ada.post("/v1/queue", body), 409, "ticket_already_open")
        assert err["details"] == {"ticket_id": first["ticket_id"]}
    assert counts() == before


def test_games_never_mix_in_a_pass(player: Callable, deliver: Callable, mm: MatchmakingService) -> None:
    players = [player() for _ in range(4)]
    for p in players:
        deliver(line_deck(p))
    join(players[0], {"mode": "casual"})
    join(players[1], {"mode": "casual", "game": "line"})
    join(players[2], {"mode": "casual", "game": "arena", "sizes": [2]})
    clock.advance(25)  # the arena ticket may sit at a table of 2, alone
    assert mm.pair().pairs == 0
    join(players[3], {"mode": "casual", "game": "line"})
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    assert req["game"] == "line" and {p["id"] for p in req["players"]} == {players[1].id, players[3].id}


def test_a_ticket_stored_before_games_reads_as_arcana_for_two(
    player: Callable, mm: MatchmakingService
) -> None:
    ada = player()
    ticket = str(uuid.uuid4())
    old = {
        "ticket_id": ticket, "player_id": ada.id, "mode": "casual", "rating": 900,
        "deck": list(STARTER_DECK), "opened_at": clock.now().isoformat(),
    }  # fmt: skip
    with mm.pool.connection() as conn, conn.transaction():
        for recorded in mm.events.append(f"ticket-{ticket}", 0, [NewEvent("TicketOpened", old)], conn=conn):
            projections.apply(conn, mm.schema, recorded)
    view = ada.get(f"/v1/queue/{ticket}").get_json()
    assert (view["game"], view["sizes"], view["status"]) == ("arcana", [2], "waiting")
    bob = player()
    join(bob, {"mode": "casual"})
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    assert req["game"] == "arcana" and {p["id"] for p in req["players"]} == {ada.id, bob.id}


def test_a_waiting_line_ticket_whose_line_became_illegal_is_cancelled(
    player: Callable, deliver: Callable, mm: MatchmakingService
) -> None:
    ada, bob = player(), player()
    for p in (ada, bob):
        deliver(line_deck(p, position=1))
    line = join(ada, {"mode": "casual", "game": "line"})
    arcana = join(bob, {"mode": "casual"})
    illegal = {**line_deck(ada).data, "legal": False, "problems": ["you do not own line-e"]}
    deliver(foreign_event("ActiveDeckChanged", illegal, position=2))  # ada's line
    arcana_illegal = {**illegal, "player_id": bob.id, "game": "arcana"}
    deliver(foreign_event("ActiveDeckChanged", arcana_illegal, position=3))  # bob's Arcana deck
    assert mm.pair().illegal == 2
    for p, t in ((ada, line), (bob, arcana)):
        view = p.get(f"/v1/queue/{t['ticket_id']}").get_json()
        assert (view["status"], view["reason"]) == ("cancelled", "illegal_deck")
    again = join(bob, {"mode": "casual", "game": "line"})  # bob's line is legal: another game's deck
    assert mm.pair().illegal == 0
    assert bob.get(f"/v1/queue/{again['ticket_id']}").get_json()["status"] == "waiting"


def _play(deliver: Callable, req: dict[str, Any]) -> None:
    """The match of a request is created and ends (its players may queue again)."""
    ids = [p["id"] for p in req["players"]]
    created = {"match_id": req["match_id"], "mode": req["mode"], "players": ids, "bot": None}
    deliver(foreign_event("MatchCreated", {**created, "request_id": req["request_id"], "game": req["game"]}))
    ended = match_ended(req["match_id"], req["mode"], ids[0], ids[1])
    deliver(foreign_event("MatchEnded", {**ended, "game": req["game"]}, f"match-{req['match_id']}", 9, 9))


def test_the_previous_ranked_opponent_is_per_game(
    player: Callable, deliver: Callable, mm: MatchmakingService
) -> None:
    ada, bob = player(), player()
    for p in (ada, bob):
        deliver(line_deck(p))
        for _ in range(3):
            deliver(training(p))
        join(p, {"mode": "ranked"})
    assert mm.pair().pairs == 1
    _play(deliver, requested(mm)[-1])
    for p in (ada, bob):
        join(p, {"mode": "ranked", "game": "line"})
    assert mm.pair().pairs == 1  # their last Arcana match does not hold the line's queue
    _play(deliver, requested(mm)[-1])
    for p in (ada, bob):
        join(p, {"mode": "ranked"})
    assert mm.pair().pairs == 0  # nor the other way: Arcana's previous opponents still wait 60 s


def test_a_table_of_four_sits_at_once_and_fails_together(
    player: Callable, deliver: Callable, mm: MatchmakingService
) -> None:
    four = [player() for _ in range(4)]
    tickets = [join(p, {"mode": "casual", "game": "arena", "sizes": [4]}) for p in four]
    assert mm.pair().pairs == 1  # no wait for a full table
    (req,) = requested(mm)
    assert len(req["players"]) == len(req["tickets"]) == 4 and req["game"] == "arena"
    rejected = {
        "match_id": req["match_id"], "request_id": req["request_id"], "mode": "casual", "game": "arena",
        "players": req["players"], "reason": "invalid_players", "message": "no", "problems": [],
    }  # fmt: skip
    deliver(foreign_event("MatchRequestRejected", rejected))
    for p, t in zip(four, tickets, strict=True):
        view = p.get(f"/v1/queue/{t['ticket_id']}").get_json()
        assert (view["status"], view["reason"], view["table_size"]) == ("failed", "invalid_players", 4)
    assert join(four[0], {"mode": "casual", "game": "arena"})["status"] == "waiting"  # may queue again
