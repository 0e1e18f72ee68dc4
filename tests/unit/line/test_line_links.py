"""Links: read from roles and tags, one tier per link, several at once, baked into the fight's stats."""

from __future__ import annotations

from libs.games.line import CATALOG, Card, active_links, bake, start
from libs.games.line.catalog import _card


def make(name: str, roles: list[str], tags: list[str] = (), atk: int = 3, arm: int = 3, hp: int = 10) -> Card:  # type: ignore[assignment]
    return _card(
        id=name, name=name, kind="hero", rarity="rare", roles=roles, tags=list(tags), atk=atk, arm=arm, hp=hp
    )


PLAIN = make("plain", ["carry"])


def lit(cards: list[Card], rules: int = 2) -> dict[str, int]:
    return {link.id: link.tier for link in active_links(cards, rules)}


def stats(cards: list[Card]) -> list[tuple[int, int, int]]:
    return [(f.atk, f.arm, f.hp) for f in bake(cards, active_links(cards))]


def test_no_link_leaves_the_printed_stats() -> None:
    cards = [PLAIN] * 5
    assert lit(cards) == {} and stats(cards) == [(3, 3, 10)] * 5


def test_anchor_a_support_or_a_healer_gives_everyone_1_armour() -> None:
    for helper in (make("s", ["support"]), make("h", ["carry"], ["healer"])):
        cards = [helper, PLAIN, PLAIN, PLAIN, PLAIN]
        assert lit(cards) == {"anchor": 1}
        assert stats(cards) == [(3, 4, 10)] * 5


def test_classic_a_tank_a_carry_and_a_support_give_everyone_1_hp() -> None:
    tank, support = make("t", ["tank"]), make("s", ["support"])
    cards = [tank, PLAIN, support, PLAIN, PLAIN]
    for rules in (1, 2):
        assert lit(cards, rules) == {"anchor": 1, "classic": 1}
    assert stats(cards) == [(3, 4, 11)] * 5
    assert "classic" not in lit([tank, support, support, support, support])  # no carry or nuker


def test_classic_version_1_needed_three_different_cards() -> None:
    both = make("tc", ["tank", "carry"])
    support = make("s", ["support"])
    assert "classic" not in lit([both, support, support, support, support], rules=1)
    assert "classic" in lit([both, support, make("i", ["support"], ["initiator"]), support, support], rules=1)


def test_classic_version_2_one_card_may_meet_several_requirements() -> None:
    both = make("tc", ["tank", "carry"])
    support = make("s", ["support"])
    links = active_links([support, both, support, support, support])
    classic = next(x for x in links if x.id == "classic")
    assert classic.slots == (0, 1)  # the tank-carry meets two needs, the first support the third
    assert "classic" in lit([make("all", ["tank", "carry", "support"]), PLAIN, PLAIN, PLAIN, PLAIN])


def test_the_seeds_classic_case_sun_herald_is_support_and_initiator() -> None:
    line = ["sun_herald", "reed_archer", "ash_hound", "blade_dancer", "gale_duelist"]
    cards = [CATALOG[c] for c in line]
    assert "classic" not in lit(cards, rules=1)  # the old misreading
    assert lit(cards) == {"anchor": 1, "classic": 1, "slippery": 2}
    classic = next(x for x in active_links(cards) if x.id == "classic")
    assert classic.slots == (0, 1)
    assert [hp for _, _, hp in stats(cards)] == [c.hp + 1 for c in cards]


def test_control_net_takes_its_best_tier() -> None:
    d = make("d", ["carry"], ["disabler"])
    i = make("i", ["carry"], ["initiator"])
    assert lit([d, PLAIN, PLAIN, PLAIN, PLAIN]) == {}
    assert lit([d, i, PLAIN, PLAIN, PLAIN]) == {"control_net": 2}
    assert stats([d, i, PLAIN, PLAIN, PLAIN]) == [(3, 4, 10)] * 5
    both = make("di", ["carry"], ["disabler", "initiator"])
    assert lit([both, i, PLAIN, PLAIN, PLAIN]) == {"control_net": 2}  # a card counts once
    assert lit([d, i, both, PLAIN, PLAIN]) == {"control_net": 3}
    assert stats([d, i, both, PLAIN, PLAIN]) == [(3, 4, 11)] * 5  # not 2 + 1 armour: the best tier only


def test_nuker_choir_two_nukers_give_everyone_1_atk() -> None:
    n = make("n", ["nuker"])
    assert lit([n, PLAIN, PLAIN, PLAIN, PLAIN]) == {}
    assert stats([n, n, PLAIN, PLAIN, PLAIN]) == [(4, 3, 10)] * 5


def test_slippery_only_the_escape_cards_gain_1_armour() -> None:
    e = make("e", ["carry"], ["escape"])
    assert stats([e, PLAIN, e, PLAIN, PLAIN]) == [(3, 4, 10), (3, 3, 10), (3, 4, 10), (3, 3, 10), (3, 3, 10)]


def test_push_two_pushers_carries_gain_1_atk_tanks_lose_1_armour_never_below_0() -> None:
    p = make("p", ["carry"], ["pusher"])
    tank0 = make("t0", ["tank"], arm=0)
    tank = make("t", ["tank"])
    assert stats([p, p, PLAIN, tank, tank0]) == [(4, 3, 10), (4, 3, 10), (4, 3, 10), (3, 2, 10), (3, 0, 10)]


def test_several_links_stack_and_the_first_event_carries_them_and_the_baked_stats() -> None:
    line = ["iron_warden", "blade_dancer", "ember_adept", "moss_shaman", "mud_brute"]
    event = start(
        {"match_id": "m", "seed": 0, "players": [{"id": "a", "deck": line}, {"id": "b", "deck": line}]}
    )[0]
    side = event["players"][0]
    assert [x["id"] for x in side["links"]] == ["anchor", "classic", "control_net"]
    warden = CATALOG["iron_warden"]
    assert side["fighters"][0] == {
        "card_id": "iron_warden",
        "roles": ["tank"],
        "atk": warden.atk,
        "arm": warden.arm + 2,
        "hp": warden.hp + 1,
    }
