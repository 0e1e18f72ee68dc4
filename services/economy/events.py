"""The economy's events, declared once: immutable past-tense facts, typed and versioned
(``libs.kit.events``), the domain's decisions and what ``arcana.economy.events`` carries.

Every one of them is stored in the economy's event store and published on
``arcana.economy.events`` (``CATALOG``; docs/events.md), the deck events without their cards
(``PUBLISHED_FORMS``); ``ActiveDeckChanged`` goes with its cards to ``arcana.economy.decks`` too
(``DECKS``, the match service's alone; ``publication.py``). ``ActiveDeckChanged``, which other
services consume, is declared in ``libs.contracts.economy``. Wallet stream ``wallet-<player>``:
``WalletOpened``, ``WalletCredited``, ``PackOpened``, ``CardCrafted``, ``CardDisenchanted``,
``ShardsCredited`` (the line's currency). Decks stream ``decks-<player>``: ``DeckSaved``,
``DeckDeleted``, ``DeckActivated``, ``ActiveDeckChanged`` (the active deck with its legality, which
matchmaking and match keep). The line's stream ``line-<player>``: ``LineWelcomeClaimed``,
``LineDeckSaved``, ``LineDeckDeleted`` and ``ActiveDeckChanged`` with ``game="line"`` (an
activation, or the active line edited), ``TournamentEntryMade`` (an entry of the game's tournament;
its cards only on ``arcana.economy.decks``) and ``TournamentEntryClosed`` (its place paid). Every
random outcome (a pack's cards, the revealed seed) is
in the event: replay never draws again. No event holds a seed that is still secret: the next
pack's seed appears only as its commitment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.audit import OperatorActed
from libs.contracts.economy import DECKS_TOPIC, ActiveDeckChangedInFull
from libs.contracts.economy import ActiveDeckChanged as PublishedActiveDeckChanged
from libs.contracts.tournament import TournamentEntryClosed, TournamentEntryMadeInFull
from libs.contracts.tournament import TournamentEntryMade as PublishedTournamentEntryMade
from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.economy.events"
ActiveDeckChanged = ActiveDeckChangedInFull  # as stored: with the deck's cards
TournamentEntryMade = TournamentEntryMadeInFull  # as stored: with the entry's cards
_PLAYER = "the player's id, as in the stream's name (from version 2; read into version 1 events)"
_SINCE_V2 = 2  # the version that put the player (and a credit's earning time) in the data

Event = IntegrationEvent


@integration_event("WalletOpened", version=1)
@dataclass(frozen=True)
class WalletOpened(IntegrationEvent):
    """A new account's wallet and starter collection (its 400 coins follow as a credit)."""

    player_id: str = field(metadata={"doc": "the player's id"})
    commitment: str = field(metadata={"doc": "SHA-256 (hex) of the server seed of the player's first pack"})
    cards: dict[str, int] = field(metadata={"doc": "the starter collection: card id -> copies"})


@integration_event("WalletCredited", version=2)
@dataclass(frozen=True)
class WalletCredited(IntegrationEvent):
    """Coins, dust and/or free packs paid once for a source (the event id derives from it)."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    source: str = field(
        metadata={
            "doc": "unique per player: `starter:<player>`, `login:<player>:<day>`, `match:<match>:<player>`, "
            "`reward:<reward_id>`, `grant:<id>`, `refund:<id>`"
        }
    )
    reason: str = field(
        metadata={"doc": "`starter`, `daily_login`, `match`, `quest`, `streak`, `grant` or `refund`"}
    )
    coins: int = field(metadata={"doc": "coins paid (>= 0)"})
    dust: int = field(metadata={"doc": "dust paid (>= 0)"})
    free_packs: int = field(metadata={"doc": "free packs paid (>= 0), opened later without coins"})
    coins_after: int = field(metadata={"doc": "the coin balance after it"})
    dust_after: int = field(metadata={"doc": "the dust balance after it"})
    free_packs_after: int = field(metadata={"doc": "free packs held after it"})
    note: str | None = field(
        default=None, metadata={"doc": "the match id, reward source or an operator's reason"}
    )
    earned_at: str = field(
        kw_only=True,
        metadata={
            "doc": "when it was earned (ISO 8601, UTC): the time of the fact that earned it (the "
            "registration, log-in, `MatchEnded` or `RewardGranted`), or of the grant; the envelope's "
            "`occurred_at` is when it was recorded (from version 2; a version 1 credit reads its "
            "`occurred_at`)",
            "since": _SINCE_V2,
        },
    )


@integration_event("PackOpened", version=2)
@dataclass(frozen=True)
class PackOpened(IntegrationEvent):
    """One opened pack, re-derivable by anyone from its seeds (services/economy/README.md)."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    pack_number: int = field(metadata={"doc": "1-based count of the player's packs"})
    paid_with: str = field(metadata={"doc": "`coins` or `free_pack`"})
    coins_spent: int = field(metadata={"doc": "100, or 0 for a free pack"})
    server_seed: str = field(metadata={"doc": "the revealed server seed (64 hex characters)"})
    commitment: str = field(metadata={"doc": "SHA-256 of `server_seed`, shown before the opening"})
    client_seed: str = field(metadata={"doc": "the player's seed (may be empty)"})
    pity_before: int = field(metadata={"doc": "packs since the last legendary, before this one"})
    pity_after: int = field(metadata={"doc": "the same after it (0 when it held a legendary)"})
    cards: list[dict[str, Any]] = field(
        metadata={"doc": "five `{card_id, rarity, dust}`; `dust` > 0: a copy beyond the deck limit, as dust"}
    )
    next_commitment: str = field(metadata={"doc": "SHA-256 of the next pack's server seed"})
    coins_after: int = field(metadata={"doc": "coins after it"})
    dust_after: int = field(metadata={"doc": "dust after it"})
    free_packs_after: int = field(metadata={"doc": "free packs held after it"})


