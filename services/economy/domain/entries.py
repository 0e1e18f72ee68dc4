"""Entries of the tournament of the game whose cards are a welcome set (its offer's ``Tournament``;
the line's), kept in the player's line book (stream ``line-<player>``): an entry is the tournament's
number of different cards the player owns (the line: ten), one open at a time, closed when the
player's place is paid (``TournamentPlaceAwarded``, consumed once), and at most the tournament's
``entries_per_day`` a UTC day (the line: 3). The bracket is the match
service's (docs/line.md, "Tournament")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from libs.games import registry
from libs.games.offer import Tournament
from services.economy.events import Event, TournamentEntryClosed, TournamentEntryMade

from .errors import AlreadyEntered, DailyEntriesReached, InvalidEntry
from .games import WELCOME, WELCOME_GAME
from .welcome import LineBook, utc_day


def tournament() -> Tournament:
    """The tournament the welcome-set game offers (LookupError when it offers none)."""
    found = registry.offer(WELCOME_GAME).tournament
    if found is None:
        raise LookupError("the game whose cards are a welcome set offers no tournament")
    return found


def entry_problems(cards: Sequence[str], owned: Mapping[str, int], size: int) -> list[str]:
    """Every reason ``cards`` is not an entry of ``size`` different cards of the collection."""
    found = [] if len(cards) == size else [f"an entry is {size} cards, not {len(cards)}"]
    repeated = sorted({c for c in cards if cards.count(c) > 1})
    found += [f"{c} is entered more than once" for c in repeated]
    for card in dict.fromkeys(cards):
        if WELCOME.cards.rarity(card) is None:
            found.append(f"{card} is not a card of this game")
        elif owned.get(card, 0) < 1:
            found.append(f"you do not own {card}")
    return found


def decide_enter(state: LineBook, entry_id: str, cards: Sequence[str], at: str) -> list[Event]:
    """Enter the tournament at ``at`` (ISO 8601). Raises ``AlreadyEntered`` (one entry open at a time),
    ``DailyEntriesReached``, ``InvalidEntry`` (every problem)."""
    if state.entry is not None:
        raise AlreadyEntered("your tournament entry is still open", {"entry_id": state.entry})
    limit = tournament().entries_per_day
    if limit and state.entries_on == (utc_day(at), limit):
        raise DailyEntriesReached(
            f"{limit} tournament entries a day (UTC); enter again tomorrow", {"limit": limit}
        )
    found = entry_problems(list(cards), state.owned, tournament().entry_size)
    if found:
        raise InvalidEntry("; ".join(found), {"problems": found})
    return [TournamentEntryMade(state.player_id, entry_id, WELCOME_GAME, list(cards), at)]


def decide_close(state: LineBook, entry_id: str, tournament_id: str, place: int) -> list[Event]:
    """Close the entry whose place was paid (nothing when it is not the open one)."""
    if state.entry != entry_id:
        return []
    return [TournamentEntryClosed(state.player_id, entry_id, tournament_id, place)]
