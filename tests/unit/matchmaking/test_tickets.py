"""Ticket lifecycle: open, pair, matched / failed, cancel; the window schedule; match requests."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from services.matchmaking import domain as d

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DECK = d.ActiveDeck("deck-1", 3)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def opened(ticket_id: str, player: str, mode: str = "ranked", rating: int = 900, t: float = 0) -> d.Ticket:
    return d.evolve(None, d.open_ticket(ticket_id, player, mode, rating, DECK, at(t)))


def test_the_window_widens_linearly_then_is_unlimited_from_60_s() -> None:
    assert [d.window(s) for s in (0, 1, 10, 59)] == [50, 75, 300, 1525]
    assert d.window(60) == math.inf and d.window(600) == math.inf


def test_abandoned_after_30_s_without_a_poll() -> None:
    assert not d.is_abandoned(29.9) and d.is_abandoned(30)


def test_a_gap_of_over_10_s_between_passes_is_an_outage_the_silence_counts_from() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    assert d.resumed_at(None, None, t0) is None  # the first pass ever: nothing behind it
    assert d.resumed_at(t0, None, t0 + timedelta(seconds=10)) is None  # slow, not stopped
    back = t0 + timedelta(seconds=10.5)
    assert d.resumed_at(t0, None, back) == back
    assert d.resumed_at(back, back, back + timedelta(seconds=1)) == back  # kept until the next outage
    polled = t0 - timedelta(seconds=25)
    assert d.silent_since(polled, None) == polled
    assert d.silent_since(polled, back) == back  # not polled since: silent from the return
    assert d.silent_since(back + timedelta(seconds=3), back) == back + timedelta(seconds=3)


def test_open_refuses_an_unknown_mode_and_an_illegal_deck() -> None:
    with pytest.raises(d.InvalidMode):
        d.open_ticket("t", "p", "practice", 900, DECK, T0)
    bad = d.ActiveDeck("deck-2", 4, legal=False, problems=("a deck has exactly 20 cards",))
    with pytest.raises(d.IllegalDeck) as err:
        d.open_ticket("t", "p", "ranked", 900, bad, T0)
    assert err.value.problems == ["a deck has exactly 20 cards"]


def test_a_waiting_ticket_reports_time_waited() -> None:
    t = opened("t1", "p")
    assert (t.status, t.version, t.waited(at(12.5))) == ("waiting", 1, 12.5)


def test_pairing_requests_a_match_in_the_match_services_form() -> None:
    a, b = opened("t1", "pa", rating=910), opened("t2", "pb", rating=950, t=3)
    request_id, by_stream = d.request_match(a, b, at(5))
    assert request_id == d.request_id_for("t2", "t1")  # the same two tickets: the same request
    (requested,) = by_stream[d.request_stream(request_id)]
    kind, data = requested.TYPE, requested.data()
    assert kind == "MatchRequested" and data["mode"] == "ranked" and data["request_id"] == request_id
    assert data["players"] == [{"id": "pa"}, {"id": "pb"}]  # no deck lists on the topic (issue 17, finding 5)
    a2 = d.evolve(a, by_stream["ticket-t1"][0])
    assert (a2.status, a2.opponent_id, a2.match_id) == ("paired", "pb", d.match_id_for(request_id))
    assert a2.waited(at(100)) == 5  # waiting stopped at pairing
    assert d.evolve(b, by_stream["ticket-t2"][0]).waited(at(100)) == 2


def test_matched_and_failed_follow_only_the_tickets_own_request() -> None:
    a, b = opened("t1", "pa"), opened("t2", "pb")
    _, by_stream = d.request_match(a, b, at(1))
    a = d.evolve(a, by_stream["ticket-t1"][0])
    assert d.matched(a, "another-match") == []
    (event,) = d.matched(a, a.match_id)
    done = d.evolve(a, event)
    assert done.status == "matched"
    assert d.matched(done, a.match_id) == []  # a redelivery changes nothing
    assert d.failed(done, a.match_id, "invalid_deck", "no", []) == []
    (fail,) = d.failed(a, a.match_id, "invalid_deck", "bad deck", ["too many copies of c1"])
    f = d.evolve(a, fail)
    assert (f.status, f.reason, f.problems) == ("failed", "invalid_deck", ("too many copies of c1",))


def test_only_a_waiting_ticket_can_be_cancelled_or_paired() -> None:
    a, b = opened("t1", "pa"), opened("t2", "pb")
    c = d.evolve(a, d.cancel(a, "player", at(4)))
    assert (c.status, c.reason, c.waited(at(50))) == ("cancelled", "player", 4)
    with pytest.raises(d.TicketNotWaiting):
        d.cancel(c, "player", at(5))
    with pytest.raises(d.TicketNotWaiting):
        d.request_match(c, b, at(5))


def test_never_a_player_with_themselves_or_across_modes() -> None:
    with pytest.raises(ValueError):
        d.request_match(opened("t1", "p"), opened("t2", "p"), at(1))
    with pytest.raises(ValueError):
        d.request_match(opened("t1", "p"), opened("t2", "q", mode="casual"), at(1))


def test_fold_replays_a_stream_and_refuses_a_headless_one() -> None:
    a = opened("t1", "pa")
    events = [d.open_ticket("t1", "pa", "ranked", 900, DECK, T0), d.cancel(a, "abandoned", at(30))]
    assert d.fold(events).status == "cancelled"
    with pytest.raises(ValueError):
        d.evolve(None, events[1])


def test_every_domain_event_has_exactly_its_declared_published_shape() -> None:
    from services.matchmaking.events import CATALOG

    a, b = opened("t1", "pa"), opened("t2", "pb")
    _, by_stream = d.request_match(a, b, at(1))
    paired_a = d.evolve(a, by_stream["ticket-t1"][0])
    produced = [
        d.open_ticket("t1", "pa", "ranked", 900, DECK, T0),
        d.cancel(a, "player", at(2)),
        *[e for events in by_stream.values() for e in events],
        *d.matched(paired_a, paired_a.match_id),
        *d.failed(paired_a, paired_a.match_id, "invalid_deck", "m", ["p"]),
        *d.returned(paired_a, paired_a.match_id, "unknown_player", "m", True, at(3)),
    ]
    assert {e.TYPE for e in produced} == set(CATALOG.types())
    for e in produced:
        assert type(e) is CATALOG.event(e.TYPE) and type(e).decode_data(e.data()) == e, e.TYPE


def test_a_paired_ticket_unanswered_for_120_s_fails_so_its_player_can_queue_again() -> None:
    a, b = opened("t1", "pa"), opened("t2", "pb")
    _, by_stream = d.request_match(a, b, at(10))
    a = d.evolve(a, by_stream["ticket-t1"][0])
    assert d.unanswered(a, at(129.9)) == []
    (event,) = d.unanswered(a, at(130))
    gone = d.evolve(a, event)
    assert (gone.status, gone.reason) == ("failed", "no_answer")
    assert d.matched(gone, a.match_id) == []  # a late creation changes nothing
    assert d.unanswered(opened("t3", "pc"), at(1000)) == []  # only paired tickets


def test_ticket_events_name_their_player_and_the_deck_never_its_cards() -> None:
    a, b = opened("t1", "pa"), opened("t2", "pb")
    opening = d.open_ticket("t1", "pa", "ranked", 900, DECK, T0)
    assert (opening.deck_id, opening.deck_version) == ("deck-1", 3) and "deck" not in opening.data()
    _, by_stream = d.request_match(a, b, at(1))
    (paired,) = by_stream["ticket-t1"]
    (matched,) = d.matched(d.evolve(a, paired), paired.match_id)  # type: ignore[attr-defined]
    assert paired.player_id == matched.player_id == "pa"  # type: ignore[attr-defined]


def test_a_request_refused_for_an_unknown_player_returns_both_tickets_to_waiting() -> None:
    """The unknown player's ticket waits 1 s, then 2, 4 ... at most 30 before its next pairing;
    its partner's is free at once; seated again, the pair names a new request (and match)."""
    a, b = opened("t1", "pa"), opened("t2", "pb")
    first, by_stream = d.request_match(a, b, at(1))
    a, b = d.evolve(a, by_stream["ticket-t1"][0]), d.evolve(b, by_stream["ticket-t2"][0])
    (back_a,) = d.returned(a, a.match_id or "", "unknown_player", "who?", True, at(2))
    (back_b,) = d.returned(b, b.match_id or "", "unknown_player", "who?", False, at(2))
    a, b = d.evolve(a, back_a), d.evolve(b, back_b)
    assert (a.status, a.request_id, a.match_id, a.opponents, a.returns) == ("waiting", None, None, (), 1)
    assert (a.pair_after, b.pair_after) == (at(3), at(2))
    assert a.waited(at(12)) == 12  # still counted from the opening
    assert d.returned(a, "another match", "unknown_player", None, True, at(3)) == []  # settled
    again, by_stream = d.request_match(a, b, at(4))
    assert again != first and d.match_id_for(again) != d.match_id_for(first)
    a = d.evolve(a, by_stream["ticket-t1"][0])
    (back_a,) = d.returned(a, a.match_id or "", "unknown_player", None, True, at(5))
    assert d.evolve(a, back_a).pair_after == at(7)  # 2 s after a second return
    assert [d.return_wait(n) for n in (0, 1, 2, 4, 5, 9)] == [1, 2, 4, 16, 30, 30]