@integration_event("CardCrafted", version=2)
@dataclass(frozen=True)
class CardCrafted(IntegrationEvent):
    """One copy crafted from dust."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    card_id: str = field(metadata={"doc": "the card"})
    rarity: str = field(metadata={"doc": "its rarity"})
    dust_spent: int = field(metadata={"doc": "20 / 80 / 200 / 600 / 1600 by rarity"})
    dust_after: int = field(metadata={"doc": "dust after it"})


@integration_event("CardDisenchanted", version=2)
@dataclass(frozen=True)
class CardDisenchanted(IntegrationEvent):
    """One owned copy turned into dust."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    card_id: str = field(metadata={"doc": "the card"})
    rarity: str = field(metadata={"doc": "its rarity"})
    dust_gained: int = field(metadata={"doc": "5 / 20 / 50 / 150 / 400 by rarity"})
    dust_after: int = field(metadata={"doc": "dust after it"})


@integration_event("DeckSaved", version=2)
@dataclass(frozen=True)
class DeckSaved(IntegrationEvent):
    """A deck created or replaced (it may be incomplete)."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    deck_id: str = field(metadata={"doc": "the deck id (UUID)"})
    name: str = field(metadata={"doc": "its name"})
    cards: list[str] = field(metadata={"doc": "its card ids (at most 20)"})
    created: bool = field(metadata={"doc": "a new deck (else a replacement)"})


@integration_event("DeckDeleted", version=2)
@dataclass(frozen=True)
class DeckDeleted(IntegrationEvent):
    """A deck removed (never the active one)."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    deck_id: str = field(metadata={"doc": "the deck id"})


@integration_event("DeckActivated", version=2)
@dataclass(frozen=True)
class DeckActivated(IntegrationEvent):
    """A legal deck became the active one."""

    player_id: str = field(kw_only=True, metadata={"doc": _PLAYER, "since": _SINCE_V2})
    deck_id: str = field(metadata={"doc": "the deck id"})


@integration_event("ShardsCredited", version=1)
@dataclass(frozen=True)
class ShardsCredited(IntegrationEvent):
    """Shards (the line's currency) paid once for a source (the event id derives from it)."""

    player_id: str = field(metadata={"doc": "the player paid"})
    source: str = field(metadata={"doc": "unique per player: `match:<match>:<player>`"})
    reason: str = field(metadata={"doc": "`match`"})
    shards: int = field(metadata={"doc": "shards paid (> 0)"})
    shards_after: int = field(metadata={"doc": "the shard balance after it"})
    earned_at: str = field(metadata={"doc": "when the player earned it (ISO 8601, UTC): the match's end"})
    note: str | None = field(default=None, metadata={"doc": "the match id"})


@integration_event("LineWelcomeClaimed", version=1)
@dataclass(frozen=True)
class LineWelcomeClaimed(IntegrationEvent):
    """The line's welcome set, claimed once: one copy of each card."""

    player_id: str = field(metadata={"doc": "the player"})
    cards: list[str] = field(metadata={"doc": "the line card ids received (services/economy/README.md)"})


@integration_event("LineDeckSaved", version=1)
@dataclass(frozen=True)
class LineDeckSaved(IntegrationEvent):
    """A line (five different owned line cards, left first) created or replaced."""

    player_id: str = field(metadata={"doc": "the player"})
    deck_id: str = field(metadata={"doc": "the line's id (UUID)"})
    name: str = field(metadata={"doc": "its name"})
    cards: list[str] = field(metadata={"doc": "five line card ids in row order, the front (left) first"})
    created: bool = field(metadata={"doc": "a new line (else a replacement)"})


