"""Every event the line emits is exactly one of its typed declarations (``libs.games.line.facts``), and what
anyone sees of it is exactly its public form; the match topics declare them, so the generated schemas
and the relay's check know the line's events."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games.line import CATALOG, start, visible_event
from libs.games.line.facts import FACTS, PUBLIC
from libs.games.line.game import GAME
from libs.kit.registry import definition
from libs.kit.schemas import catalog_check, problems
from tests.unit.test_event_schemas import event

BY_TYPE = {f.TYPE: f for f in FACTS}
lines = st.lists(st.sampled_from(sorted(CATALOG)), min_size=5, max_size=5, unique=True)


def fight(a: list[str], b: list[str], seed: int) -> list[dict[str, Any]]:
    return start({"match_id": "m", "seed": seed, "players": [{"id": "a", "deck": a}, {"id": "b", "deck": b}]})


def _data(e: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in e.items() if k != "type"}


@settings(max_examples=60, deadline=None)
@given(lines, lines, st.integers(min_value=0, max_value=2**63))
def test_every_emitted_event_is_exactly_its_declared_type_and_its_public_form(
    a: list[str], b: list[str], seed: int
) -> None:
    for e in fight(a, b, seed):
        assert problems(BY_TYPE[e["type"]], _data(e), exact=True) == []
        for viewer in ("a", None):
            assert problems(PUBLIC[e["type"]], _data(visible_event(e, viewer)), exact=True) == []


def test_every_declared_type_is_emitted_and_the_game_declares_them() -> None:
    emitted = {
        e["type"] for seed in range(30) for e in fight(sorted(CATALOG)[:5], sorted(CATALOG)[-5:], seed)
    }
    emitted |= {e["type"] for e in fight(list(GAME.starter_deck), list(GAME.starter_deck), 1)}
    assert set(BY_TYPE) == emitted
    assert GAME.events == FACTS and set(GAME.public_events) == set(PUBLIC.values())


def test_the_match_topics_check_the_line_s_events_and_keep_the_seed_off_the_live_one() -> None:
    check = catalog_check(definition("match").events)
    opening, hit = (
        next(e for e in fight(*[list(GAME.starter_deck)] * 2, 7) if e["type"] == t)
        for t in ("FightStarted", "CardHit")
    )
    assert check("arcana.match.records", event("FightStarted", _data(opening))) == []
    assert check("arcana.match.events", event("FightStarted", _data(visible_event(opening)))) == []
    assert check("arcana.match.events", event("CardHit", _data(hit), version=2)) == []
    assert check("arcana.match.events", event("CardHit", {**_data(hit), "damage": "4"}, version=2)) == [
        "CardHit: 'damage' is not int: '4'"
    ]
