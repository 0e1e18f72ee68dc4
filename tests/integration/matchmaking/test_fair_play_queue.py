"""Fair play in the queue (issue 17, findings 1, 3, 8): one match at a time (409
``match_in_progress`` with the match id, from match's MatchCreated until its MatchEnded; practice
does not hold the queue), no ranked rematch of the previous opponents until both waited 60 s, and a
waiting ticket whose active deck became illegal is cancelled, never paired."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from libs import clock
from libs.games.arcana import STARTER_DECK
from services.matchmaking.service import MatchmakingService
from tests.integration.web.shape import assert_error

from .conftest import foreign_event, match_ended, requested


def _created(match_id: str, mode: str, *players: str, request_id: str | None = None) -> object:
    data = {
        "match_id": match_id,
        "mode": mode,
        "players": list(players),
        "bot": None,
        "request_id": request_id,
    }
    return foreign_event("MatchCreated", data, f"match-{match_id}")


def test_a_player_in_a_ranked_or_casual_match_cannot_queue_until_it_ends(
    player: Callable, deliver: Callable, counts: Callable
) -> None:
    ada, bob = player(), player()
    running = str(uuid.uuid4())
    deliver(_created(running, "casual", ada.id, bob.id))
    before = counts()
    for mode in ("ranked", "casual"):
        refused = ada.post("/v1/queue", {"mode": mode})
        assert_error(refused, 409, "match_in_progress")
        assert refused.get_json()["error"]["details"] == {"match_id": running}
    assert counts() == before  # nothing written
    practice = str(uuid.uuid4())
    deliver(_created(practice, "practice", ada.id, f"bot-{uuid.uuid4()}"))
    ended = match_ended(running, "casual", ada.id, bob.id)
    deliver(foreign_event("MatchEnded", ended, f"match-{running}", 30, 30))
    assert ada.post("/v1/queue", {"mode": "ranked"}).status_code == 202  # a practice match holds nothing


def test_previous_ranked_opponents_meet_again_only_once_both_waited_60_s(
    mm: MatchmakingService, deliver: Callable
) -> None:
    a, b = str(uuid.uuid4()), str(uuid.uuid4())
    mm.join(a, "ranked"), mm.join(b, "ranked")
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    deliver(_created(req["match_id"], "ranked", a, b, request_id=req["request_id"]))
    ended = match_ended(req["match_id"], "ranked", a, b)
    deliver(foreign_event("MatchEnded", ended, f"match-{req['match_id']}", 30, 30))
    again = [mm.join(a, "ranked"), mm.join(b, "ranked")]  # the only two waiting: this was the feeder
    assert mm.pair().pairs == 0
    for _ in range(2):  # 59 s, both polling
        clock.advance(29.5)
        for t in again:
            mm.look(t.player_id, t.ticket_id)
        assert mm.pair().pairs == 0
    clock.advance(1.5)
    assert mm.pair().pairs == 1


def test_a_waiting_ticket_whose_deck_became_illegal_is_cancelled_not_paired(
    mm: MatchmakingService, deliver: Callable
) -> None:
    a, b = str(uuid.uuid4()), str(uuid.uuid4())
    ticket = mm.join(a, "casual")
    illegal = {
        "player_id": a, "deck_id": "d", "name": "n", "cards": list(STARTER_DECK), "legal": False,
        "problems": ["you own 1 copy of a card the deck holds twice"],
    }  # fmt: skip
    deliver(foreign_event("ActiveDeckChanged", illegal, position=9))  # disenchanted while waiting
    mm.join(b, "casual")
    done = mm.pair()
    assert (done.pairs, done.illegal) == (0, 1)
    got = mm.look(a, ticket.ticket_id)
    assert (got.status, got.reason) == ("cancelled", "illegal_deck")
    assert requested(mm) == []
