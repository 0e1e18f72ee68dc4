"""Daily quests: the offer, counting from MatchEnded facts, completion once, one swap a day."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from libs.contracts import MatchEnded
from services.progression.domain import (
    QUESTS,
    QuestAlreadyCompleted,
    QuestNotOffered,
    SwapAlreadyUsed,
    quests,
)
from services.progression.domain.catalog import DIFFICULTIES, pool_of
from services.progression.domain.facts import MatchResult
from services.progression.events import Event, QuestCompleted, QuestsOffered, RewardGranted

DAY = dt.date(2026, 11, 30)


def _stats(
    units: dict[str, int],
    spells: int = 0,
    damage: int = 0,
    drawn: int = 0,
    kills: int = 0,
    first: bool = False,
) -> dict:
    return {
        "went_first": first,
        "units_played": units,
        "spells_cast": spells,
        "hero_damage": damage,
        "cards_drawn": drawn,
        "units_killed": kills,
        "turns": 5,
    }


def _match(
    match_id: str, winner: str = "me", mode: str = "ranked", turns: int = 9, **mine: Any
) -> MatchResult:
    stats = {"me": _stats(**mine) if mine else _stats({}), "foe": _stats({"beast": 9}, 9, 9, 9, 9)}
    ended = {
        "match_id": match_id, "mode": mode, "players": ["me", "foe"], "winner": winner, "draw": False,
        "loser": "foe" if winner == "me" else "me", "turns": turns, "round": turns // 2 + 1,
        "reason": "hero_killed", "bot": None, "stats": stats,
    }  # fmt: skip
    return MatchResult.from_event(MatchEnded.decode_data(ended), DAY)


def _apply(state: quests.QuestDay, events: list[Event]) -> list[Event]:
    for e in events:
        quests.evolve(state, e)
    return events


def _day_with(*quest_ids: str) -> quests.QuestDay:
    state = quests.QuestDay("me", DAY.isoformat())
    _apply(state, [QuestsOffered("me", state.day, 0, list(quest_ids))])
    return state


def test_the_offer_is_one_quest_per_difficulty_and_made_once() -> None:
    state = quests.QuestDay("me", DAY.isoformat())
    offered = _apply(state, quests.offer(state, seed=12345))
    assert [QUESTS[q].difficulty for q in offered[0].quests] == list(DIFFICULTIES)  # type: ignore[attr-defined]
    assert quests.offer(state, seed=999) == []
    seen = {tuple(quests.offer(quests.QuestDay("me", "d"), seed=s)[0].quests) for s in range(200)}  # type: ignore[attr-defined]
    assert len(seen) > 20  # the seed decides


def test_each_fact_counts_what_the_match_reported() -> None:
    m = _match("m1", units={"beast": 3, "order": 2, "none": 1}, spells=4, damage=11, drawn=14, kills=5)
    counts = {q.id: m.count(q, "me") for q in QUESTS.values()}
    assert counts == {
        "easy-matches": 1,
        "easy-spells": 4,
        "easy-units": 6,
        "easy-draw": 14,
        "easy-hero-damage": 11,
        "standard-wins": 1,
        "standard-beasts": 3,
        "standard-order": 2,
        "standard-kills": 5,
        "standard-second-wins": 1,
        "hard-wins": 1,
        "hard-hero-damage": 11,
        "hard-wild": 0,
        "hard-giants": 0,
        "hard-kills": 5,
    }


def test_a_win_counts_as_the_second_players_only_for_who_went_second() -> None:
    quest = QUESTS["standard-second-wins"]
    assert _match("m1", units={}, first=False).count(quest, "me") == 1
    assert _match("m1", units={}, first=True).count(quest, "me") == 0
    assert _match("m1", winner="foe", units={}, first=False).count(quest, "me") == 0
    known = _match("m1", units={})
    before_the_fact = {k: v for k, v in known.stats["me"].items() if k != "went_first"}
    unknown = dataclasses.replace(known, stats={**known.stats, "me": before_the_fact})  # an older MatchEnded
    assert unknown.count(quest, "me") == 0


@pytest.mark.parametrize(("mode", "turns"), [("practice", 9), ("admin", 9), ("ranked", 3), ("casual", 3)])
def test_matches_that_do_not_count_move_nothing(mode: str, turns: int) -> None:
    state = _day_with("easy-spells", "standard-wins", "hard-kills")
    assert quests.progress(state, _match("m1", mode=mode, turns=turns, units={}, spells=5, kills=30)) == []


def test_progress_adds_up_and_completes_once_with_its_reward() -> None:
    state = _day_with("easy-spells", "standard-wins", "hard-kills")
    _apply(state, quests.progress(state, _match("m1", units={}, spells=2, kills=7)))
    assert state.progress == {"easy-spells": 2, "standard-wins": 1, "hard-kills": 7}
    assert quests.progress(state, _match("m1", units={}, spells=2, kills=7)) == []  # counted already
    done = _apply(state, quests.progress(state, _match("m2", units={}, spells=5, kills=1)))
    completed = [e for e in done if isinstance(e, QuestCompleted)]
    rewards = [e for e in done if isinstance(e, RewardGranted)]
    assert [(c.quest_id, c.coins, c.xp) for c in completed] == [
        ("easy-spells", 20, 80),
        ("standard-wins", 30, 120),
    ]
    assert [r.reward_id for r in rewards] == [
        "quest:me:2026-11-30:easy-spells",
        "quest:me:2026-11-30:standard-wins",
    ]
    assert state.progress == {"easy-spells": 3, "standard-wins": 2, "hard-kills": 8}
    later = _apply(state, quests.progress(state, _match("m3", units={}, spells=5, kills=12)))
    assert [(e.quest_id, e.coins) for e in later if isinstance(e, QuestCompleted)] == [("hard-kills", 45)]
    assert quests.progress(state, _match("m4", units={}, spells=5, kills=30)) == []  # all done


def test_one_swap_a_day_same_difficulty() -> None:
    state = _day_with("easy-spells", "standard-wins", "hard-kills")
    swapped = _apply(state, quests.swap(state, "standard-wins", seed=7))[0]
    assert swapped.replacement in {q.id for q in pool_of("standard")} - {"standard-wins"}  # type: ignore[attr-defined]
    assert state.offered["standard"] == swapped.replacement  # type: ignore[attr-defined]
    with pytest.raises(SwapAlreadyUsed):
        quests.swap(state, "easy-spells", seed=8)
    with pytest.raises(QuestNotOffered):
        quests.swap(state, "standard-wins", seed=8)  # no longer offered


def test_a_completed_quest_cannot_be_swapped() -> None:
    state = _day_with("easy-spells", "standard-wins", "hard-kills")
    _apply(state, quests.progress(state, _match("m1", units={}, spells=3)))
    with pytest.raises(QuestAlreadyCompleted):
        quests.swap(state, "easy-spells", seed=1)


def test_match_ended_data_as_match_publishes_it() -> None:
    data = {
        "winner": "draw",
        "reason": "draw",
        "match_id": "m9",
        "mode": "casual",
        "players": ["me", "foe"],
        "loser": None,
        "draw": True,
        "turns": 22,
        "round": 11,
        "bot": None,
        "stats": {"me": _stats({"wild": 2}), "foe": _stats({})},
    }
    m = MatchResult.from_event(MatchEnded.decode_data(data), DAY)
    assert m.winner is None and m.draw and m.counts
    assert (m.xp_for("me"), m.xp_for("foe")) == (25, 25)
    assert m.count(QUESTS["standard-wins"], "me") == 0 and m.count(QUESTS["hard-wild"], "me") == 2
    assert m.count(QUESTS["easy-matches"], "stranger") == 0
    bot_game = MatchResult.from_event(
        MatchEnded.decode_data({**data, "mode": "practice", "bot": "bot-1", "players": ["me", "bot-1"]}), DAY
    )
    assert not bot_game.counts and bot_game.humans() == ["me"]
