"""Tickets of the three games: what each queue accepts, the line's ranked unlock, pairing that never
mixes games, the line's ranked by MMR, the arena's requests for 2-4 players, events before games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from libs.eventstore import RecordedEvent
from services.matchmaking import domain as d
from services.matchmaking.events import TicketOpened, TicketPaired
from services.matchmaking.upcasting import UPCASTERS

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LINE_DECK = d.ActiveDeck("line-1", 2)
NO_DECK = d.ActiveDeck(None)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def opened(tid: str, game: str = "arena", mode: str = "casual", t: float = 0, **kw: object) -> d.Ticket:
    deck = LINE_DECK if game == "line" else NO_DECK
    event = d.open_ticket(tid, f"p{tid}", mode, 0, deck, at(t), game=game, training_battles=3, **kw)  # type: ignore[arg-type]
    return d.evolve(None, event)


def test_each_game_offers_its_modes_and_sizes() -> None:
    assert (opened("a", "arcana").game, opened("a", "arcana").sizes) == ("arcana", (2,))
    assert opened("l", "line", "ranked").sizes == (2,)
    assert opened("r").sizes == (2, 3, 4)  # the arena: every size by default
    assert opened("r", sizes=[4, 3]).sizes == (3, 4)
    with pytest.raises(d.UnknownGame):
        opened("x", "chess")
    with pytest.raises(d.InvalidMode):
        opened("x", "arena", "ranked")  # the arena is casual only
    for bad in ([], [2, 2], [5], [1, 2]):
        with pytest.raises(d.InvalidSizes):
            opened("x", sizes=bad)
    for game in ("arcana", "line"):
        with pytest.raises(d.InvalidSizes):
            opened("x", game, sizes=[2])  # sizes are the arena's


def test_line_ranked_opens_after_three_training_battles() -> None:
    for done in (0, 1, 2):
        with pytest.raises(d.RankedLocked) as err:
            d.open_ticket("t", "p", "ranked", 1000, LINE_DECK, T0, game="line", training_battles=done)
        assert err.value.left == 3 - done
    for done in (3, 7):
        d.open_ticket("t", "p", "ranked", 1000, LINE_DECK, T0, game="line", training_battles=done)
    d.open_ticket("t", "p", "casual", 1000, LINE_DECK, T0, game="line")  # casual: open from the start
    d.open_ticket("t", "p", "ranked", 900, LINE_DECK, T0)  # Arcana's ranked: no lock


def test_the_line_needs_a_built_line() -> None:
    with pytest.raises(d.NoActiveDeck):
        d.open_ticket("t", "p", "casual", 1000, None, T0, game="line")
    with pytest.raises(d.IllegalDeck):
        bad = d.ActiveDeck("line-1", 2, legal=False, problems=("a line has five cards",))
        d.open_ticket("t", "p", "casual", 1000, bad, T0, game="line")


def waiting(
    tid: str, game: str, mode: str, rating: int = 1000, t: float = 0, last: str | None = None
) -> d.Waiting:
    sizes = (2, 3, 4) if game == "arena" else (2,)
    return d.Waiting(tid, f"p{tid}", mode, rating, at(t), last, game, sizes)


def groups(found: list[tuple[d.Waiting, ...]]) -> set[frozenset[str]]:
    return {frozenset(w.ticket_id for w in g) for g in found}


def test_pairing_never_mixes_games() -> None:
    queue = [
        waiting("a1", "arcana", "casual"),
        waiting("l1", "line", "casual"),
        waiting("r1", "arena", "casual"),
        waiting("a2", "arcana", "ranked"),
        waiting("l2", "line", "ranked"),
    ]
    assert d.match_pass(queue, at(120)) == []
    queue += [waiting("a3", "arcana", "casual", t=1), waiting("l3", "line", "casual", t=2)]
    queue += [waiting("r2", "arena", "casual", t=3), waiting("l4", "line", "ranked", 3000)]
    found = d.match_pass(queue, at(120))
    assert groups(found) == {
        frozenset({"a1", "a3"}),
        frozenset({"l1", "l3"}),
        frozenset({"l2", "l4"}),
        frozenset({"r1", "r2"}),
    }


def test_line_ranked_pairs_by_mmr_in_the_widening_window_without_a_rematch() -> None:
    queue = [waiting("x", "line", "ranked", 1000), waiting("y", "line", "ranked", 1200)]
    assert d.match_pass(queue, at(5.9)) == []  # a gap of 200 MMR: the window is 50 + 25 per second
    assert groups(d.match_pass(queue, at(6))) == {frozenset({"x", "y"})}
    near = [waiting("x", "line", "ranked", 1000, last="py"), waiting("y", "line", "ranked", 1002, last="px")]
    assert d.match_pass(near, at(59)) == []  # the previous ranked opponents: not before both waited 60 s
    assert len(d.match_pass(near, at(60))) == 1


def test_line_casual_pairs_any_two_line_tickets_first_come() -> None:
    queue = [waiting(f"l{i}", "line", "casual", rating=1000 + 700 * i, t=i) for i in range(3)]
    assert [tuple(w.ticket_id for w in g) for g in d.match_pass(queue, at(3))] == [("l0", "l1")]


def test_an_arena_table_requests_one_match_for_all_its_players() -> None:
    table = [opened("a", t=0), opened("b", t=1, sizes=[3]), opened("c", t=2)]
    request_id, by_stream = d.request_table(table, at(10))
    assert request_id == d.request_id_for("c", "a", "b")  # the sorted ticket ids, as for a pair
    (requested,) = by_stream[d.request_stream(request_id)]
    data = requested.data()
    assert (data["game"], data["mode"], data["tickets"]) == ("arena", "casual", ["a", "b", "c"])
    assert data["players"] == [{"id": "pa"}, {"id": "pb"}, {"id": "pc"}]
    b = d.evolve(table[1], by_stream["ticket-b"][0])
    assert (b.status, b.opponents, b.opponent_id) == ("paired", ("pa", "pc"), "pa")
    with pytest.raises(ValueError):  # b accepts only a table of 3
        d.request_table([*table, opened("d")], at(10))
    with pytest.raises(ValueError):
        d.request_table([opened("x"), opened("y", "line")], at(10))


def test_events_from_before_games_read_as_arcana_tables_of_two() -> None:
    old = {
        "ticket_id": "t",
        "player_id": "p",
        "mode": "ranked",
        "rating": 950,
        "deck": ["c1"],
        "opened_at": T0.isoformat(),
    }
    t = d.evolve(None, TicketOpened.decode_data(stored_v1("TicketOpened", old)))
    assert (t.game, t.sizes) == ("arcana", (2,))
    paired = {
        "ticket_id": "t", "request_id": "r", "match_id": "m", "opponent_id": "q",
        "opponent_ticket": "u", "rating_gap": 3, "paired_at": at(2).isoformat(),
    }  # fmt: skip
    assert d.evolve(t, TicketPaired.decode_data(stored_v1("TicketPaired", paired))).opponents == ("q",)


def stored_v1(kind: str, data: dict[str, object]) -> dict[str, object]:
    """``data`` stored in schema version 1, as every reader of matchmaking's store reads it."""
    event = RecordedEvent(None, "ticket-t", 1, 1, kind, 1, T0, None, None, dict(data))  # type: ignore[arg-type]
    return UPCASTERS.upcast(event).data
