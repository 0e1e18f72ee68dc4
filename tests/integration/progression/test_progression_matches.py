"""Quest progress and pass XP from real matches played through the match service, relayed to the
real broker and consumed by progression's subscription; redelivery pays nothing twice; replay
rebuilds the same read models."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import uuid
from typing import Any

from psycopg import sql
from psycopg_pool import ConnectionPool

from libs import clock
from libs.bus import OutboxRelay, Projector, topic_for
from libs.eventstore import EventStore
from libs.games.arcana.bots import greedy_bot
from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.match import domain as match_domain
from services.match.service import MatchService
from services.progression.domain import QUESTS
from services.progression.projections import projection
from services.progression.service import ProgressionService
from tests.integration.bus.helpers import wait_until
from tests.integration.conftest import run_tool
from tests.integration.match.play import decks_without_common_cards, next_move, play_to_end
from tests.integration.progression.conftest import events_of, move_clock_to, read_model_rows


def _expected_count(quest_id: str, ended: dict[str, Any], player: str) -> int:
    """What one match says a quest should count, read independently of the service's code."""
    quest, mine = QUESTS[quest_id], ended["stats"][player]
    if quest.fact == "matches":
        return 1
    if quest.fact == "wins":
        return int(ended["winner"] == player)
    if quest.fact == "wins_going_second":
        return int(ended["winner"] == player and ended["first_player"] != player)
    if quest.fact == "units_played":
        by_tribe = mine["units_played"]
        return sum(by_tribe.values()) if quest.tribe is None else by_tribe.get(quest.tribe, 0)
    return int(mine[quest.fact])


def _concede_on_turn_3(players: dict[str, Any], svc: MatchService, match_id: str) -> None:
    rng = random.Random(3)
    while True:
        m = svc.matches.load(match_id)
        assert m is not None and m.rules is not None
        if m.rules.turn == 3 and m.rules.phase == "playing":
            active = m.rules.pids[m.rules.active]
            players[active].command(match_id, {"type": "concede"})
            return
        move = next_move(svc, match_id, rng)
        assert move is not None
        players[move[0]].command(match_id, move[1])


def _practice(alice: Any, svc: MatchService) -> str:
    r = alice.post("/v1/practice")
    assert r.status_code == 201, r.get_json()
    match_id, bot = r.get_json()["match_id"], r.get_json()["bot"]
    rng = random.Random(5)
    for _ in range(2000):
        m = svc.matches.load(match_id)
        assert m is not None and m.rules is not None
        waiting = match_domain.awaiting(m)
        if not waiting:
            return str(match_id)
        if bot in waiting:
            svc.bot.bot_turn(match_id)
            continue
        command = greedy_bot(m.rules, alice.id, rng)
        assert command is not None
        alice.command(
            match_id, {k: v for k, v in command.items() if k != "player"} | {"expected_version": m.version}
        )
    raise AssertionError("the practice match did not end")


def _ended(svc: MatchService, match_id: str) -> dict[str, Any]:
    """The match's MatchEnded data, plus ``first_player``: who had the first TurnStarted."""
    events = svc.matches.read_events(match_id)
    [ended] = [e for e in events if e.type == "MatchEnded"]
    first = next(e.data["player_id"] for e in events if e.type == "TurnStarted")
    return {**ended.data, "first_player": first}


class Pipeline:
    """Match events relayed to a topic of their own, consumed by progression's subscription."""

    def __init__(
        self, pool: ConnectionPool, svc: MatchService, progression: ProgressionService, bootstrap: str
    ):
        name = f"m{uuid.uuid4().hex[:10]}"
        self.pool, self.match_schema = pool, svc.schema
        self.relay = OutboxRelay(EventStore(pool, svc.schema), name, bootstrap)
        [sub, _sessions] = definition("progression").subscriptions  # and the kit's
        self.runner = subscription_runner(
            sub,
            progression,
            pool,
            progression.schema,
            bootstrap,
            topics=[topic_for(name)],
            name=f"{name}-prog",
        )
        self.relay.start()
        self.runner.start()

    def match_events(self) -> int:
        query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(self.match_schema, "events"))
        with self.pool.connection() as conn:
            return int(conn.execute(query).fetchone()[0])  # type: ignore[index]

    def drain(self) -> None:
        total = self.match_events()
        wait_until(lambda: self.runner.seen >= total, 90, f"{total} match events consumed")

    def stop(self) -> None:
        self.relay.stop()
        self.runner.stop()


