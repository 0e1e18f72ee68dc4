"""Tickets on the real PostgreSQL: one open ticket per player, decks and ratings from the other
services, pairing into MatchRequested, matched / failed from the match service, abandonment."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from psycopg import sql

from libs import clock
from libs.eventstore import RecordedEvent
from libs.games.arcana import STARTER_DECK
from services.matchmaking import domain
from services.matchmaking.service import (
    MatchInProgress,
    MatchmakingService,
    TicketAlreadyOpen,
    TicketNotFound,
)

from .conftest import foreign_event, match_ended, rating_changed, requested


def pid() -> str:
    return str(uuid.uuid4())


def count(mm: MatchmakingService, table: str) -> int:
    with mm.pool.connection() as conn:
        return conn.execute(
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(mm.schema, table))
        ).fetchone()[0]


def test_a_new_player_queues_with_the_starter_deck_at_900(mm: MatchmakingService) -> None:
    p = pid()
    t = mm.join(p, "ranked")
    assert (t.status, t.rating, t.deck_id, t.deck_version, t.player_id) == ("waiting", 900, "starter", 0, p)
    assert mm.look(p, t.ticket_id) == t


def test_one_open_ticket_per_player(mm: MatchmakingService) -> None:
    p = pid()
    first = mm.join(p, "casual")
    events = mm.events.head_position()
    with pytest.raises(TicketAlreadyOpen) as err:
        mm.join(p, "ranked")
    assert err.value.ticket_id == first.ticket_id
    assert mm.events.head_position() == events and count(mm, "tickets") == 1
    mm.cancel(p, first.ticket_id)
    assert mm.join(p, "ranked").status == "waiting"  # a closed ticket does not count


def test_an_illegal_active_deck_is_refused_with_its_problems(
    mm: MatchmakingService, deliver: Callable
) -> None:
    p = pid()
    bad = {
        "player_id": p,
        "deck_id": "d1",
        "name": "x",
        "cards": ["c1"],
        "legal": False,
        "problems": ["a deck has exactly 20 cards"],
    }
    deliver(foreign_event("ActiveDeckChanged", bad, position=5))
    with pytest.raises(domain.IllegalDeck) as err:
        mm.join(p, "ranked")
    assert err.value.problems == ["a deck has exactly 20 cards"]
    assert count(mm, "tickets") == 0 and mm.events.head_position() == 0
    older_good = {**bad, "cards": list(STARTER_DECK), "legal": True, "problems": []}
    deliver(foreign_event("ActiveDeckChanged", older_good, position=4))  # late and older: ignored
    with pytest.raises(domain.IllegalDeck):
        mm.join(p, "ranked")
    newer = {**older_good, "deck_id": "d2", "cards": list(reversed(STARTER_DECK))}
    deliver(foreign_event("ActiveDeckChanged", newer, version=6, position=6))
    t = mm.join(p, "ranked")
    assert (t.deck_id, t.deck_version) == ("d2", 6)  # the deck named, never its cards


def test_the_rating_comes_from_ratings_newest_version(mm: MatchmakingService, deliver: Callable) -> None:
    p = pid()
    deliver(foreign_event("RatingChanged", rating_changed(p, 1040), version=3))
    deliver(foreign_event("RatingChanged", rating_changed(p, 990), version=2))
    assert mm.join(p, "ranked").rating == 1040


def test_ranked_tickets_pair_by_the_hidden_rating_not_the_visible_points(
    mm: MatchmakingService, deliver: Callable
) -> None:
    """Issue 34: a player held on the Silver floor (1000 visible) whose hidden rating fell to 930 is
    paired as 930; an event from before the hidden rating (version 1) is paired by its one rating."""
    floored, old = pid(), pid()
    deliver(foreign_event("RatingChanged", rating_changed(floored, 1000, hidden=930), version=1))
    v1 = {k: v for k, v in rating_changed(old, 1010).items() if k not in ("hidden_before", "hidden_after")}
    deliver(foreign_event("RatingChanged", v1, version=1))
    assert mm.join(floored, "ranked").rating == 930 and mm.join(old, "ranked").rating == 1010


def test_someone_elses_or_an_unknown_ticket_is_not_found(mm: MatchmakingService) -> None:
    t = mm.join(pid(), "ranked")
    for player, ticket in ((pid(), t.ticket_id), (t.player_id, str(uuid.uuid4())), (t.player_id, "nope")):
        with pytest.raises(TicketNotFound):
            mm.look(player, ticket)
        with pytest.raises(TicketNotFound):
            mm.cancel(player, ticket)
    assert mm.look(t.player_id, t.ticket_id).status == "waiting"


def _created(data: dict) -> RecordedEvent:
    return foreign_event(
        "MatchCreated",
        {
            "match_id": data["match_id"],
            "mode": data["mode"],
            "players": [p["id"] for p in data["players"]],
            "bot": None,
            "request_id": data["request_id"],
        },
    )


def test_a_pair_requests_a_match_and_is_matched_on_its_creation(
    mm: MatchmakingService, deliver: Callable
) -> None:
    a, b = mm.join(pid(), "ranked"), mm.join(pid(), "ranked")
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    assert {p["id"] for p in req["players"]} == {a.player_id, b.player_id}
    assert all(set(p) == {"id"} for p in req["players"]) and req["mode"] == "ranked"  # no deck lists
    assert mm.look(a.player_id, a.ticket_id).status == "paired"
    with pytest.raises(domain.TicketNotWaiting):
        mm.cancel(a.player_id, a.ticket_id)
    assert mm.pair().pairs == 0
    others = [{"id": pid()}, {"id": pid()}]  # another request's match (not theirs: one at a time)
    deliver(_created({**req, "match_id": str(uuid.uuid4()), "request_id": "other", "players": others}))
    assert mm.look(a.player_id, a.ticket_id).status == "paired"
    deliver(_created(req))
    deliver(_created(req))  # another delivery (new event id) changes nothing
    for t in (a, b):
        got = mm.look(t.player_id, t.ticket_id)
        assert (got.status, got.match_id) == ("matched", req["match_id"])
        assert mm.events.version(domain.ticket_stream(t.ticket_id)) == 3
    # a matched ticket is closed, but its match runs: one match at a time (issue 17, finding 3)
    with pytest.raises(MatchInProgress) as running:
        mm.join(a.player_id, "casual")
    assert running.value.match_id == req["match_id"]
    ended = match_ended(req["match_id"], "ranked", a.player_id, b.player_id)
    deliver(foreign_event("MatchEnded", ended, f"match-{req['match_id']}", 40, 40))
    assert mm.join(a.player_id, "ranked").status == "waiting"


def test_a_rejected_request_fails_both_tickets(mm: MatchmakingService, deliver: Callable) -> None:
    a, b = mm.join(pid(), "casual"), mm.join(pid(), "casual")
    mm.pair()
    (req,) = requested(mm)
    rejected = {
        "match_id": req["match_id"],
        "request_id": req["request_id"],
        "mode": "casual",
        "players": req["players"],
        "reason": "invalid_deck",
        "message": "a deck is not legal",
        "problems": {"deck": "too many copies of c1"},
    }
    deliver(foreign_event("MatchRequestRejected", rejected))
    for t in (a, b):
        got = mm.look(t.player_id, t.ticket_id)
        assert (got.status, got.reason, got.problems) == (
            "failed",
            "invalid_deck",
            ("deck: too many copies of c1",),
        )


def test_a_ticket_not_polled_for_30_s_is_cancelled_as_abandoned(mm: MatchmakingService) -> None:
    far = mm.join(pid(), "ranked")
    polled = mm.join(pid(), "ranked")
    with mm.pool.connection() as conn:  # a different rating far away, so nobody pairs
        conn.execute(
            sql.SQL("UPDATE {} SET rating = 3000 WHERE ticket_id = %s").format(
                sql.Identifier(mm.schema, "tickets")
            ),
            (far.ticket_id,),
        )
    clock.advance(20)
    mm.look(polled.player_id, polled.ticket_id)
    clock.advance(10.5)
    result = mm.pair()
    assert (result.pairs, result.abandoned) == (0, 1)
    gone = mm.look(far.player_id, far.ticket_id)
    assert (gone.status, gone.reason) == ("cancelled", "abandoned")
    assert mm.look(polled.player_id, polled.ticket_id).status == "waiting"


def test_a_pairing_outage_does_not_count_as_players_silence(mm: MatchmakingService) -> None:
    a, b = mm.join(pid(), "ranked"), mm.join(pid(), "casual")  # never across modes: nobody pairs
    assert mm.pair().abandoned == 0
    clock.advance(45)  # matchmaking down: nobody could poll
    assert mm.pair().abandoned == 0  # silent from the return, not from the last poll 45 s ago
    abandoned = []
    for step in range(6):  # passes every 5 s again: silence counts from the return
        clock.advance(5)
        if step == 3:
            mm.look(b.player_id, b.ticket_id)
        abandoned.append(mm.pair().abandoned)
    assert abandoned == [0, 0, 0, 0, 0, 1]  # a: 30 s since the return; b polled 10 s ago
    gone = mm.look(a.player_id, a.ticket_id)
    assert (gone.status, gone.reason) == ("cancelled", "abandoned")
    assert mm.look(b.player_id, b.ticket_id).status == "waiting"


def test_ranked_waits_for_the_window_and_casual_does_not(mm: MatchmakingService) -> None:
    low, high = mm.join(pid(), "ranked"), mm.join(pid(), "ranked")
    with mm.pool.connection() as conn:
        conn.execute(
            sql.SQL("UPDATE {} SET rating = 1200 WHERE ticket_id = %s").format(
                sql.Identifier(mm.schema, "tickets")
            ),
            (high.ticket_id,),
        )
    assert mm.pair().pairs == 0  # 300 apart, window 50
    clock.advance(10)  # window 300
    for t in (low, high):
        mm.look(t.player_id, t.ticket_id)
    assert mm.pair().pairs == 1


def test_tickets_the_match_service_never_answers_fail_after_120_s(
    mm: MatchmakingService, deliver: Callable
) -> None:
    a, b = mm.join(pid(), "casual"), mm.join(pid(), "casual")
    assert mm.pair().pairs == 1
    clock.advance(119)
    assert mm.pair().unanswered == 0
    clock.advance(2)
    assert mm.pair().unanswered == 2
    for t in (a, b):
        got = mm.look(t.player_id, t.ticket_id)
        assert (got.status, got.reason) == ("failed", "no_answer")
    (req,) = requested(mm)
    deliver(_created(req))  # the answer, too late: the tickets stay failed...
    assert mm.look(a.player_id, a.ticket_id).status == "failed"
    with pytest.raises(MatchInProgress):  # ...but the match it made runs: one at a time
        mm.join(a.player_id, "casual")
    ended = match_ended(req["match_id"], "casual", a.player_id, b.player_id)
    deliver(foreign_event("MatchEnded", ended, f"match-{req['match_id']}", 9, 9))
    assert mm.join(a.player_id, "casual").status == "waiting"
    assert mm.pair().unanswered == 0


def test_the_ticket_read_models_rebuild_to_the_same_rows(mm: MatchmakingService, deliver: Callable) -> None:
    from libs.bus import Projector
    from services.matchmaking.projections import projection

    a, b, c = mm.join(pid(), "ranked"), mm.join(pid(), "ranked"), mm.join(pid(), "casual")
    mm.pair()
    (req,) = requested(mm)
    deliver(_created(req))
    mm.cancel(c.player_id, c.ticket_id)

    def rows() -> tuple[list, list]:
        with mm.pool.connection() as conn:
            tickets = conn.execute(
                sql.SQL("SELECT * FROM {} ORDER BY ticket_id").format(sql.Identifier(mm.schema, "tickets"))
            ).fetchall()
            opponents = conn.execute(
                sql.SQL("SELECT * FROM {} ORDER BY player_id").format(
                    sql.Identifier(mm.schema, "last_opponents")
                )
            ).fetchall()
        return tickets, opponents

    before = rows()
    assert len(before[0]) == 3 and {r[0] for r in before[1]} == {a.player_id, b.player_id}
    Projector(mm.events, projection(mm.schema)).rebuild()
    assert rows() == before


def test_a_rating_of_zero_is_a_rating(mm: MatchmakingService, deliver: Callable) -> None:
    p = pid()
    deliver(foreign_event("RatingChanged", rating_changed(p, 0), version=7))
    assert mm.join(p, "ranked").rating == 0
