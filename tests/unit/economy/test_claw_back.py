"""A claw-back (``decide_debit``): never more than the wallet holds, never nothing, and folded like
a credit in reverse."""

from __future__ import annotations

import pytest

from services.economy.domain import BeyondBalance, InvalidAmount, WalletNotFound, wallet


def _wallet(coins: int = 300, dust: int = 50, free_packs: int = 1) -> wallet.Wallet:
    return wallet.Wallet(opened=True, coins=coins, dust=dust, free_packs=free_packs)


def test_a_claw_back_takes_what_it_names_and_the_fold_follows() -> None:
    (debited,) = wallet.decide_debit(
        _wallet(), wallet.Debit("claw_back:1", "exploit", coins=300, dust=20), player_id="p"
    )
    assert (debited.coins_after, debited.dust_after, debited.free_packs_after) == (0, 30, 1)
    after = wallet.evolve(_wallet(), debited)
    assert (after.coins, after.dust, after.free_packs) == (0, 30, 1)


@pytest.mark.parametrize(
    ("debit", "error"),
    [
        (wallet.Debit("claw_back:1", "x", coins=301), BeyondBalance),
        (wallet.Debit("claw_back:1", "x", free_packs=2), BeyondBalance),
        (wallet.Debit("claw_back:1", "x"), InvalidAmount),
        (wallet.Debit("claw_back:1", "x", coins=-5, dust=5), InvalidAmount),
    ],
)
def test_a_claw_back_beyond_the_balance_or_of_nothing_is_refused(debit: wallet.Debit, error: type) -> None:
    with pytest.raises(error):
        wallet.decide_debit(_wallet(), debit, player_id="p")


def test_no_claw_back_from_a_wallet_not_opened() -> None:
    with pytest.raises(WalletNotFound):
        wallet.decide_debit(None, wallet.Debit("claw_back:1", "x", coins=1), player_id="p")
