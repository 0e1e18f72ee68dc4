"""The decks of one player (stream ``decks-<player>``): at most five, one active.

A deck may be saved incomplete (fewer than 20 cards), but only with cards the player owns (the
seed: "only cards you own"); it may never hold more than 20 cards, more copies than a deck allows
or the player owns, or unknown ids (``InvalidDeck`` names every problem). A deck saved legal may
still lose cards later (a disenchant): its legality then says so. Activation needs a legal
deck: exactly 20 cards, at most 2 copies (1 of a legendary), every copy owned (``IllegalDeck``
names every problem). After every change that may alter the active deck or its legality (a deck
edited or activated, the collection changed) ``refresh`` yields ``ActiveDeckChanged`` if what was
last published differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from services.economy.events import ActiveDeckChanged, DeckActivated, DeckDeleted, DeckSaved, Event

from .errors import (
    ActiveDeckUndeletable,
    AlreadyOpened,
    DeckLimitReached,
    DeckNotFound,
    IllegalDeck,
    InvalidDeck,
)
from .games import PACKS
from .values import DECK_SIZE, MAX_DECKS, STARTER_DECK_CARDS, STARTER_DECK_NAME, copy_limit, rarity_of


@dataclass(frozen=True)
class Deck:
    deck_id: str
    name: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Decks:
    player_id: str
    decks: Mapping[str, Deck] = field(default_factory=lambda: MappingProxyType({}))
    active: str | None = None
    published: ActiveDeckChanged | None = None

    def get(self, deck_id: str) -> Deck:
        """The deck; raises ``DeckNotFound`` (also for another player's deck id)."""
        deck = self.decks.get(deck_id)
        if deck is None:
            raise DeckNotFound(f"no deck {deck_id}")
        return deck


@dataclass(frozen=True)
class SaveDeck:
    """Create (``deck_id`` new) or replace a deck."""

    deck_id: str
    name: str
    cards: tuple[str, ...]


def structural_problems(cards: Sequence[str]) -> list[str]:
    """What makes a card list impossible as a deck, whatever the player owns."""
    problems = []
    if len(cards) > DECK_SIZE:
        problems.append(f"a deck holds at most {DECK_SIZE} cards, not {len(cards)}")
    for card_id, n in Counter(cards).items():
        rarity = rarity_of(card_id)
        if rarity is None:
            problems.append(f"unknown card {card_id!r}")
        elif n > copy_limit(rarity):
            problems.append(f"{n} copies of {card_id}, at most {copy_limit(rarity)} in a deck")
    return problems


def ownership_problems(cards: Sequence[str], collection: Mapping[str, int]) -> list[str]:
    """Every card of which the list holds more copies than ``collection`` has (cards already
    named by ``structural_problems`` are left out: one problem per card)."""
    problems = []
    for card_id, n in Counter(cards).items():
        rarity = rarity_of(card_id)
        if rarity is not None and n <= copy_limit(rarity) and n > collection.get(card_id, 0):
            problems.append(f"{n} copies of {card_id}, {collection.get(card_id, 0)} owned")
    return problems


def legality(cards: Sequence[str], collection: Mapping[str, int]) -> list[str]:
    """Every reason the deck cannot be played with ``collection`` (empty: legal)."""
    return PACKS.cards.deck_problems(cards, collection)


def decide_starter(state: Decks, deck_id: str, collection: Mapping[str, int]) -> list[Event]:
    """A new account's first deck, saved and active, and its ``ActiveDeckChanged``.

    Raises ``AlreadyOpened`` when the player has decks already."""
    if state.decks:
        raise AlreadyOpened(f"player {state.player_id} has decks already")
    saved = DeckSaved(deck_id, STARTER_DECK_NAME, list(STARTER_DECK_CARDS), True, player_id=state.player_id)
    activated = DeckActivated(deck_id, player_id=state.player_id)
    return [saved, activated, *refresh(evolve(evolve(state, saved), activated), collection)]


def decide_save(state: Decks, cmd: SaveDeck, collection: Mapping[str, int]) -> list[Event]:
    """Save a deck. Raises ``InvalidDeck`` (problems in details: structure and copies not owned),
    ``DeckLimitReached`` for a sixth."""
    problems = structural_problems(cmd.cards) + ownership_problems(cmd.cards, collection)
    if problems:
        raise InvalidDeck("; ".join(problems), {"problems": problems})
    created = cmd.deck_id not in state.decks
    if created and len(state.decks) >= MAX_DECKS:
        raise DeckLimitReached(f"at most {MAX_DECKS} decks; delete one first")
    saved = DeckSaved(cmd.deck_id, cmd.name, list(cmd.cards), created, player_id=state.player_id)
    return [saved, *refresh(evolve(state, saved), collection)]


def decide_update(state: Decks, cmd: SaveDeck, collection: Mapping[str, int]) -> list[Event]:
    """Replace an existing deck. Raises ``DeckNotFound``, ``InvalidDeck``."""
    state.get(cmd.deck_id)
    return decide_save(state, cmd, collection)


def decide_delete(state: Decks, deck_id: str) -> list[Event]:
    """Raises ``DeckNotFound``, ``ActiveDeckUndeletable``."""
    state.get(deck_id)
    if deck_id == state.active:
        raise ActiveDeckUndeletable("the active deck cannot be deleted; activate another first")
    return [DeckDeleted(deck_id, player_id=state.player_id)]


def decide_activate(state: Decks, deck_id: str, collection: Mapping[str, int]) -> list[Event]:
    """Make a legal deck the active one. Raises ``DeckNotFound``, ``IllegalDeck`` (every problem)."""
    deck = state.get(deck_id)
    problems = legality(deck.cards, collection)
    if problems:
        raise IllegalDeck("; ".join(problems), {"problems": problems})
    if state.active == deck_id:
        return list(refresh(state, collection))
    activated = DeckActivated(deck_id, player_id=state.player_id)
    return [activated, *refresh(evolve(state, activated), collection)]


def refresh(state: Decks, collection: Mapping[str, int]) -> list[Event]:
    """``ActiveDeckChanged`` when the active deck or its legality differs from the last published."""
    if state.active is None:
        return []
    deck = state.decks[state.active]
    problems = legality(deck.cards, collection)
    now = ActiveDeckChanged(
        state.player_id, deck.deck_id, deck.name, list(deck.cards), not problems, problems
    )
    return [] if now == state.published else [now]


D = TypeVar("D", bound=Decks)


def with_deck(state: D, deck: Deck) -> D:
    """``state`` with ``deck`` saved (added or replacing the one of its id)."""
    return replace(state, decks=MappingProxyType({**state.decks, deck.deck_id: deck}))


def without_deck(state: D, deck_id: str) -> D:
    return replace(state, decks=MappingProxyType({k: v for k, v in state.decks.items() if k != deck_id}))


def evolve(state: Decks, event: Event) -> Decks:
    """The decks after ``event``."""
    if isinstance(event, DeckSaved):
        return with_deck(state, Deck(event.deck_id, event.name, tuple(event.cards)))
    if isinstance(event, DeckDeleted):
        return without_deck(state, event.deck_id)
    if isinstance(event, DeckActivated):
        return replace(state, active=event.deck_id)
    if isinstance(event, ActiveDeckChanged):
        return replace(state, published=event)
    return state


def fold(player_id: str, events: Iterable[Event]) -> Decks:
    state = Decks(player_id)
    for event in events:
        state = evolve(state, event)
    return state
