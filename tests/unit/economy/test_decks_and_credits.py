"""Decks (five at most, one active, legality named) and what other services' events pay."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from libs.contracts import MatchEnded, RewardGranted
from libs.games.arcana import STARTER_COLLECTION, STARTER_DECK
from services.economy.domain import (
    ActiveDeckUndeletable,
    DeckLimitReached,
    DeckNotFound,
    IllegalDeck,
    InvalidDeck,
)
from services.economy.domain.credits import daily_login, match_credits, reward_credit
from services.economy.domain.decks import (
    Decks,
    SaveDeck,
    decide_activate,
    decide_delete,
    decide_save,
    decide_starter,
    fold,
    refresh,
)
from services.economy.domain.values import CARDS_BY_RARITY
from services.economy.events import ActiveDeckChanged

OWNED = dict(STARTER_COLLECTION)
ENDED_AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def starter() -> Decks:
    return fold("p", decide_starter(Decks("p"), "d1", OWNED))


def test_a_new_account_gets_the_starter_deck_active_and_legal() -> None:
    events = decide_starter(Decks("p"), "d1", OWNED)
    published = events[-1]
    assert isinstance(published, ActiveDeckChanged)
    assert (published.deck_id, published.legal, published.problems) == ("d1", True, [])
    assert published.cards == list(STARTER_DECK)


def test_at_most_five_decks() -> None:
    decks = starter()
    for i in range(2, 6):
        decks = fold("p", [*_events(decks), *decide_save(decks, SaveDeck(f"d{i}", "x", ()), OWNED)])
    with pytest.raises(DeckLimitReached):
        decide_save(decks, SaveDeck("d6", "x", ()), OWNED)


def _events(decks: Decks) -> list:
    """Rebuild the events of a state (enough for these tests: saved decks, active, published)."""
    from services.economy.events import DeckActivated, DeckSaved

    p = decks.player_id
    out: list = [DeckSaved(d.deck_id, d.name, list(d.cards), True, player_id=p) for d in decks.decks.values()]
    out += [DeckActivated(decks.active, player_id=p)] if decks.active else []
    out += [decks.published] if decks.published else []
    return out


def test_structurally_impossible_decks_are_refused_with_every_problem() -> None:
    legendary = CARDS_BY_RARITY["legendary"][0]
    cards = (*STARTER_DECK, "wolf_pup", legendary, legendary, "nope")
    with pytest.raises(InvalidDeck) as err:
        decide_save(starter(), SaveDeck("d2", "bad", cards), OWNED)
    problems = err.value.details["problems"]
    assert len(problems) == 4  # 24 cards, 3 wolf pups, 2 of a legendary, an unknown id


def test_activation_names_every_problem() -> None:
    saved = decide_save(starter(), SaveDeck("d2", "x", ("wolf_pup",) * 2), OWNED)
    decks = fold("p", [*_events(starter()), *saved])
    without_pups = {**OWNED, "wolf_pup": 0}  # disenchanted since the deck was saved
    with pytest.raises(IllegalDeck) as err:
        decide_activate(decks, "d2", without_pups)
    assert len(err.value.details["problems"]) == 2  # 2 cards not 20; 2 copies of wolf_pup, 0 owned


def test_a_deck_with_cards_the_player_does_not_own_is_refused_naming_each() -> None:
    epic, rare = CARDS_BY_RARITY["epic"][0], CARDS_BY_RARITY["rare"][0]
    owned = {**OWNED, rare: 1}
    with pytest.raises(InvalidDeck) as err:
        decide_save(starter(), SaveDeck("d2", "x", ("wolf_pup", epic, epic, rare, rare)), owned)
    assert sorted(err.value.details["problems"]) == sorted(
        [f"2 copies of {epic}, 0 owned", f"2 copies of {rare}, 1 owned"]
    )
    assert decide_save(starter(), SaveDeck("d2", "x", ("wolf_pup", rare)), owned)  # owned, incomplete: saved


def test_the_active_deck_cannot_be_deleted_and_unknown_ids_are_not_found() -> None:
    with pytest.raises(ActiveDeckUndeletable):
        decide_delete(starter(), "d1")
    with pytest.raises(DeckNotFound):
        decide_delete(starter(), "other")


def test_losing_a_card_of_the_active_deck_publishes_it_as_illegal_once() -> None:
    decks = starter()
    fewer = {**OWNED, "wolf_pup": 1}
    (changed,) = refresh(decks, fewer)
    assert not changed.legal and changed.problems == ["2 copies of wolf_pup, 1 owned"]
    assert refresh(fold("p", [*_events(decks), changed]), fewer) == []


def _ended(**data: object) -> MatchEnded:
    return MatchEnded.decode_data({"reason": "hero_killed", "round": 3, **data})


def test_match_pay_win_loss_and_draw_and_nothing_for_practice_or_short_matches() -> None:
    base = {"match_id": "m", "players": ["a", "b"], "winner": "a", "loser": "b", "draw": False, "turns": 4}
    paid = {c.player_id: c.credit.coins for c in match_credits(_ended(**base, mode="casual"), ENDED_AT)}
    assert paid == {"a": 60, "b": 20}
    draw = {**base, "mode": "ranked", "winner": "draw", "loser": None, "draw": True}
    assert {c.player_id: c.credit.coins for c in match_credits(_ended(**draw), ENDED_AT)} == {
        "a": 20,
        "b": 20,
    }
    assert match_credits(_ended(**{**base, "mode": "practice"}), ENDED_AT) == []
    assert match_credits(_ended(**{**base, "mode": "admin"}), ENDED_AT) == []
    assert match_credits(_ended(**{**base, "mode": "casual", "turns": 3}), ENDED_AT) == []


def test_sources_key_each_credit_once() -> None:
    morning = daily_login("p", datetime(2026, 1, 2, 0, 1, tzinfo=UTC))
    evening = daily_login("p", datetime(2026, 1, 2, 23, 59, tzinfo=UTC))
    assert morning.credit.source == evening.credit.source == "login:p:2026-01-02"
    reward = reward_credit(
        RewardGranted("streak:p:2026-01-07", "p", 0, 1, "streak", {"streak_day": 7, "day": "2026-01-07"})
    )
    assert reward is not None and reward.credit.free_packs == 1
    assert reward.credit.source == "reward:streak:p:2026-01-07"
    assert reward.credit.note == '{"day": "2026-01-07", "streak_day": 7}'
    assert reward_credit(RewardGranted("q", "p", -5, 0, "quest", {})) is None