@dataclass(frozen=True)
class _SavedWithoutCards(IntegrationEvent):
    """A saved deck or line as the public topic carries it: which one, never its cards."""

    player_id: str = field(metadata={"doc": "the player's id"})
    deck_id: str = field(metadata={"doc": "the deck's or line's id (UUID)"})
    name: str = field(metadata={"doc": "its name"})
    created: bool = field(metadata={"doc": "a new one (else a replacement)"})


@integration_event("DeckSaved", version=3)
@dataclass(frozen=True)
class PublishedDeckSaved(_SavedWithoutCards):
    """A deck created or replaced (it may be incomplete): version 2 as stored, without its cards."""


@integration_event("LineDeckSaved", version=2)
@dataclass(frozen=True)
class PublishedLineDeckSaved(_SavedWithoutCards):
    """A line created or replaced: version 1 as stored, without its cards."""


@integration_event("LineDeckDeleted", version=1)
@dataclass(frozen=True)
class LineDeckDeleted(IntegrationEvent):
    """A saved line removed (never the active one)."""

    player_id: str = field(metadata={"doc": "the player"})
    deck_id: str = field(metadata={"doc": "the line's id"})


@integration_event("WalletDebited", version=1)
@dataclass(frozen=True)
class WalletDebited(IntegrationEvent):
    """An operator took coins, dust and/or free packs back (a claw-back): the compensating event of
    a credit paid in error, never an edit of it. Never more than the wallet holds."""

    player_id: str = field(metadata={"doc": _PLAYER})
    source: str = field(metadata={"doc": "unique per player: `claw_back:<id>`"})
    reason: str = field(metadata={"doc": "`claw_back`"})
    coins: int = field(metadata={"doc": "coins taken (>= 0)"})
    dust: int = field(metadata={"doc": "dust taken (>= 0)"})
    free_packs: int = field(metadata={"doc": "free packs taken (>= 0)"})
    coins_after: int = field(metadata={"doc": "the coin balance after it"})
    dust_after: int = field(metadata={"doc": "the dust balance after it"})
    free_packs_after: int = field(metadata={"doc": "free packs held after it"})
    note: str = field(metadata={"doc": "the operator's reason"})


EVENT_TYPES: dict[str, type[IntegrationEvent]] = {
    cls.TYPE: cls
    for cls in (
        WalletOpened,
        WalletCredited,
        PackOpened,
        CardCrafted,
        CardDisenchanted,
        DeckSaved,
        DeckDeleted,
        DeckActivated,
        ActiveDeckChanged,
        ShardsCredited,
        LineWelcomeClaimed,
        LineDeckSaved,
        LineDeckDeleted,
        TournamentEntryMade,
        TournamentEntryClosed,
        WalletDebited,
        OperatorActed,  # operators' refunds and claw-backs, stream `audit` (libs.contracts.audit)
    )
}


# Stored as decided, published only in another form (``PUBLISHED_FORMS``; ``SERVICE.stored``).
STORED_ONLY = (DeckSaved, LineDeckSaved)

# What the topic carries of a stored deck event: its form without cards (issue 34, finding 2).
PUBLISHED_FORMS: dict[str, type[IntegrationEvent]] = {
    cls.TYPE: cls
    for cls in (
        PublishedDeckSaved,
        PublishedLineDeckSaved,
        PublishedActiveDeckChanged,
        PublishedTournamentEntryMade,
    )
}

CATALOG = EventCatalog(
    "economy",
    TOPIC,
    tuple(PUBLISHED_FORMS.get(cls.TYPE, cls) for cls in EVENT_TYPES.values()),
    "Wallets, collections, packs and decks. Streams `wallet-<player>`, `decks-<player>` and "
    "`line-<player>` (the line's collection and lines); operators' refunds and claw-backs in `audit`. "
    "No deck list: `DeckSaved`, `LineDeckSaved` "
    "and `ActiveDeckChanged` come without their cards (the analysts read this topic while matches "
    "run); the active deck's cards go to `arcana.economy.decks`, which only the match service reads.",
)

DECKS = EventCatalog(
    "economy",
    DECKS_TOPIC,
    (ActiveDeckChangedInFull, TournamentEntryMadeInFull),
    "Each player's active deck per game with its cards (`ActiveDeckChanged` as stored, keyed by "
    "`decks-<player>` or `line-<player>`), and each tournament entry with its cards "
    "(`TournamentEntryMade` as stored), for the match service, whose Kafka user alone may read "
    "it: the analysts' may not (a deck list is hidden until the match that plays it has ended; the "
    "match's record on `arcana.match.records` then shows it).",
    private=True,
)
