"""Autofill (seed 001: "Autofill can make a five — then you can swap by hand"): the legal five of a
collection that lights the most links, then has the highest sum of the stats it fights with (ATK + ARM +
HP, the links baked in), seated by the placement advice; the same collection always gives the same five.

Exact without trying every five: what a card brings to the links and to the bonuses depends only on its
*kind* (the link groups it falls in, carry or not, tank or not), so among cards of one kind a five takes
the ones of highest printed stats. Autofill tries every spread of five over the collection's kinds
(a few tens of thousands at most for the whole catalog, against 658,008 fives).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from .bots import seat
from .catalog import CATALOG, Card
from .constants import LINE_SIZE, Role
from .links import CONTROL, DAMAGEISH, ESCAPE, FRONTISH, NUKER, PUSHER, SUPPORTISH, _mask, active_links, bake

Kind = tuple[int, bool, bool]  # link groups (bits), carry, tank


def owned_cards(collection: Mapping[str, int] | Iterable[str]) -> list[str]:
    """The different catalog cards of a collection (card id -> copies, or ids), sorted."""
    if isinstance(collection, Mapping):
        return sorted(c for c, n in collection.items() if n > 0 and c in CATALOG)
    return sorted({c for c in collection if c in CATALOG})


def autofill(collection: Mapping[str, int] | Iterable[str]) -> tuple[str, ...]:
    """The five (ids, front first) of most links, then most stats, under the current rules; ties: the
    alphabetically first set of ids. Raises ValueError when the collection holds fewer than five
    different catalog cards."""
    owned = owned_cards(collection)
    if len(owned) < LINE_SIZE:
        raise ValueError(f"a line needs {LINE_SIZE} different cards, the collection has {len(owned)}")
    kinds = list(_kinds(CATALOG[c] for c in owned).items())
    # per kind: the printed stats of its best 0, 1, 2... cards
    prefix = [
        [sum(c.atk + c.arm + c.hp for c in group[:n]) for n in range(len(group) + 1)] for _, group in kinds
    ]
    best: tuple[int, int] | None = None
    chosen: list[Card] = []
    for spread in _spreads([len(group) for _, group in kinds], 0, LINE_SIZE):
        score = _score([(kinds[i][0], n) for i, n in spread], sum(prefix[i][n] for i, n in spread))
        if best is None or score >= best:
            cards = [c for i, n in spread for c in kinds[i][1][:n]]
            if best is None or score > best or _ids(cards) < _ids(chosen):
                best, chosen = score, cards
    return seat(chosen)


def score(cards: Sequence[Card]) -> tuple[int, int]:
    """(links lit, the sum of ATK + ARM + HP with them baked in) of a five: what autofill maximises."""
    links = active_links(cards)
    return len(links), sum(f.atk + f.arm + f.hp for f in bake(cards, links))


def _kinds(cards: Iterable[Card]) -> dict[Kind, list[Card]]:
    """Cards by kind, each kind's highest printed stats first (ties: by id); kinds in a fixed order."""
    found: dict[Kind, list[Card]] = {}
    for card in cards:
        kind = (_mask(card.words), Role.CARRY in card.roles, Role.TANK in card.roles)
        found.setdefault(kind, []).append(card)
    return {k: sorted(found[k], key=lambda c: (-(c.atk + c.arm + c.hp), c.id)) for k in sorted(found)}


def _spreads(sizes: Sequence[int], first: int, total: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every way to take `total` cards from kinds `first`.. on, at most `sizes[i]` of kind i: the
    (kind, how many) taken, kinds in order."""
    if total == 0:
        yield ()
        return
    for i in range(first, len(sizes)):
        for n in range(min(sizes[i], total), 0, -1):
            for rest in _spreads(sizes, i + 1, total - n):
                yield ((i, n), *rest)


def _score(taken: Sequence[tuple[Kind, int]], printed: int) -> tuple[int, int]:
    """`score` of the five of these kinds (kind, how many), from the kinds alone (the links of
    docs/line.md, rules version 2; no catalog tank has so little armour that push's -1 stops at 0)."""
    helpers = fronts = hitters = control = nukers = escapes = pushers = carries = tanks = 0
    for (mask, carry, tank), n in taken:
        helpers += n if mask & SUPPORTISH else 0
        fronts += n if mask & FRONTISH else 0
        hitters += n if mask & DAMAGEISH else 0
        control += n if mask & CONTROL else 0
        nukers += n if mask & NUKER else 0
        escapes += n if mask & ESCAPE else 0
        pushers += n if mask & PUSHER else 0
        carries += n if carry else 0
        tanks += n if tank else 0
    lit = [
        helpers > 0,  # anchor: everyone +1 ARM
        helpers > 0 and fronts > 0 and hitters > 0,  # classic: everyone +1 HP
        control >= 2,  # control_net: +1 ARM, and +1 HP from 3
        nukers >= 2,  # nuker_choir: everyone +1 ATK
        escapes >= 2,  # slippery: the escapes +1 ARM
        pushers >= 2,  # push: carries +1 ATK, tanks -1 ARM
    ]
    everyone = lit[0] + lit[1] + lit[2] + (control >= 3) + lit[3]
    bonus = LINE_SIZE * everyone + (escapes if lit[4] else 0) + (carries - tanks if lit[5] else 0)
    return sum(lit), printed + bonus


def _ids(cards: Sequence[Card]) -> list[str]:
    return sorted(c.id for c in cards)
