"""A tournament's bracket on the bus (``services/match/publication.py``): only on the lifecycle topic, the
entry's ten never, a five chosen for a round not before it fights (in ``TournamentFightStarted``), every
other step as stored and as declared (``libs.contracts.tournament``)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from libs import clock
from libs.contracts.tournament import BRACKET_EVENTS
from libs.eventstore import EventStore, RecordedEvent
from services.match.domain import bracket as b
from services.match.events import LIFECYCLE_TOPIC
from services.match.publication import route
from tests.unit.match.test_bracket import Run, bots

DECLARED = {e.TYPE: e for e in BRACKET_EVENTS}
FIVE = [f"card0_{i}" for i in range(5)]


def _recorded(n: int, kind: str, data: dict[str, Any]) -> RecordedEvent:
    return RecordedEvent(uuid.uuid4(), "tournament-t1", n, n, kind, 1, clock.now(), None, None, data)


def test_a_whole_bracket_is_published_as_declared_without_an_entry_or_a_five_before_it_fights() -> None:
    run = Run()
    run.enter("p0", 0)
    at = run.state.fill_at
    run.add(b.decide_fill(run.state, bots(7), 1, at))
    run.add(b.decide_lineup(run.state, "p0", FIVE, at, lambda cards, entry: []))
    for _ in range(3):
        at += timedelta(seconds=31)
        # p0 wins each fight it is in (its five fights every round), the pair's second seat the others
        run.play_round(at, winners={f"m{r}-{n}": "p0" for r in (1, 2, 3) for n in range(4)})
    store: EventStore = None  # type: ignore[assignment]  # a bracket's route reads nothing
    out = [pair for n, (k, d) in enumerate(run.events, 1) for pair in route(_recorded(n, k, d), store)]
    assert {topic for topic, _ in out} == {LIFECYCLE_TOPIC}
    assert {e.type for _, e in out} == set(DECLARED)  # every step but the choices
    for _, e in out:
        assert set(e.data) == set(DECLARED[e.type].decode(e).data()), e.type  # exactly its declaration
        assert "cards" not in e.data
    started = [e.data for _, e in out if e.type == b.FIGHT_STARTED]
    assert len(started) == 7 and all(len(s["lineups"]) == 2 for s in started)
    assert next(s["lineups"]["p0"] for s in started if "p0" in s["players"]) == FIVE
