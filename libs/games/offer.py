"""What a game offers the platform beside its rules: the one place matchmaking, economy, ratings and
progression read about a game, so that no service branches on a game's name.

Pure data, standard library only. Each game declares its ``Offer`` beside its ``Game`` (the class
attribute ``Game.offer``); the services find it by the game's name through ``libs.games.registry``
(``registry.offer``), never by importing a game package.

- ``Queue``: the matchmaking queues (modes), the table sizes, whether a ticket names the sizes it
  accepts, what deck a ticket carries, and the unlock rule (finished practice matches before ranked);
- ``Ladder``: whether ranked matches move a rating, and by which system (``elo``: Arcana's rating
  with tiers; ``mmr``: +2 a win, -1 a loss, no tiers), and the stream the history is kept in;
- ``Rewards``: the match rewards table (per mode: the first placement group's, every other place's);
- ``Progress``: what an ended match moves in progression (season-pass XP, quests, a track of its own);
- ``Collection``: how a player gets the game's cards (a ``starter`` collection and packs, or a
  ``welcome`` set claimed once) and the decks saved of them, judged by its ``Cards``, for the economy;
- ``Daily``: what the game shows of each day (Arcana's ascendant arcana), served by progression;
- ``FairPlay``: which row of the fair-play table (``libs.fairplay``) judges its ended matches, and the
  table sizes a ``MatchEnded`` of it may have.
- ``Tournament``: the game's tournament (an entry of cards, a single-elimination bracket, place prizes),
  hosted by the match service, entered at the economy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

RANKED, CASUAL, PRACTICE, ADMIN = "ranked", "casual", "practice", "admin"
EVERY_MODE = (RANKED, CASUAL, PRACTICE, ADMIN)

NO_DECK, STARTER_DECK, BUILT_DECK = "none", "starter", "built"
"""What a ticket carries: no deck; the active deck else the game's starter deck; the active deck, which
the player must have built first."""

ELO, MMR = "elo", "mmr"
LADDER_START = {ELO: 900, MMR: 1000}  # a player's rating before any counted match, by system


@dataclass(frozen=True)
class Queue:
    """The game's matchmaking. ``modes``: the queues it offers (empty: none); ``sizes``: the table sizes
    it seats; ``choose_sizes``: a ticket may name the sizes it accepts and tables are seated by size (else
    two players are paired by rating); ``deck``: ``NO_DECK``, ``STARTER_DECK`` or ``BUILT_DECK``;
    ``ranked_after``: finished practice matches (training battles) before the ranked queue opens."""

    modes: tuple[str, ...] = ()
    sizes: tuple[int, ...] = (2,)
    choose_sizes: bool = False
    deck: str = NO_DECK
    ranked_after: int = 0

    @property
    def trains(self) -> bool:
        """Whether a finished practice match counts as a training battle (it unlocks ranked)."""
        return self.ranked_after > 0


@dataclass(frozen=True)
class Ladder:
    """The rating ranked matches move. ``system``: ``ELO`` or ``MMR``; ``stream``: the prefix of each
    player's rating stream (``<stream>-<player>``)."""

    system: str
    stream: str

    @property
    def start(self) -> int:
        """A player's rating before any counted match."""
        return LADDER_START[self.system]


@dataclass(frozen=True)
class Reward:
    """An amount of a currency (``coins`` or ``shards``)."""

    currency: str
    amount: int


@dataclass(frozen=True)
class Rewards:
    """The match rewards table, per mode: (what the first placement group is paid, what every other
    place is paid, a draw included). A mode missing, or None, pays nothing there. Whether a player is
    paid at all is the match's fair-play verdict; this only says how much."""

    by_mode: Mapping[str, tuple[Reward | None, Reward | None]] = field(default_factory=dict)

    def of(self, mode: str, place: int, groups: int) -> Reward | None:
        """The reward of placement group ``place`` (0: the best) of ``groups`` (one group: a draw)."""
        won, other = self.by_mode.get(mode, (None, None))
        return won if place == 0 and groups > 1 else other

    @classmethod
    def every_mode(cls, won: Reward | None, other: Reward | None) -> Rewards:
        return cls(dict.fromkeys(EVERY_MODE, (won, other)))


@dataclass(frozen=True)
class Progress:
    """What an ended match moves in progression. ``pass_xp``: it gives season-pass XP; ``facts``: the
    quest facts it reports (None: every one); ``quests_in_practice``: a practice match moves quests;
    ``track``: the name of a track of its own (XP earned by the players its verdict gives XP, and its
    training battles), kept in the stream ``<track>-<player>``; ``track_xp``: what a counted match
    gives on it."""

    pass_xp: bool = True
    facts: tuple[str, ...] | None = None
    quests_in_practice: bool = True
    track: str | None = None
    track_xp: int = 0


