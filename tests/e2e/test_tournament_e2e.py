"""The line's tournament end to end (issue 31, point 3), every process real (``make run``'s command lines):
two new players claim the welcome set and enter with ten cards each; bad input is refused in the one
error shape (nine cards, cards not owned, a second entry, a five not within the ten); 60 s after the
first entry bots fill the six empty seats of the 8-seat bracket; one player chooses a five for round
1, the other's default five fights; after round 1 every process is killed (SIGKILL: the match service,
which keeps the bracket, the relays and the consumers with it) while the next round's window runs out;
restarted, the bracket is rebuilt from its stream and runs to its end; every place is paid once, in
shards, as the prize table in docs/line.md says (the amounts written here from that table)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.stack import Stack
from libs.client import ApiError
from libs.games.line import WELCOME_SET
from libs.games.line.autofill import autofill
from tests.e2e.test_line_e2e import Player, _answer, _error
from tests.e2e.test_match_e2e import MATCH_PROCESSES, wait_for

pytestmark = pytest.mark.e2e

# docs/line.md, "Tournament": 1st 6,000 shards, 2nd 3,000, 3rd-4th 1,500, 5th-8th 500; bots nothing.
PRIZE = {1: 6_000, 2: 3_000, 3: 1_500, 5: 500}
TEN = sorted(WELCOME_SET)[:10]
ELEVENTH = sorted(WELCOME_SET)[10]
WAIT = 60


def _bracket(p: Player) -> dict[str, Any] | None:
    listed = p.api.tournaments()
    return p.api.tournament(listed[0]["tournament_id"]) if listed else None


def _code(call: Any) -> tuple[int, str]:
    err = _error(call)
    assert isinstance(err, ApiError), "expected a refusal"
    return err.status, err.code


def _shards(p: Player) -> list[tuple[str, int]]:
    return [
        (e["source"], e["amount"])
        for e in p.api.wallet_history()["entries"]
        if e["currency"] == "shards" and e["source"].startswith("tournament:")
    ]


def test_an_eight_seat_bracket_with_bots_survives_a_kill_mid_bracket_and_pays_each_place_once(
    stack: Stack,
) -> None:
    a, b = Player(stack, "tour_a"), Player(stack, "tour_b")
    nobody = Player(stack, "tour_c")  # owns no line card
    for p in (a, b):
        _answer(p.api.claim_line_welcome, "wallet_not_found")
    _answer(lambda: nobody.api.wallet(), "wallet_not_found")
    assert _code(lambda: a.api.enter_line_tournament(TEN[:9])) == (422, "invalid_entry")
    assert _code(lambda: nobody.api.enter_line_tournament(TEN)) == (422, "invalid_entry")
    for p in (a, b):
        assert p.api.enter_line_tournament(TEN)["cards"] == TEN
    assert _code(lambda: a.api.enter_line_tournament(TEN)) == (409, "already_entered")

    filling = wait_for(lambda: (x := _bracket(b)) and len(x["entrants"]) == 2 and x, WAIT)
    tid = filling["tournament_id"]
    assert filling["status"] == "filling" and filling["you"]["entry"] == TEN
    assert _code(lambda: nobody.api.tournament(tid)) == (404, "tournament_not_found")

    stack.advance_clock(61)  # the fill time: bots take the six empty seats
    running = wait_for(lambda: (x := _bracket(a)) and x["status"] == "running" and x, WAIT)
    assert sum(e["bot"] for e in running["entrants"]) == 6 and running["round"] == 1
    assert _code(lambda: a.api.choose_lineup(tid, [*TEN[:4], ELEVENTH])) == (422, "invalid_lineup")
    chosen = list(reversed(TEN[5:]))
    assert chosen != list(autofill(TEN))
    assert a.api.choose_lineup(tid, chosen)["you"]["lineup"] == chosen

    restart(stack, 31)  # killed with round 1's window open; it closes while everything is down
    after_one = wait_for(lambda: (x := _bracket(a)) and x["round"] >= 2 and x, WAIT)
    round_one = after_one["rounds"][0]["fights"]
    assert all(f["winner"] for f in round_one)
    mine = next(f for f in round_one if a.id in f["players"])
    assert mine["lineups"][a.id] == chosen  # the five chosen before the kill, rebuilt from the stream
    theirs = next(f for f in round_one if b.id in f["players"])
    assert theirs["lineups"][b.id] == list(autofill(TEN))  # b chose nothing: autofill of the ten
    if after_one["status"] != "ended":  # a human is still in: kill again, between rounds
        restart(stack, 31)

    def ended() -> dict[str, Any] | None:
        found = _bracket(a)
        if found is not None and found["status"] != "ended" and found["round"] == 3:
            stack.advance_clock(31)  # the final's window
        return found if found is not None and found["status"] == "ended" else None

    final = wait_for(ended, WAIT * 2, interval=1)
    places = {e["player_id"]: e["place"] for e in final["entrants"]}
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5, 5, 5]
    assert [len(r["fights"]) for r in final["rounds"]] == [4, 2, 1]
    for f in (f for r in final["rounds"] for f in r["fights"]):  # each fight a real line match
        human = next((p for p in (a, b) if p.id in f["players"]), None)
        if human is not None:
            match = human.api.match(f["match_id"])
            assert (match["game"], match["mode"]) == ("line", "tournament")
            assert match["result"]["winner"] == f["winner"]
            assert match["you"]["line"] == f["lineups"][human.id]  # the five recorded for the fight

    for p in (a, b):
        expected = [(f"tournament:{tid}:{p.id}", PRIZE[places[p.id]])]
        assert wait_for(lambda p=p, expected=expected: _shards(p) == expected, WAIT), _shards(p)


def restart(stack: Stack, seconds: float) -> None:
    """Kill every process (SIGKILL), move the clock ``seconds`` on while they are down, start them."""
    stack.kill(*MATCH_PROCESSES)
    stack.advance_clock(seconds)
    stack.start(*MATCH_PROCESSES)
    stack.wait_ready()
