"""200 players with spread ratings queue ranked at once, through the service on PostgreSQL, a pass
every (simulated) second, each player polling: everyone is matched within the window schedule,
nobody twice; the mean rating gap is reported."""

from __future__ import annotations

import random
import statistics
import uuid
from collections.abc import Callable

from libs import clock
from services.matchmaking import domain
from services.matchmaking.service import MatchmakingService

from .conftest import foreign_event, rating_changed, requested

PLAYERS = 200


def test_200_players_queued_at_once_are_all_matched_within_the_schedule(
    mm: MatchmakingService, deliver: Callable
) -> None:
    rng = random.Random(11)
    ratings = {str(uuid.uuid4()): max(0, int(rng.gauss(1100, 250))) for _ in range(PLAYERS)}
    for i, (player, rating) in enumerate(ratings.items()):
        deliver(foreign_event("RatingChanged", rating_changed(player, rating), version=1, position=i))
    tickets = [mm.join(p, "ranked") for p in ratings]
    seconds = 0
    while any(mm.look(t.player_id, t.ticket_id).status == "waiting" for t in tickets):
        seconds += 1
        assert seconds <= domain.WINDOW_UNLIMITED_AFTER + 1, "someone still waits past the schedule"
        clock.advance(1)
        mm.pair()
    requests = requested(mm)
    seated = [p["id"] for r in requests for p in r["players"]]
    assert sorted(seated) == sorted(ratings), "everyone once, nobody twice"
    gaps = []
    for r in requests:
        a, b = (p["id"] for p in r["players"])
        gap = abs(ratings[a] - ratings[b])
        ta, tb = mm.look(a, r["tickets"][0]), mm.look(b, r["tickets"][1])
        waited = max(ta.waited(clock.now()), tb.waited(clock.now()))  # until pairing: the wider window
        assert gap <= domain.window(waited), (gap, waited)
        gaps.append(gap)
    print(
        f"\n{PLAYERS} players through the service: all matched in {seconds} passes, "
        f"mean rating gap {statistics.mean(gaps):.1f}, max {max(gaps)}"
    )
