"""The collection and saved decks of the game whose cards are a welcome set (``games.WELCOME``, by its
offer: the line's; stream ``line-<player>``), of one player.

The welcome set (the line's: 3 creeps, 7 uncommon heroes and a support hero, one copy each, the same for
everyone) is claimed once. A line is five different line cards the player owns, in row order (the
front, left, first), as the game's cards judge it; it is refused with every problem named
(``InvalidLine``). At most five lines, one active: activating one, or editing the active one,
publishes ``ActiveDeckChanged`` with the game's name; the active line cannot be deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from services.economy.events import (
    ActiveDeckChanged,
    Event,
    LineDeckDeleted,
    LineDeckSaved,
    LineWelcomeClaimed,
    TournamentEntryClosed,
    TournamentEntryMade,
)

from .decks import Deck, Decks, SaveDeck, with_deck, without_deck
from .errors import (
    ActiveDeckUndeletable,
    DeckLimitReached,
    IllegalDeck,
    InvalidLine,
    WelcomeAlreadyClaimed,
)
from .games import WELCOME, WELCOME_GAME


@dataclass(frozen=True)
class LineBook(Decks):
    """The player's saved lines (as ``Decks``: the active one, what was last published) and line
    cards (card id -> copies)."""

    owned: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    welcomed: bool = False
    entry: str | None = None  # the open tournament entry (``entries.py``), until its place is paid
    entries_on: tuple[str, int] = ("", 0)  # the UTC day of the last entry, and the entries made that day


SaveLine = SaveDeck
"""Create (``deck_id`` new) or replace a line: the same command as a deck's."""


def decide_claim_welcome(state: LineBook) -> list[Event]:
    """The welcome set, once. Raises ``WelcomeAlreadyClaimed``."""
    if state.welcomed:
        raise WelcomeAlreadyClaimed("the welcome set was claimed already; it is given once")
    return [LineWelcomeClaimed(state.player_id, list(WELCOME.welcome))]


def problems(cards: Sequence[str], owned: Mapping[str, int]) -> list[str]:
    """Every reason ``cards`` is not a line of this collection (empty: legal)."""
    return WELCOME.cards.deck_problems(cards, owned)


def decide_save(state: LineBook, cmd: SaveLine) -> list[Event]:
    """Save a line. Raises ``InvalidLine`` (every problem), ``DeckLimitReached`` for a sixth."""
    found = problems(cmd.cards, state.owned)
    if found:
        raise InvalidLine("; ".join(found), {"problems": found})
    created = cmd.deck_id not in state.decks
    if created and len(state.decks) >= WELCOME.max_decks:
        raise DeckLimitReached(f"at most {WELCOME.max_decks} lines; delete one first")
    saved = LineDeckSaved(state.player_id, cmd.deck_id, cmd.name, list(cmd.cards), created)
    return [saved, *_republish(evolve(state, saved))]


def decide_update(state: LineBook, cmd: SaveLine) -> list[Event]:
    """Replace an existing line. Raises ``DeckNotFound``, ``InvalidLine``."""
    state.get(cmd.deck_id)
    return decide_save(state, cmd)


def decide_delete(state: LineBook, deck_id: str) -> list[Event]:
    """Raises ``DeckNotFound``, ``ActiveDeckUndeletable``."""
    state.get(deck_id)
    if deck_id == state.active:
        raise ActiveDeckUndeletable("the active line cannot be deleted; activate another first")
    return [LineDeckDeleted(state.player_id, deck_id)]


def decide_activate(state: LineBook, deck_id: str) -> list[Event]:
    """Make a line the active one. Raises ``DeckNotFound``, ``IllegalDeck`` (every problem)."""
    deck = state.get(deck_id)
    found = problems(deck.cards, state.owned)
    if found:
        raise IllegalDeck("; ".join(found), {"problems": found})
    return _republish(replace(state, active=deck_id))


def _republish(state: LineBook) -> list[Event]:
    """``ActiveDeckChanged`` (game line) when the active line differs from the last published."""
    if state.active is None:
        return []
    deck = state.decks[state.active]
    now = ActiveDeckChanged(
        state.player_id, deck.deck_id, deck.name, list(deck.cards), True, [], game=WELCOME_GAME
    )
    return [] if now == state.published else [now]


def links(cards: Sequence[str]) -> dict[str, Any]:
    """The links a line lights and each card's stats with them baked in (what the fight uses); empty
    for a list that is not five known cards."""
    return WELCOME.cards.deck_preview(cards)


def evolve(state: LineBook, event: Event) -> LineBook:
    """The book after ``event``."""
    if isinstance(event, LineWelcomeClaimed):
        owned = dict(state.owned)
        for card_id in event.cards:
            owned[card_id] = owned.get(card_id, 0) + 1
        return replace(state, owned=MappingProxyType(owned), welcomed=True)
    if isinstance(event, LineDeckSaved):
        return with_deck(state, Deck(event.deck_id, event.name, tuple(event.cards)))
    if isinstance(event, LineDeckDeleted):
        return without_deck(state, event.deck_id)
    if isinstance(event, ActiveDeckChanged):
        return replace(state, active=event.deck_id, published=event)
    if isinstance(event, TournamentEntryMade):
        day = utc_day(event.entered_at)
        made = state.entries_on[1] + 1 if state.entries_on[0] == day else 1
        return replace(state, entry=event.entry_id, entries_on=(day, made))
    if isinstance(event, TournamentEntryClosed) and event.entry_id == state.entry:
        return replace(state, entry=None)
    return state


def utc_day(at: str) -> str:
    """The UTC date of an ISO 8601 time."""
    return datetime.fromisoformat(at).astimezone(UTC).date().isoformat()


def fold(player_id: str, events: Iterable[Event]) -> LineBook:
    state = LineBook(player_id)
    for event in events:
        state = evolve(state, event)
    return state