class Cards(Protocol):
    """A game's cards as the economy needs them (implemented by the game package)."""

    def ids(self) -> Sequence[str]:
        """Every card id, sorted."""

    def card(self, card_id: str) -> dict[str, Any]:
        """A card as JSON (the catalog's words); KeyError for an unknown id."""

    def rarity(self, card_id: str) -> str | None:
        """The card's rarity (what packs, crafting and copy limits go by), None for an unknown id."""

    def deck_problems(self, cards: Sequence[str], owned: Mapping[str, int]) -> list[str]:
        """Why ``cards`` is not a deck of a player owning ``owned`` (card id -> copies); empty: legal."""

    def deck_preview(self, cards: Sequence[str]) -> dict[str, Any]:
        """What a deck shows besides its cards (the line: the links it lights and its baked stats)."""


@dataclass(frozen=True)
class Collection:
    """How a player gets the game's cards in the economy, and the decks they save of them
    (``deck_size`` cards, at most ``max_decks`` saved, checked by ``cards``; ``currency``: what the
    game's rewards pay in). Either a ``starter`` collection (card id -> copies) given with the wallet,
    the rest bought in packs and crafted (Arcana's), or a ``welcome`` set (card ids, one copy each, the
    same for everyone) the player claims once (the line's)."""

    cards: Cards
    deck_size: int
    max_decks: int
    currency: str
    starter: Mapping[str, int] = field(default_factory=dict)
    welcome: tuple[str, ...] = ()
    autofill: Callable[[Mapping[str, int]], Sequence[str]] | None = None
    """A deck the game proposes from a collection (card id -> copies); ValueError when it holds too few
    cards for one. None: the game proposes none."""


@dataclass(frozen=True)
class Daily:
    """What the game shows of each UTC day (``GET /v1/<game>/today``): under ``name``, ``of(date)``
    (an ISO date; Arcana: the ascendant arcana, a card of its catalog); ``doc``: what it is, in words
    (``ascendant arcana``)."""

    name: str
    of: Callable[[str], dict[str, Any]]
    doc: str


@dataclass(frozen=True)
class FairPlay:
    """How the fair-play rules (``libs.fairplay``, docs/rules.md "Fair play") judge the game's ended
    matches: ``rule``, a row of their table by its name (``standard``: Arcana's, the default;
    ``winner_paid``: the line's; ``casual_only``: the arena's), and ``seats``, the players a
    ``MatchEnded`` of the game may have (another count is malformed)."""

    rule: str = "standard"
    seats: tuple[int, ...] = (2,)


@dataclass(frozen=True)
class Prize:
    """What the places ``first``..``last`` of a bracket (1: the winner) are each paid."""

    first: int
    last: int
    reward: Reward


@dataclass(frozen=True)
class Tournament:
    """A single-elimination tournament of the game. An entry is ``entry_size`` different cards of the
    player's collection (judged as a collection by ``Collection.cards``); each round the player fights
    with a deck chosen from the entry (``Collection.deck_size`` cards), within ``choose_seconds``, else
    ``lineup(entry)`` is played for them; brackets of ``seats`` (a power of two) seat entrants in the
    order they come, and seats still empty ``fill_after`` seconds after the first entry go to bots,
    each entered with ``bot_entry(rng)``. ``prizes``: what each place is paid (bots are paid nothing);
    ``entries_per_day``: the entries a player may make in a UTC day (0: no limit)."""

    entry_size: int
    seats: int
    fill_after: int
    choose_seconds: int
    prizes: tuple[Prize, ...]
    lineup: Callable[[Sequence[str]], Sequence[str]]
    bot_entry: Callable[[random.Random], Sequence[str]]
    entries_per_day: int = 0

    def prize(self, place: int) -> Reward | None:
        """What ``place`` (1: the winner) is paid, None for nothing."""
        return next((p.reward for p in self.prizes if p.first <= place <= p.last), None)


@dataclass(frozen=True)
class Offer:
    """Everything a game offers besides its rules (see the module's docstring). The default offers
    nothing: no queue, no ladder, no rewards, pass XP and every quest as Arcana's matches do."""

    queue: Queue = Queue()
    ladder: Ladder | None = None
    rewards: Rewards = Rewards()
    progress: Progress = Progress()
    collection: Collection | None = None
    daily: Daily | None = None
    fair_play: FairPlay = FairPlay()
    tournament: Tournament | None = None
