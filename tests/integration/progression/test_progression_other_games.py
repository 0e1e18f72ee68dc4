"""The line and the arena through progression's consumer on the real PostgreSQL, read over HTTP: a
line training or casual win gives arena XP, every line practice match is a training battle, each
counted once however often it is delivered; an arena match of three gives pass XP to all three by
place; Arcana's pass is not touched by the line."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import RecordedEvent
from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.progression.service import ProgressionService
from tests.integration.progression.conftest import events_of, read_model_rows, source_event

XP = {"coins": False, "xp": True, "rating": False}
NOTHING = {"coins": False, "xp": False, "rating": False}
PAID = {"coins": True, "xp": True, "rating": False, "reasons": {"rating": "not_ranked"}}


def ended(
    game: str, mode: str, placements: list[list[str]], verdict: dict[str, Any], **over: Any
) -> RecordedEvent:
    """A MatchEnded of ``game`` as the match service publishes it (best placement first)."""
    players = [p for group in placements for p in group]
    match_id = str(uuid.uuid4())
    data = {
        "match_id": match_id, "mode": mode, "players": players, "winner": players[0], "draw": False,
        "loser": players[-1] if len(players) == 2 else None, "round": 4, "reason": "x",
        "turns": 0 if game == "line" else 6,  # a line fight has no turns; the arena counts from turn 4
        "bot": None, "stats": {p: {"turns": 0} for p in players}, "game": game,
        "placements": placements, "verdict": verdict, **over,
    }  # fmt: skip
    return source_event("MatchEnded", data, clock.now(), f"match-{match_id}", 9)


def practice(me: str, won: bool) -> RecordedEvent:
    bot = "bot-" + str(uuid.uuid4())
    order = [[me], [bot]] if won else [[bot], [me]]
    return ended("line", "practice", order, {me: XP if won else NOTHING, bot: NOTHING}, bot=bot)


def again(event: RecordedEvent) -> RecordedEvent:
    """The same match published again under another event id (a relay starting over)."""
    return source_event(event.type, event.data, event.occurred_at, event.stream, event.version)


def _runner(pool: ConnectionPool, progression: ProgressionService) -> Any:
    [sub, _sessions] = definition("progression").subscriptions
    return subscription_runner(sub, progression, pool, progression.schema, "unused:9092")


def test_training_battles_and_arena_xp_count_once_per_match(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    ada = make_client()
    runner = _runner(pool, progression)
    assert ada.get("/v1/line/progress").get_json() == {"arena_xp": 0, "training_battles": 0}
    won, lost, won_again = practice(ada.id, True), practice(ada.id, False), practice(ada.id, True)
    for event in (won, lost, won_again):
        assert runner.apply(event)
    assert not runner.apply(won)  # the same event: the inbox
    assert runner.apply(again(lost)) and runner.apply(again(won_again))  # the same matches: the stream
    assert ada.get("/v1/line/progress").get_json() == {"arena_xp": 40, "training_battles": 3}
    battles = [d for _, d in events_of(pool, progression.schema, ("TrainingBattleFought",))]
    assert [(d["player_id"], d["won"], d["training_battles"]) for d in battles] == [
        (ada.id, True, 1),
        (ada.id, False, 2),
        (ada.id, True, 3),
    ]
    # training gives no pass XP and moves no quest
    assert events_of(pool, progression.schema, ("PassXpEarned", "QuestsOffered")) == []
    # the read model is a projection: rebuilt from the events, the same rows
    from libs.bus import Projector
    from services.progression.projections import projection

    before = read_model_rows(pool, progression.schema)
    Projector(progression.store, projection(progression.schema)).rebuild()
    assert read_model_rows(pool, progression.schema) == before and before["line_progress"]


def test_a_casual_line_win_gives_the_winner_arena_xp_and_no_pass_xp(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    ada, bob = make_client(), make_client()
    winner = {**XP, "coins": True}
    assert _runner(pool, progression).apply(
        ended("line", "casual", [[ada.id], [bob.id]], {ada.id: winner, bob.id: NOTHING})
    )
    assert ada.get("/v1/line/progress").get_json() == {"arena_xp": 20, "training_battles": 0}
    assert bob.get("/v1/line/progress").get_json() == {"arena_xp": 0, "training_battles": 0}
    assert ada.get("/v1/pass").get_json()["xp"] == 0 == bob.get("/v1/pass").get_json()["xp"]
    moved = [d for _, d in events_of(pool, progression.schema, ("QuestProgressed",))]
    assert {d["player_id"] for d in moved} <= {ada.id}  # the loser's verdict gives nothing
    assert all(d["quest_id"].split("-")[1] in ("matches", "wins") for d in moved)


def test_an_arena_match_of_three_gives_pass_xp_to_all_three_by_place(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    ada, bob, cy = make_client(), make_client(), make_client()
    placements = [[ada.id], [bob.id], [cy.id]]
    event = ended("arena", "casual", placements, {p.id: PAID for p in (ada, bob, cy)})
    runner = _runner(pool, progression)
    assert runner.apply(event) and runner.apply(again(event))
    from_match = [
        d for _, d in events_of(pool, progression.schema, ("PassXpEarned",)) if "match_id" in d["source"]
    ]
    assert sorted((d["player_id"], d["xp"]) for d in from_match) == sorted(
        [(ada.id, 60), (bob.id, 25), (cy.id, 25)]
    )
    passes = {p.id: p.get("/v1/pass").get_json()["xp"] for p in (ada, bob, cy)}
    assert passes[ada.id] >= 60 and passes[bob.id] >= 25 and passes[cy.id] >= 25
    assert ada.get("/v1/line/progress").get_json() == {"arena_xp": 0, "training_battles": 0}


def test_line_progress_needs_a_token(make_client: Any) -> None:
    from tests.integration.web.shape import assert_error

    ada = make_client()
    assert_error(ada.client.get("/v1/line/progress"), 401, "unauthorized")
    assert ada.get("/v1/line/progress").status_code == 200
