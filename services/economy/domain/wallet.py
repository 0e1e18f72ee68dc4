"""The wallet of one player (stream ``wallet-<player>``): coins, dust, held free packs, the pity
counter, the committed seed of the next pack and the card collection.

``decide_*`` functions take the current ``Wallet`` (None before its first event) and a command and
return the events, or raise an ``EconomyError``; ``evolve`` applies one event; ``fold`` many.
Credits may arrive before ``WalletOpened`` (events of other services come in any order across
streams): they are kept, and the account's opening adds the starter coins and cards to them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import MappingProxyType

from services.economy.events import (
    CardCrafted,
    CardDisenchanted,
    Event,
    PackOpened,
    ShardsCredited,
    WalletCredited,
    WalletDebited,
    WalletOpened,
)

from .errors import (
    AlreadyOpened,
    BeyondBalance,
    CardNotOwned,
    CraftBeyondLimit,
    InsufficientCoins,
    InsufficientDust,
    InvalidAmount,
    UnknownCard,
    WalletNotFound,
)
from .packs import commitment, open_pack
from .values import (
    CRAFT_COST,
    DUST_VALUE,
    PACK_PRICE,
    STARTER_CARDS,
    STARTING_COINS,
    copy_limit,
    rarity_of,
)


@dataclass(frozen=True)
class Wallet:
    commitment: str = ""  # of the next pack's server seed; empty until the wallet is opened
    opened: bool = False
    coins: int = 0
    dust: int = 0
    free_packs: int = 0
    pity: int = 0  # packs opened since the last legendary
    packs_opened: int = 0
    shards: int = 0  # the line's currency
    collection: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def owned(self, card_id: str) -> int:
        return self.collection.get(card_id, 0)


# -- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenWallet:
    player_id: str
    first_seed: str  # the secret server seed of pack 1
    registered_at: datetime | None = None  # when the account was made (earns the starter coins)


@dataclass(frozen=True)
class Credit:
    source: str
    reason: str
    coins: int = 0
    dust: int = 0
    free_packs: int = 0
    note: str | None = None
    earned_at: datetime | None = None  # the earning fact's time; None: earned as recorded (a grant)


@dataclass(frozen=True)
class ShardCredit:
    """Shards for ``source``, earned at ``earned_at`` (ISO 8601, UTC)."""

    source: str
    reason: str
    shards: int
    earned_at: str
    note: str | None = None


@dataclass(frozen=True)
class OpenPack:
    server_seed: str  # the seed committed for this pack (kept secret until now)
    next_seed: str  # the seed of the pack after it
    client_seed: str = ""


@dataclass(frozen=True)
class Craft:
    card_id: str


@dataclass(frozen=True)
class Disenchant:
    card_id: str


# -- decisions ---------------------------------------------------------------------------------


def _existing(wallet: Wallet | None) -> Wallet:
    if wallet is None or not wallet.opened:
        raise WalletNotFound("this player has no wallet yet")
    return wallet


def decide_open_wallet(wallet: Wallet | None, cmd: OpenWallet, *, now: datetime) -> list[Event]:
    """A new account's wallet, its 400 coins (earned at the registration, else ``now``) and the
    starter collection. Raises ``AlreadyOpened``."""
    if wallet is not None and wallet.opened:
        raise AlreadyOpened(f"player {cmd.player_id} has a wallet already")
    w = wallet or Wallet()
    opened = WalletOpened(cmd.player_id, commitment(cmd.first_seed), dict(STARTER_CARDS))
    source = f"starter:{cmd.player_id}"
    credit = WalletCredited(
        source,
        "starter",
        STARTING_COINS,
        0,
        0,
        w.coins + STARTING_COINS,
        w.dust,
        w.free_packs,
        player_id=cmd.player_id,
        earned_at=_utc_iso(cmd.registered_at or now),
    )
    return [opened, credit]


def decide_credit(wallet: Wallet | None, cmd: Credit, *, player_id: str, now: datetime) -> list[Event]:
    """Pay ``cmd`` to ``player_id`` (non-negative amounts, at least one positive), also to a wallet
    not opened yet; earned at ``cmd.earned_at``, else ``now``. Raises ``InvalidAmount``. Paying a
    source once only is the store's job (the event id is the source's)."""
    w = wallet or Wallet()
    amounts = (cmd.coins, cmd.dust, cmd.free_packs)
    if any(a < 0 for a in amounts) or not any(amounts):
        raise InvalidAmount("a credit pays a positive amount and nothing negative")
    return [
        WalletCredited(
            cmd.source,
            cmd.reason,
            cmd.coins,
            cmd.dust,
            cmd.free_packs,
            w.coins + cmd.coins,
            w.dust + cmd.dust,
            w.free_packs + cmd.free_packs,
            cmd.note,
            player_id=player_id,
            earned_at=_utc_iso(cmd.earned_at or now),
        )
    ]


def decide_shard_credit(wallet: Wallet | None, player_id: str, cmd: ShardCredit) -> list[Event]:
    """Pay ``cmd``'s shards (positive), also to a wallet not opened yet. Raises ``InvalidAmount``."""
    if cmd.shards <= 0:
        raise InvalidAmount("a shard credit pays a positive amount")
    after = (wallet or Wallet()).shards + cmd.shards
    return [ShardsCredited(player_id, cmd.source, cmd.reason, cmd.shards, after, cmd.earned_at, cmd.note)]


