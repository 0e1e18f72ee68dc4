"""100,000 packs opened through the wallet's decision (the code path of POST /v1/packs, without HTTP
and storage): rarity rates against the exact rates derived from the odds, the guarantee and pity."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from services.economy.domain import odds
from services.economy.domain.packs import commitment
from services.economy.domain.values import PITY_PACKS, RARE_OR_BETTER, RARITIES
from services.economy.domain.wallet import (
    Credit,
    OpenPack,
    OpenWallet,
    Wallet,
    decide_credit,
    decide_open_pack,
    decide_open_wallet,
    evolve,
    fold,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

PACKS = 100_000


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with an even number of degrees of freedom (exact)."""
    assert df % 2 == 0
    term = total = 1.0
    for i in range(1, df // 2):
        term *= (x / 2) / i
        total += term
    return math.exp(-x / 2) * total


def chi_square(observed: Counter[str], expected: dict[str, float], n: int) -> float:
    return sum((observed[k] - n * p) ** 2 / (n * p) for k, p in expected.items())


def seed(i: int) -> str:
    return f"{i:064x}"


@pytest.fixture(scope="module")
def opened() -> list:
    """Every PackOpened of one wallet that opens PACKS packs, each with a fresh server seed."""
    wallet = fold(decide_open_wallet(None, OpenWallet("p", seed(0)), now=NOW))
    assert wallet is not None
    packs = []
    for i in range(PACKS):
        wallet = replace(wallet, coins=100, dust=0, collection={})  # keep the collection small: speed
        (event,) = decide_open_pack(
            wallet, OpenPack(seed(i), seed(i + 1), client_seed=f"c{i % 7}"), player_id="p"
        )
        wallet = evolve(wallet, event)
        packs.append(event)
    return packs


def test_the_chi_square_tail_is_the_known_one() -> None:
    assert chi_square_sf(0.0, 4) == 1.0
    assert abs(chi_square_sf(18.4668, 4) - 0.001) < 1e-5  # the 0.999 quantile for 4 degrees of freedom
    assert abs(chi_square_sf(13.8155, 2) - 0.001) < 1e-5


def test_rarity_rates_match_the_derived_rates(opened) -> None:
    rates = {r: float(p) for r, p in odds.expected_card_rates().items()}
    counts = Counter(c["rarity"] for e in opened for c in e.cards)
    stat = chi_square(counts, rates, 5 * PACKS)
    assert chi_square_sf(stat, len(RARITIES) - 1) > 0.001, (stat, counts)


def test_best_rarity_of_unforced_packs_matches_the_derived_distribution(opened) -> None:
    """Given its pity counter, each pack is an independent draw: a multinomial test proper."""
    unforced = [e for e in opened if e.pity_before < PITY_PACKS - 1]
    best = Counter(max((c["rarity"] for c in e.cards), key=RARITIES.index) for e in unforced)
    expected = {r: float(p) for r, p in odds.expected_best_rarity(False).items()}
    assert chi_square_sf(chi_square(best, expected, len(unforced)), 2) > 0.001, best


def test_the_rates_really_tell_a_wrong_distribution_apart(opened) -> None:
    """The published odds alone (ignoring guarantee and pity) are rejected: the test has power."""
    naive = {
        r: p / 100 for r, p in {"common": 50, "uncommon": 28, "rare": 14, "epic": 6, "legendary": 2}.items()
    }
    counts = Counter(c["rarity"] for e in opened for c in e.cards)
    assert chi_square_sf(chi_square(counts, naive, 5 * PACKS), 4) < 1e-6


def test_every_pack_has_a_rare_or_better(opened) -> None:
    assert all(any(c["rarity"] in RARE_OR_BETTER for c in e.cards) for e in opened)


def test_never_twenty_packs_in_a_row_without_a_legendary(opened) -> None:
    run = longest = 0
    for e in opened:
        run = 0 if any(c["rarity"] == "legendary" for c in e.cards) else run + 1
        longest = max(longest, run)
        assert e.pity_after == run
    assert longest == PITY_PACKS - 1  # reached (100,000 packs make it near certain) and never passed


def test_each_commitment_is_the_hash_of_the_seed_revealed_next(opened) -> None:
    for before, after in itertools.pairwise(opened):
        assert before.next_commitment == after.commitment == commitment(after.server_seed)


def test_a_wallet_opening_packs_ends_with_what_the_events_say() -> None:
    events = decide_open_wallet(None, OpenWallet("p", seed(1)), now=NOW)
    wallet: Wallet | None = fold(events)
    events += decide_credit(wallet, Credit("grant:x", "grant", coins=1000), player_id="p", now=NOW)
    wallet = fold(events)
    for i in range(1, 14):
        events += decide_open_pack(wallet, OpenPack(seed(i), seed(i + 1)), player_id="p")
        wallet = fold(events)
    assert wallet is not None and wallet.packs_opened == 13 and wallet.coins == 1400 - 1300