def test_quests_and_pass_follow_real_matches_and_nothing_is_paid_twice(
    postgres_url: str,
    pool: ConnectionPool,
    svc: MatchService,
    make_player: Any,
    progression: ProgressionService,
    kafka_bootstrap: str,
    make_client: Any,
) -> None:
    move_clock_to(clock.now().date() + dt.timedelta(days=1))  # mid-day: every match ends the same UTC day
    day = clock.now().date()
    alice, bob = make_player(), make_player()
    players = {alice.id: alice, bob.id: bob}
    deck_a, deck_b = decks_without_common_cards()
    setup = [{"id": alice.id, "deck": deck_a}, {"id": bob.id, "deck": deck_b}]
    pipeline = Pipeline(pool, svc, progression, kafka_bootstrap)
    try:
        # Matches that count nothing: conceded on turn 3, practice against the bot.
        conceded = svc.creation.create_match("ranked", setup).after.match_id
        _concede_on_turn_3(players, svc, conceded)
        assert _ended(svc, conceded)["turns"] == 3
        practice = _practice(alice, svc)
        assert _ended(svc, practice)["mode"] == "practice" and _ended(svc, practice)["turns"] >= 4
        pipeline.drain()
        assert events_of(pool, progression.schema) == []  # not even a quest offer

        # Matches that count: ranked and casual played to the end.
        counted = []
        for i, mode in enumerate(("ranked", "casual", "ranked")):
            match_id = svc.creation.create_match(mode, setup).after.match_id
            play_to_end(players, svc, match_id, seed=i + 11)
            counted.append(_ended(svc, match_id))
        assert all(e["turns"] >= 4 for e in counted)
        for e in counted:  # MatchEnded says who went first, as the match's own turns show
            assert {p: e["stats"][p]["went_first"] for p in e["players"]} == {
                p: p == e["first_player"] for p in e["players"]
            }
        pipeline.drain()

        for player in (alice.id, bob.id):
            view = make_client(player).get("/v1/quests").get_json()
            assert view["day"] == day.isoformat()
            for q in view["quests"]:
                total = sum(_expected_count(q["id"], e, player) for e in counted)
                assert q["progress"] == min(total, q["target"]), (q, total)
                assert q["completed"] == (total >= q["target"])
            assert any(q["progress"] > 0 for q in view["quests"])
            completed_xp = sum(q["xp"] for q in view["quests"] if q["completed"])
            match_xp = sum(60 if e["winner"] == player else 25 for e in counted)
            season_pass = make_client(player).get("/v1/pass").get_json()
            assert season_pass["xp"] == match_xp + completed_xp
            assert season_pass["level"] == season_pass["xp"] // 600
            rewards = [
                d
                for t, d in events_of(pool, progression.schema, ("RewardGranted",))
                if d["player_id"] == player
            ]
            assert sorted(r["source"]["quest_id"] for r in rewards) == sorted(
                q["id"] for q in view["quests"] if q["completed"]
            )
            assert sum(r["coins"] for r in rewards) == sum(
                q["coins"] for q in view["quests"] if q["completed"]
            )

        # Redelivered three times, and the same MatchEnded again under a new event id: nothing changes.
        before_events, before_rows = (
            events_of(pool, progression.schema),
            read_model_rows(pool, progression.schema),
        )
        match_ids = (conceded, practice, *[c["match_id"] for c in counted])
        ended_events = [r for m in match_ids for r in svc.matches.read_events(m) if r.type == "MatchEnded"]
        for _ in range(3):
            assert not any(pipeline.runner.apply(r) for r in ended_events)
        for r in ended_events:
            twin = dataclasses.replace(r, event_id=uuid.uuid4())
            assert pipeline.runner.apply(twin)  # new to the inbox, yet the streams count each match once
        assert events_of(pool, progression.schema) == before_events
        assert read_model_rows(pool, progression.schema) == before_rows
    finally:
        pipeline.stop()

    # Dropping the read models and replaying every event rebuilds them identically.
    with pool.connection() as conn:
        for table in ("quest_progress", "pass_progress", "rewards"):
            conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(progression.schema, table)))
    assert read_model_rows(pool, progression.schema) != before_rows
    done = run_tool(
        postgres_url,
        "libs.bus.rebuild",
        "--schema",
        progression.schema,
        "--projection",
        "services.progression.projections:projection",
    )
    assert done.returncode == 0, done.stderr
    assert read_model_rows(pool, progression.schema) == before_rows
    Projector(progression.store, projection(progression.schema)).rebuild()  # twice: the same
    assert read_model_rows(pool, progression.schema) == before_rows
