"""What a line or an arena MatchEnded does in progression, pure: the line's arena XP (20 a win that
gives XP) and training battles (every finished line practice match, once), no pass XP from the line;
arena pass XP by place; quests move only by the facts every game reports (matches, wins)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from libs.contracts import MatchEnded
from services.progression.domain import QUESTS, quests, track
from services.progression.domain.facts import MatchResult
from services.progression.events import ArenaXpEarned, QuestProgressed, TrainingBattleFought

DAY = dt.date(2026, 12, 1)
XP = {"coins": False, "xp": True, "rating": False}
NOTHING = {"coins": False, "xp": False, "rating": False}
PAID = {"coins": True, "xp": True, "rating": False}


def result(game: str, mode: str, players: list[str], verdict: dict[str, Any], **over: Any) -> MatchResult:
    """A MatchEnded of ``game`` as the match service publishes it, the first player winning."""
    data = {
        "match_id": "m1", "mode": mode, "players": players, "winner": players[0], "draw": False,
        "loser": players[1] if len(players) == 2 else None, "round": 3, "reason": "x",
        "turns": 0 if game == "line" else 6,  # a line fight has no turns; the arena counts from turn 4
        "bot": None, "stats": {p: {"units_played": {"beast": 9}, "hero_damage": 30} for p in players},
        "game": game, "placements": [[p] for p in players], "verdict": verdict, **over,
    }  # fmt: skip
    return MatchResult.from_event(MatchEnded.decode_data(data), DAY)


def practice(winner: str) -> MatchResult:
    """A line training fight of "me" against the bot "bot-1" (the winner's verdict gives XP)."""
    players = ["me", "bot-1"] if winner == "me" else ["bot-1", "me"]
    verdict = {p: XP if p == winner == "me" else NOTHING for p in players}
    return result("line", "practice", players, verdict, bot="bot-1")


def test_a_line_training_win_gives_arena_xp_and_a_training_battle_but_no_pass_xp_nor_quests() -> None:
    match = practice("me")
    events = track.record(track.LineProgress("me"), match)
    assert events == [TrainingBattleFought("me", "m1", True, 1), ArenaXpEarned("me", "m1", 20, 20)]
    assert match.track_players() == ["me"] and match.quest_players() == [] and match.xp_for("me") == 0


def test_a_lost_training_fight_is_still_a_training_battle_and_each_counts_once() -> None:
    state = track.LineProgress("me")
    for i, winner in enumerate(("bot-1", "me", "bot-1")):
        match = practice(winner)
        events = track.record(state, MatchResult(**{**match.__dict__, "match_id": f"m{i}"}))
        state = track.fold("me", events) if i == 0 else _apply(state, events)
    assert (state.training_battles, state.arena_xp) == (3, 20)
    again = MatchResult(**{**practice("me").__dict__, "match_id": "m1"})
    assert track.record(state, again) == []  # a redelivery counts nothing more
    assert practice("bot-1").track_players() == ["me"]  # the bot has no progress


def _apply(state: track.LineProgress, events: list[Any]) -> track.LineProgress:
    for e in events:
        state = track.evolve(state, e)
    return state


def test_a_casual_line_win_gives_arena_xp_and_moves_only_shared_quests() -> None:
    match = result("line", "casual", ["me", "foe"], {"me": {**XP, "coins": True}, "foe": NOTHING})
    assert track.record(track.LineProgress("me"), match) == [ArenaXpEarned("me", "m1", 20, 20)]
    assert track.record(track.LineProgress("foe"), match) == []
    assert match.quest_players() == ["me"] and match.xp_for("me") == 0
    assert match.count(QUESTS["standard-wins"], "me") == match.count(QUESTS["easy-matches"], "me") == 1
    for arcana_only in ("easy-units", "standard-beasts", "easy-hero-damage", "standard-second-wins"):
        assert match.count(QUESTS[arcana_only], "me") == 0


def test_a_ranked_line_match_gives_no_xp_and_moves_no_quest() -> None:
    rated = {"coins": True, "xp": False, "rating": True}
    match = result("line", "ranked", ["me", "foe"], {"me": rated, "foe": rated})
    assert match.track_players() == [] and match.quest_players() == []


@pytest.mark.parametrize(("player", "xp", "wins"), [("a", 60, 1), ("b", 25, 0), ("c", 25, 0)])
def test_an_arena_match_gives_pass_xp_by_place(player: str, xp: int, wins: int) -> None:
    match = result("arena", "casual", ["a", "b", "c"], dict.fromkeys("abc", PAID))
    assert match.quest_players() == ["a", "b", "c"] and match.track_players() == []
    assert match.xp_for(player) == xp
    assert match.count(QUESTS["hard-wins"], player) == wins
    assert match.count(QUESTS["easy-matches"], player) == 1
    assert match.count(QUESTS["hard-hero-damage"], player) == 0  # an Arcana stat, whatever it says


def test_arena_quest_progress_counts_wins_of_the_first_place() -> None:
    day = quests.fold("a", DAY.isoformat(), [])
    for e in quests.offer(day, 7):
        quests.evolve(day, e)
    match = result("arena", "casual", ["a", "b", "c"], dict.fromkeys("abc", PAID))
    moved = {e.quest_id: e.amount for e in quests.progress(day, match) if isinstance(e, QuestProgressed)}
    assert set(moved) <= {"easy-matches", "standard-wins", "hard-wins"}
    assert all(QUESTS[q].fact in ("matches", "wins") for q in moved)