@dataclass(frozen=True)
class Debit:
    """An operator's claw-back of ``source``: what to take, and why (``note``)."""

    source: str
    note: str
    coins: int = 0
    dust: int = 0
    free_packs: int = 0


def decide_debit(wallet: Wallet | None, cmd: Debit, *, player_id: str) -> list[Event]:
    """Take ``cmd``'s amounts back from an opened wallet (non-negative, at least one positive, none
    above the balance). Raises ``WalletNotFound``, ``InvalidAmount``, ``BeyondBalance``."""
    w = _existing(wallet)
    amounts = (cmd.coins, cmd.dust, cmd.free_packs)
    if any(a < 0 for a in amounts) or not any(amounts):
        raise InvalidAmount("a claw-back takes a positive amount and nothing negative")
    held = {
        "coins": (cmd.coins, w.coins),
        "dust": (cmd.dust, w.dust),
        "free_packs": (cmd.free_packs, w.free_packs),
    }
    beyond = {
        name: f"takes {want}, the wallet holds {has}" for name, (want, has) in held.items() if want > has
    }
    if beyond:
        raise BeyondBalance("; ".join(f"{k} {v}" for k, v in beyond.items()), {"balance": beyond})
    return [
        WalletDebited(
            player_id,
            cmd.source,
            "claw_back",
            cmd.coins,
            cmd.dust,
            cmd.free_packs,
            w.coins - cmd.coins,
            w.dust - cmd.dust,
            w.free_packs - cmd.free_packs,
            cmd.note,
        )
    ]


def _utc_iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _pack_cards(w: Wallet, cards: Iterable[str]) -> tuple[list[dict[str, object]], int]:
    """Each pulled card with the dust it became (a copy beyond the deck limit), and the dust total."""
    owned, result, dust = dict(w.collection), [], 0
    for card_id in cards:
        rarity = rarity_of(card_id) or ""
        extra = owned.get(card_id, 0) >= copy_limit(rarity)
        value = DUST_VALUE[rarity] if extra else 0
        owned[card_id] = owned.get(card_id, 0) + (0 if extra else 1)
        result.append({"card_id": card_id, "rarity": rarity, "dust": value})
        dust += value
    return result, dust


def decide_open_pack(wallet: Wallet | None, cmd: OpenPack, *, player_id: str) -> list[Event]:
    """Open the next pack with a held free pack, else 100 coins. Raises ``WalletNotFound``,
    ``InsufficientCoins``; ``ValueError`` when ``cmd.server_seed`` is not the committed one."""
    w = _existing(wallet)
    if commitment(cmd.server_seed) != w.commitment:
        raise ValueError("the server seed does not match the wallet's commitment")
    free = w.free_packs > 0
    if not free and w.coins < PACK_PRICE:
        raise InsufficientCoins(f"a pack costs {PACK_PRICE} coins; you have {w.coins}")
    number = w.packs_opened + 1
    cards, dust = _pack_cards(w, open_pack(cmd.server_seed, cmd.client_seed, number, w.pity))
    legendary = any(c["rarity"] == "legendary" for c in cards)
    spent = 0 if free else PACK_PRICE
    return [
        PackOpened(
            player_id=player_id,
            pack_number=number,
            paid_with="free_pack" if free else "coins",
            coins_spent=spent,
            server_seed=cmd.server_seed,
            commitment=w.commitment,
            client_seed=cmd.client_seed,
            pity_before=w.pity,
            pity_after=0 if legendary else w.pity + 1,
            cards=cards,
            next_commitment=commitment(cmd.next_seed),
            coins_after=w.coins - spent,
            dust_after=w.dust + dust,
            free_packs_after=w.free_packs - (1 if free else 0),
        )
    ]


