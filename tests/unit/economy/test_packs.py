"""The pure pack function: deterministic, re-derivable, guarantee, pity, dust for extra copies."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime

import pytest

from services.economy.domain import (
    AlreadyOpened,
    CardNotOwned,
    CraftBeyondLimit,
    InsufficientCoins,
    InsufficientDust,
    UnknownCard,
    WalletNotFound,
)
from services.economy.domain.packs import commitment, open_pack, pack_rarities
from services.economy.domain.values import CARDS_BY_RARITY, DUST_VALUE
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
    fold,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _independent_rederivation(server: str, client: str, number: int, pity: int) -> list[str]:
    """The README's algorithm written again from its text, sharing no code with the service."""

    def u(slot: int, purpose: str, n: int) -> int:
        mac = hmac.new(server.encode(), f"{client}:{number}:{slot}:{purpose}".encode(), hashlib.sha256)
        return int.from_bytes(mac.digest()[:8], "big") % n

    bands = [("common", 50), ("uncommon", 78), ("rare", 92), ("epic", 98), ("legendary", 100)]
    rarities = [next(r for r, b in bands if u(s, "rarity", 100) < b) for s in range(5)]
    if not set(rarities) & {"rare", "epic", "legendary"}:
        g = u(4, "guarantee", 22)
        rarities[4] = "rare" if g < 14 else "epic" if g < 20 else "legendary"
    if pity >= 19 and "legendary" not in rarities:
        rarities[4] = "legendary"
    return [sorted(CARDS_BY_RARITY[r])[u(s, "card", len(CARDS_BY_RARITY[r]))] for s, r in enumerate(rarities)]


@pytest.mark.parametrize("pity", [0, 7, 19])
def test_a_pack_rederived_from_the_revealed_seeds_is_the_same(pity: int) -> None:
    for i in range(300):
        server, client = f"{i:064x}", f"client-{i}"
        cards = open_pack(server, client, i + 1, pity)
        assert cards == open_pack(server, client, i + 1, pity)
        assert cards == _independent_rederivation(server, client, i + 1, pity)


def test_the_client_seed_and_the_pack_number_change_the_cards() -> None:
    server = "ab" * 32
    base = [open_pack(server, "x", n, 0) for n in range(1, 40)]
    other_client = [open_pack(server, "y", n, 0) for n in range(1, 40)]
    assert base != other_client and len({tuple(p) for p in base}) > 30


def test_pity_forces_a_legendary_in_the_twentieth_pack_only() -> None:
    seeds = [f"{i:064x}" for i in range(2000)]
    assert all("legendary" in pack_rarities(s, "", 1, 19) for s in seeds)
    assert not all("legendary" in pack_rarities(s, "", 1, 18) for s in seeds)


def test_the_commitment_is_sha256_of_the_seed() -> None:
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def _wallet(coins: int = 0, dust: int = 0, cards: dict[str, int] | None = None) -> Wallet:
    events = decide_open_wallet(None, OpenWallet("p", "00" * 32), now=NOW)
    wallet = fold(events)
    assert wallet is not None
    return Wallet(wallet.commitment, True, coins=coins, dust=dust, collection=cards or {})


def test_a_pack_costs_100_coins_and_is_refused_below() -> None:
    with pytest.raises(InsufficientCoins):
        decide_open_pack(_wallet(coins=99), OpenPack("00" * 32, "11" * 32), player_id="p")
    (event,) = decide_open_pack(_wallet(coins=100), OpenPack("00" * 32, "11" * 32), player_id="p")
    assert (event.coins_after, event.paid_with, event.pity_before) == (0, "coins", 0)


def test_a_held_free_pack_opens_without_coins() -> None:
    w = _wallet(coins=0)
    (credit,) = decide_credit(
        w, Credit("reward:streak:p:2026-01-07", "streak", free_packs=1), player_id="p", now=NOW
    )
    w = fold([*decide_open_wallet(None, OpenWallet("p", "00" * 32), now=NOW), credit])
    (event,) = decide_open_pack(w, OpenPack("00" * 32, "11" * 32), player_id="p")
    assert (event.paid_with, event.coins_spent, event.free_packs_after) == ("free_pack", 0, 0)


def test_a_wrong_server_seed_is_refused() -> None:
    with pytest.raises(ValueError):
        decide_open_pack(_wallet(coins=100), OpenPack("ff" * 32, "11" * 32), player_id="p")


def test_copies_beyond_the_deck_limit_arrive_as_dust() -> None:
    cards = open_pack("00" * 32, "", 1, 0)
    owned = {c: 2 for c in cards}  # every pulled card already at (or over) its limit
    (event,) = decide_open_pack(
        _wallet(coins=100, cards=owned), OpenPack("00" * 32, "11" * 32), player_id="p"
    )
    assert [c["dust"] for c in event.cards] == [DUST_VALUE[c["rarity"]] for c in event.cards]
    assert event.dust_after == sum(DUST_VALUE[c["rarity"]] for c in event.cards)


def test_craft_costs_dust_and_stops_at_the_deck_limit() -> None:
    legendary = CARDS_BY_RARITY["legendary"][0]
    with pytest.raises(InsufficientDust):
        decide_craft(_wallet(dust=1599), Craft(legendary), player_id="p")
    (event,) = decide_craft(_wallet(dust=1600), Craft(legendary), player_id="p")
    assert event.dust_after == 0
    with pytest.raises(CraftBeyondLimit):
        decide_craft(_wallet(dust=5000, cards={legendary: 1}), Craft(legendary), player_id="p")
    with pytest.raises(UnknownCard):
        decide_craft(_wallet(dust=5000), Craft("no_such_card"), player_id="p")


def test_disenchant_pays_the_dust_value_of_an_owned_card() -> None:
    epic = CARDS_BY_RARITY["epic"][0]
    with pytest.raises(CardNotOwned):
        decide_disenchant(_wallet(), Disenchant(epic), player_id="p")
    (event,) = decide_disenchant(_wallet(dust=10, cards={epic: 1}), Disenchant(epic), player_id="p")
    assert (event.dust_gained, event.dust_after) == (150, 160)


def test_a_credit_before_the_account_opening_is_kept_and_the_starter_adds_to_it() -> None:
    early = decide_credit(None, Credit("match:m:p", "match", coins=60), player_id="p", now=NOW)
    with pytest.raises(WalletNotFound):
        decide_open_pack(fold(early), OpenPack("00" * 32, "11" * 32), player_id="p")
    events = early + decide_open_wallet(fold(early), OpenWallet("p", "00" * 32), now=NOW)
    wallet = fold(events)
    assert wallet is not None and wallet.opened and wallet.coins == 460
    with pytest.raises(AlreadyOpened):
        decide_open_wallet(wallet, OpenWallet("p", "22" * 32), now=NOW)
