"""A bot that picks a line from a collection: candidate fives, each seated by the placement advice of
docs/line.md, tried against a panel of random fives; the one that wins most is taken."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from .catalog import CATALOG, Card
from .constants import LINE_SIZE, Role
from .setup import fight

CANDIDATES = 24
PANEL = 8


def durability(card: Card) -> int:
    """How long a card holds the front: HP, with armour counted for the hits it softens."""
    return card.hp + 3 * card.arm


def seat(cards: Iterable[Card]) -> tuple[str, ...]:
    """Five cards in a row: the sturdiest non-carry in front (a tank if any), then the rest sturdiest
    first, carries never on the front while another card can stand there."""
    rest = sorted(cards, key=lambda c: (-durability(c), c.id))
    fronts = (
        [c for c in rest if Role.TANK in c.roles] or [c for c in rest if Role.CARRY not in c.roles] or rest
    )
    front = fronts[0]
    rest.remove(front)
    return (front.id, *(c.id for c in rest))


def pick_line(
    collection: Mapping[str, int] | Iterable[str], rng: random.Random, catalog: Mapping[str, Card] = CATALOG
) -> tuple[str, ...]:
    """A line of five different owned cards (a mapping card id -> copies, or ids). Raises ValueError when
    the collection holds fewer than five different catalog cards."""
    if isinstance(collection, Mapping):
        owned = sorted(c for c, n in collection.items() if n > 0 and c in catalog)
    else:
        owned = sorted({c for c in collection if c in catalog})
    if len(owned) < LINE_SIZE:
        raise ValueError(f"a line needs {LINE_SIZE} different cards, the collection has {len(owned)}")
    cards = [catalog[c] for c in owned]
    candidates = {seat(rng.sample(cards, LINE_SIZE)) for _ in range(CANDIDATES)}
    candidates.add(seat(sorted(cards, key=lambda c: (-_value(c), c.id))[:LINE_SIZE]))
    panel = [seat(rng.sample(cards, LINE_SIZE)) for _ in range(PANEL)]
    scored = sorted(candidates)
    wins = [_wins(line, panel) for line in scored]
    best = max(wins)
    return rng.choice([line for line, w in zip(scored, wins, strict=True) if w == best])


def _value(card: Card) -> int:
    return 3 * card.atk + 2 * card.arm + card.hp


def _wins(line: Sequence[str], panel: Sequence[Sequence[str]]) -> int:
    wins = 0
    for i, other in enumerate(panel):
        setup = {
            "match_id": "bot",
            "seed": i,
            "players": [{"id": "a", "deck": list(line)}, {"id": "b", "deck": list(other)}],
        }
        wins += fight(setup)[1].winner == "a"
    return wins