def _known_rarity(card_id: str) -> str:
    rarity = rarity_of(card_id)
    if rarity is None:
        raise UnknownCard(f"no card {card_id!r} in the catalog", {"card_id": card_id})
    return rarity


def decide_craft(wallet: Wallet | None, cmd: Craft, *, player_id: str) -> list[Event]:
    """Craft one copy for its rarity's dust cost. Raises ``WalletNotFound``, ``UnknownCard``,
    ``CraftBeyondLimit`` (already as many copies as a deck may hold), ``InsufficientDust``."""
    w = _existing(wallet)
    rarity = _known_rarity(cmd.card_id)
    if w.owned(cmd.card_id) >= copy_limit(rarity):
        raise CraftBeyondLimit(
            f"you own {w.owned(cmd.card_id)} of {cmd.card_id}, the most a deck may hold",
            {"card_id": cmd.card_id},
        )
    cost = CRAFT_COST[rarity]
    if w.dust < cost:
        raise InsufficientDust(f"crafting a {rarity} costs {cost} dust; you have {w.dust}")
    return [CardCrafted(cmd.card_id, rarity, cost, w.dust - cost, player_id=player_id)]


def decide_disenchant(wallet: Wallet | None, cmd: Disenchant, *, player_id: str) -> list[Event]:
    """Turn one owned copy into its dust value. Raises ``WalletNotFound``, ``UnknownCard``,
    ``CardNotOwned``."""
    w = _existing(wallet)
    rarity = _known_rarity(cmd.card_id)
    if w.owned(cmd.card_id) < 1:
        raise CardNotOwned(f"you own no copy of {cmd.card_id}", {"card_id": cmd.card_id})
    value = DUST_VALUE[rarity]
    return [CardDisenchanted(cmd.card_id, rarity, value, w.dust + value, player_id=player_id)]


# -- evolution ---------------------------------------------------------------------------------


def _with_cards(w: Wallet, changes: Mapping[str, int]) -> Mapping[str, int]:
    owned = dict(w.collection)
    for card_id, delta in changes.items():
        owned[card_id] = owned.get(card_id, 0) + delta
        if owned[card_id] <= 0:
            del owned[card_id]
    return MappingProxyType(owned)


def evolve(wallet: Wallet | None, event: Event) -> Wallet:
    """The wallet after ``event``."""
    w = wallet or Wallet()
    if isinstance(event, WalletOpened):
        return replace(w, commitment=event.commitment, opened=True, collection=_with_cards(w, event.cards))
    if isinstance(event, WalletCredited | WalletDebited):
        return replace(w, coins=event.coins_after, dust=event.dust_after, free_packs=event.free_packs_after)
    if isinstance(event, PackOpened):
        pulled: dict[str, int] = {}
        for c in event.cards:
            if not c["dust"]:
                pulled[c["card_id"]] = pulled.get(c["card_id"], 0) + 1
        return replace(
            w,
            coins=event.coins_after,
            dust=event.dust_after,
            free_packs=event.free_packs_after,
            pity=event.pity_after,
            packs_opened=event.pack_number,
            commitment=event.next_commitment,
            collection=_with_cards(w, pulled),
        )
    if isinstance(event, ShardsCredited):
        return replace(w, shards=event.shards_after)
    if isinstance(event, CardCrafted):
        return replace(w, dust=event.dust_after, collection=_with_cards(w, {event.card_id: 1}))
    if isinstance(event, CardDisenchanted):
        return replace(w, dust=event.dust_after, collection=_with_cards(w, {event.card_id: -1}))
    return w


def fold(events: Iterable[Event]) -> Wallet | None:
    wallet: Wallet | None = None
    for event in events:
        wallet = evolve(wallet, event)
    return wallet
