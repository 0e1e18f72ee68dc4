"""Properties of the wallet over any sequence of commands: balances never negative, the events'
movements sum to the balances, no card beyond the deck limit, and replay gives the same state."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.economy.domain import EconomyError
from services.economy.domain.values import CARDS_BY_RARITY, copy_limit, rarity_of
from services.economy.domain.wallet import (
    Craft,
    Credit,
    Disenchant,
    OpenPack,
    OpenWallet,
    Wallet,
    decide_craft,
    decide_credit,
    decide_disenchant,
    decide_open_pack,
    decide_open_wallet,
    evolve,
    fold,
)
from services.economy.events import (
    CardCrafted,
    CardDisenchanted,
    PackOpened,
    WalletCredited,
)
from services.economy.upcasting import STORED

CARDS = [c for ids in CARDS_BY_RARITY.values() for c in ids[:3]] + ["wolf_pup", "squire"]
commands = st.lists(
    st.one_of(
        st.tuples(st.just("credit"), st.integers(0, 700), st.integers(0, 2000), st.integers(0, 1)),
        st.tuples(st.just("pack"), st.text("abc", max_size=3)),
        st.tuples(st.just("craft"), st.sampled_from(CARDS)),
        st.tuples(st.just("disenchant"), st.sampled_from(CARDS)),
    ),
    max_size=40,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def seed(n: int) -> str:
    return f"{n:064x}"


def run(steps: list[tuple[Any, ...]]) -> tuple[Wallet, list[Any]]:
    events: list[Any] = decide_open_wallet(None, OpenWallet("p", seed(0)), now=NOW)
    wallet, secret = fold(events), seed(0)
    assert wallet is not None
    for i, step in enumerate(steps):
        try:
            if step[0] == "credit":
                new = decide_credit(
                    wallet, Credit(f"s{i}", "grant", step[1], step[2], step[3]), player_id="p", now=NOW
                )
            elif step[0] == "pack":
                new = decide_open_pack(wallet, OpenPack(secret, seed(i + 1), step[1]), player_id="p")
                secret = seed(i + 1)
            elif step[0] == "craft":
                new = decide_craft(wallet, Craft(step[1]), player_id="p")
            else:
                new = decide_disenchant(wallet, Disenchant(step[1]), player_id="p")
        except EconomyError:
            continue
        for e in new:
            wallet = evolve(wallet, e)
        events += new
    return wallet, events


@settings(max_examples=150, deadline=None)
@given(commands)
def test_invariants_hold_whatever_the_commands(steps: list[tuple[Any, ...]]) -> None:
    wallet, events = run(steps)
    assert wallet.coins >= 0 and wallet.dust >= 0 and wallet.free_packs >= 0
    coins = dust = 0
    for e in events:
        if isinstance(e, WalletCredited):
            coins, dust = coins + e.coins, dust + e.dust
        elif isinstance(e, PackOpened):
            coins, dust = coins - e.coins_spent, dust + sum(c["dust"] for c in e.cards)
        elif isinstance(e, CardCrafted):
            dust -= e.dust_spent
        elif isinstance(e, CardDisenchanted):
            dust += e.dust_gained
    assert (coins, dust) == (wallet.coins, wallet.dust)
    assert all(0 < n <= copy_limit(rarity_of(c) or "") for c, n in wallet.collection.items())
    replayed = fold(STORED.event_from(e.TYPE, e.data()) for e in events)  # as stored: JSON data, then read
    assert replayed == wallet
