"""The exact expected rarity rates of packs under the odds, the guarantee and the pity rule.

Per pack, given whether pity forces a legendary, the distribution of the five slots' rarities is
enumerated exactly (5^5 first rolls, then the guarantee's re-draw). Over many packs the pity
counter is a Markov chain on 0..19 (reset on a legendary, +1 otherwise, 19 always resets); its
stationary distribution weights the two per-pack distributions. Fractions throughout: exact.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from .values import ODDS_PERCENT, PACK_SIZE, PITY_PACKS, RARE_OR_BETTER, RARITIES

Rarities = tuple[str, ...]


def _slot_odds() -> dict[str, Fraction]:
    return {r: Fraction(ODDS_PERCENT[r], 100) for r in RARITIES}


def _guarantee_odds() -> dict[str, Fraction]:
    total = sum(ODDS_PERCENT[r] for r in RARE_OR_BETTER)
    return {r: Fraction(ODDS_PERCENT[r], total) for r in RARE_OR_BETTER}


def pack_distribution(forced_legendary: bool) -> dict[Rarities, Fraction]:
    """Probability of each tuple of slot rarities, after the guarantee (and pity when forced)."""
    odds: dict[str, Fraction] = _slot_odds()
    result: dict[Rarities, Fraction] = {}
    for rolled in itertools.product(RARITIES, repeat=PACK_SIZE):
        p = Fraction(1)
        for r in rolled:
            p *= odds[r]
        outcomes = [(rolled, Fraction(1))]
        if not any(r in RARE_OR_BETTER for r in rolled):
            outcomes = [((*rolled[:-1], g), q) for g, q in _guarantee_odds().items()]
        for slots, q in outcomes:
            if forced_legendary and "legendary" not in slots:
                slots = (*slots[:-1], "legendary")
            result[slots] = result.get(slots, Fraction(0)) + p * q
    return result


def legendary_chance(dist: dict[Rarities, Fraction]) -> Fraction:
    return sum((p for slots, p in dist.items() if "legendary" in slots), Fraction(0))


def pity_stationary() -> list[Fraction]:
    """Long-run share of packs opened with pity counter 0..19."""
    keep = 1 - legendary_chance(pack_distribution(False))
    weights = [keep**k for k in range(PITY_PACKS)]  # reaching counter k needs k packs in a row without
    total = sum(weights, Fraction(0))
    return [w / total for w in weights]


def expected_card_rates() -> dict[str, Fraction]:
    """Long-run share of each rarity among all opened cards."""
    share = pity_stationary()
    rates = dict.fromkeys(RARITIES, Fraction(0))
    for forced, weight in ((False, sum(share[:-1], Fraction(0))), (True, share[-1])):
        for slots, p in pack_distribution(forced).items():
            for r in slots:
                rates[r] += weight * p / PACK_SIZE
    return rates


def expected_best_rarity(forced_legendary: bool) -> dict[str, Fraction]:
    """Distribution of a pack's best rarity (rare, epic or legendary: the guarantee excludes less)."""
    best = dict.fromkeys(RARE_OR_BETTER, Fraction(0))
    for slots, p in pack_distribution(forced_legendary).items():
        best[max(slots, key=RARITIES.index)] += p
    return best
