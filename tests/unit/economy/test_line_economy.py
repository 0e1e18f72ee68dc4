"""The line in the economy, pure: the match rewards table (every game), shards in the wallet, the
welcome set claimed once and the rules of saved lines (five different owned cards, five lines, one
active, ``ActiveDeckChanged`` with game line, links shown)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from libs.config import PROJECT_ROOT
from libs.contracts import MatchEnded
from libs.games.line import CATALOG, WELCOME_LINE, WELCOME_SET
from libs.games.line.doc import with_table
from services.economy.domain import (
    ActiveDeckUndeletable,
    DeckLimitReached,
    InvalidAmount,
    InvalidLine,
    WelcomeAlreadyClaimed,
    wallet,
)
from services.economy.domain import welcome as line
from services.economy.domain.credits import PlayerCredit, PlayerShards, match_credits
from services.economy.domain.rewards import Reward, match_reward
from services.economy.events import ActiveDeckChanged, ShardsCredited

ENDED_AT = datetime(2026, 12, 1, 18, 30, tzinfo=UTC)
PAYS = {"coins": True, "xp": True, "rating": False, "reasons": {}}
UNPAID = {"coins": False, "xp": False, "rating": False, "reasons": {"coins": "daily_coin_limit"}}


# -- the rewards table ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "mode", "place", "groups", "reward"),
    [
        ("line", "casual", 0, 2, Reward("shards", 1500)),
        ("line", "casual", 1, 2, None),
        ("line", "ranked", 0, 2, Reward("shards", 1500)),
        ("line", "ranked", 1, 2, Reward("shards", 200)),
        ("line", "practice", 0, 2, None),
        ("arena", "casual", 0, 3, Reward("coins", 60)),
        ("arena", "casual", 1, 3, Reward("coins", 20)),
        ("arena", "casual", 3, 4, Reward("coins", 20)),
        ("arcana", "ranked", 0, 2, Reward("coins", 60)),
        ("arcana", "casual", 1, 2, Reward("coins", 20)),
        ("arcana", "ranked", 0, 1, Reward("coins", 20)),  # a draw: one group, 20 each
        ("chess", "casual", 0, 2, None),
    ],
)
def test_the_rewards_table(game: str, mode: str, place: int, groups: int, reward: Reward | None) -> None:
    assert match_reward(game, mode, place, groups) == reward


def _ended(game: str, mode: str, players: list[str], verdict: dict[str, Any], **over: Any) -> MatchEnded:
    return MatchEnded.decode_data({
        "match_id": "m1", "game": game, "mode": mode, "players": players, "winner": players[0],
        "loser": players[1] if len(players) == 2 else None, "draw": False, "turns": 2, "round": 2,
        "reason": "line_fell", "placements": [[p] for p in players], "verdict": verdict, **over,
    })  # fmt: skip


def _paid(ended: MatchEnded) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    for c in match_credits(ended, ENDED_AT):
        if isinstance(c, PlayerShards):
            out[c.player_id] = ("shards", c.credit.shards)
        else:
            assert isinstance(c, PlayerCredit)
            out[c.player_id] = ("coins", c.credit.coins)
    return out


def test_a_casual_line_pays_the_winner_1500_shards_and_the_loser_nothing_however_short() -> None:
    casual = _ended("line", "casual", ["a", "b"], {"a": PAYS, "b": {**UNPAID, "reasons": {}}})
    assert _paid(casual) == {"a": ("shards", 1500)}
    (credit,) = match_credits(casual, ENDED_AT)
    assert isinstance(credit, PlayerShards)
    assert credit.credit.source == "match:m1:a" and credit.credit.earned_at == "2026-12-01T18:30:00+00:00"


def test_a_ranked_line_pays_1500_and_200_shards_and_only_what_the_verdict_allows() -> None:
    rated = {**PAYS, "xp": False, "rating": True}
    assert _paid(_ended("line", "ranked", ["a", "b"], {"a": rated, "b": rated})) == {
        "a": ("shards", 1500),
        "b": ("shards", 200),
    }
    assert _paid(_ended("line", "ranked", ["a", "b"], {"a": rated, "b": UNPAID})) == {"a": ("shards", 1500)}
    assert _paid(_ended("line", "practice", ["a", "b"], {"a": PAYS, "b": PAYS}, bot="b")) == {}


def test_an_arena_match_pays_60_to_the_first_place_and_20_to_every_other() -> None:
    three = _ended("arena", "casual", ["a", "b", "c"], {p: PAYS for p in "abc"}, turns=12)
    assert _paid(three) == {"a": ("coins", 60), "b": ("coins", 20), "c": ("coins", 20)}
    four = _ended("arena", "casual", ["d", "a", "b", "c"], {p: PAYS for p in "abcd"}, turns=12)
    assert _paid(four) == {"d": ("coins", 60), "a": ("coins", 20), "b": ("coins", 20), "c": ("coins", 20)}
    limited = _ended("arena", "casual", ["a", "b", "c"], {"a": UNPAID, "b": PAYS, "c": PAYS}, turns=12)
    assert _paid(limited) == {"b": ("coins", 20), "c": ("coins", 20)}
    practice = _ended(
        "arena", "practice", ["a", "bot-1", "bot-2"], {p: PAYS for p in ("a", "bot-1", "bot-2")}
    )
    assert _paid(practice) == {}


# -- shards in the wallet ------------------------------------------------------------------------


def test_shards_are_a_currency_of_their_own() -> None:
    opened = wallet.fold(wallet.decide_open_wallet(None, wallet.OpenWallet("p", "0" * 64), now=ENDED_AT))
    cmd = wallet.ShardCredit("match:m1:p", "match", 1500, ENDED_AT.isoformat(), "m1")
    (event,) = wallet.decide_shard_credit(opened, "p", cmd)
    assert isinstance(event, ShardsCredited) and (event.player_id, event.shards_after) == ("p", 1500)
    after = wallet.evolve(opened, event)
    assert opened is not None and (after.shards, after.coins) == (1500, opened.coins)
    (again,) = wallet.decide_shard_credit(after, "p", wallet.ShardCredit("match:m2:p", "match", 200, "x"))
    assert isinstance(again, ShardsCredited) and again.shards_after == 1700
    with pytest.raises(InvalidAmount):
        wallet.decide_shard_credit(after, "p", wallet.ShardCredit("s", "match", 0, "x"))


# -- the welcome set and the lines ---------------------------------------------------------------


def welcomed() -> line.LineBook:
    return line.fold("p", line.decide_claim_welcome(line.LineBook("p")))


def test_the_welcome_set_is_3_creeps_7_uncommon_heroes_and_a_support_hero_claimed_once() -> None:
    cards = [CATALOG[c] for c in WELCOME_SET]
    creeps = [c for c in cards if c.kind == "creep"]
    heroes = [c for c in cards if c.kind == "hero"]
    assert len(creeps) == 3 and len(heroes) == 8 and len(set(WELCOME_SET)) == 11
    assert sum("support" in c.roles for c in heroes) >= 1
    assert sum(c.rarity == "uncommon" and "support" not in c.roles for c in heroes) == 7
    assert dict(welcomed().owned) == dict.fromkeys(WELCOME_SET, 1)
    with pytest.raises(WelcomeAlreadyClaimed):
        line.decide_claim_welcome(welcomed())


def save(book: line.LineBook, deck_id: str, cards: tuple[str, ...] = WELCOME_LINE) -> line.LineBook:
    events = line.decide_save(book, line.SaveLine(deck_id, "first", cards))
    for e in events:
        book = line.evolve(book, e)
    return book


def test_a_line_is_five_different_owned_cards_and_every_problem_is_named() -> None:
    assert line.problems(WELCOME_LINE, welcomed().owned) == []
    bad = ("mud_brute", "mud_brute", "sun_herald", "nope")
    with pytest.raises(InvalidLine) as err:
        line.decide_save(welcomed(), line.SaveLine("d1", "bad", bad))
    assert err.value.details is not None
    assert err.value.details["problems"] == [
        "a line has exactly 5 cards, not 4",
        "mud_brute twice: the five are different cards",
        "sun_herald is not owned",
        "unknown card 'nope'",
    ]
    with pytest.raises(InvalidLine):  # nothing owned before the welcome set
        line.decide_save(line.LineBook("p"), line.SaveLine("d1", "x", WELCOME_LINE))


def test_at_most_five_lines() -> None:
    book = welcomed()
    for i in range(5):
        book = save(book, f"d{i}")
    with pytest.raises(DeckLimitReached):
        line.decide_save(book, line.SaveLine("d6", "x", WELCOME_LINE))
    assert line.decide_save(book, line.SaveLine("d0", "renamed", WELCOME_LINE))  # replacing is fine


def test_activation_publishes_the_line_in_row_order_once_and_an_edit_publishes_it_again() -> None:
    book = save(welcomed(), "d1")
    assert line.decide_save(welcomed(), line.SaveLine("d1", "x", WELCOME_LINE))[1:] == []  # not active
    (published,) = line.decide_activate(book, "d1")
    assert isinstance(published, ActiveDeckChanged)
    assert (published.game, published.player_id, published.deck_id) == ("line", "p", "d1")
    assert (published.cards, published.legal, published.problems) == (list(WELCOME_LINE), True, [])
    book = line.evolve(book, published)
    assert line.decide_activate(book, "d1") == []  # already active and published
    reordered = tuple(reversed(WELCOME_LINE))
    _saved, again = line.decide_save(book, line.SaveLine("d1", "first", reordered))
    assert isinstance(again, ActiveDeckChanged) and again.cards == list(reordered)
    with pytest.raises(ActiveDeckUndeletable):
        line.decide_delete(book, "d1")


def test_the_links_a_line_lights_are_shown_with_the_stats_it_fights_with() -> None:
    shown = line.links(WELCOME_LINE)
    assert [link["id"] for link in shown["links"]] == ["anchor", "classic", "control_net"]
    front = CATALOG[WELCOME_LINE[0]]
    # anchor +1 ARM, classic +1 HP, control net (two disablers/initiators) +1 ARM
    assert shown["stats"][0] == {
        "card_id": front.id,
        "roles": list(front.roles),
        "atk": front.atk,
        "arm": front.arm + 2,
        "hp": front.hp + 1,
    }
    assert line.links(("mud_brute",)) == {"links": [], "stats": []}


def test_the_service_readme_lists_the_current_line_catalog_and_the_welcome_set() -> None:
    readme = (PROJECT_ROOT / "services/economy/README.md").read_text(encoding="utf-8")
    assert with_table(readme) == readme, "run `python -m libs.games.line.doc services/economy/README.md`"
    assert all(f"| {CATALOG[c].name} | `{c}` |" in readme for c in WELCOME_SET)
