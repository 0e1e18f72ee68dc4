"""Shapes of the answers the client returns (as the OpenAPI documents describe them; fields a
service may add later are read with ``.get``)."""

from __future__ import annotations

from typing import Any, TypedDict


class Registered(TypedDict):
    player_id: str
    username: str


class Session(TypedDict, total=False):
    token: str
    player_id: str
    expires_at: str


class NextPack(TypedDict):
    pack_number: int
    commitment: str


class Wallet(TypedDict):
    coins: int
    shards: int
    dust: int
    free_packs: int
    pity_counter: int
    packs_opened: int
    next_pack: NextPack


class PackCard(TypedDict):
    card_id: str
    rarity: str
    dust: int


class Pack(TypedDict):
    pack_number: int
    paid_with: str
    cards: list[PackCard]
    server_seed: str
    commitment: str
    client_seed: str
    pity_before: int
    pity_counter: int
    next_commitment: str
    coins: int
    dust: int
    free_packs: int


class Deck(TypedDict):
    deck_id: str
    name: str
    cards: list[str]
    active: bool
    legal: bool
    problems: list[str]
    created_at: str
    updated_at: str


class Ticket(TypedDict, total=False):
    ticket_id: str
    game: str
    mode: str
    sizes: list[int]
    status: str
    waited_seconds: float
    rating: int
    window: int | None
    waiting: dict[str, int]
    table_size: int
    match_id: str | None
    reason: str | None
    message: str | None
    problems: list[str] | None


class MatchEvent(TypedDict):
    version: int
    type: str
    occurred_at: str
    data: dict[str, Any]


class Events(TypedDict):
    version: int
    events: list[MatchEvent]
    awaiting: list[str]
    legal_commands: list[dict[str, Any]]


class CommandResult(TypedDict):
    version: int
    events: list[MatchEvent]
    legal_commands: list[dict[str, Any]]
    awaiting: list[str]


class LegalCommands(TypedDict):
    version: int
    commands: list[dict[str, Any]]
    awaiting: list[str]


class Created(TypedDict, total=False):
    match_id: str
    version: int
    bot: str
    bots: list[str]


MatchView = dict[str, Any]
"""The rules' view of a match (``you``, ``opponent``, ``arcana``, ``phase``...) plus ``version``,
``mode``, ``players``, ``bot``, ``deadline``, ``awaiting``, ``connected``."""
