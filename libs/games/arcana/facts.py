"""The engine's events, typed: one frozen dataclass per event type, the fields of its data (the
``type`` key aside) with their JSON types, for readers and for the generated schemas
(``docs/schemas/``). The engine itself emits plain dicts (the hot path); a property test checks that
every event it emits is exactly one of these.

Three events have a public form besides (what a spectator, and so the live topic, sees):
``MatchStarted`` without seed, decks and spread, ``CardDrawn`` without the card, and
``MulliganCompleted`` with a count instead of the cards; ``DeckShuffled`` is never public.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from libs.games.sdk.facts import Fact

_PLAYER = {"doc": "the player's id"}
_INSTANCE = "a card instance id (`c1`..`c40`, dealt at random: it reveals nothing)"


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class MatchStarted(Fact):
    """The match's set-up: both decks, the seed, the first player, the arcana spread."""

    TYPE: ClassVar[str] = "MatchStarted"
    match_id: str = field(metadata=_doc("the match id"))
    seed: int = field(metadata=_doc("the seed every random outcome of the match was drawn from"))
    players: list[dict[str, Any]] = field(
        metadata=_doc("two `{id, deck: [20 card ids], instances: [20 instance ids, in deck order]}`")
    )
    first: str = field(metadata=_doc("the first player's id"))
    arcana: list[str] = field(metadata=_doc("the six arcana of the spread, in order"))
    shuffle: bool = field(metadata=_doc("whether the decks were shuffled (false only in set-ups for tests)"))


@dataclass(frozen=True)
class MatchStartedPublic(Fact):
    """``MatchStarted`` as the opponent and spectators see it."""

    TYPE: ClassVar[str] = "MatchStarted"
    match_id: str = field(metadata=_doc("the match id"))
    players: list[str] = field(metadata=_doc("the two player ids"))
    first: str = field(metadata=_doc("the first player's id"))


@dataclass(frozen=True)
class DeckShuffled(Fact):
    """A deck's order, top first (at the start, and after a mulligan). Never shown to anyone."""

    TYPE: ClassVar[str] = "DeckShuffled"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    order: list[str] = field(metadata=_doc("the deck's instance ids, top first"))


@dataclass(frozen=True)
class ArcanaRevealed(Fact):
    """The next arcana of the spread turned over."""

    TYPE: ClassVar[str] = "ArcanaRevealed"
    arcana: str = field(metadata=_doc("the arcana's id"))
    phase: str = field(metadata=_doc("`early`, `mid` or `ending`"))
    index: int = field(metadata=_doc("its place in the spread, 0..5"))
    round: int = field(metadata=_doc("the round it starts holding"))


@dataclass(frozen=True)
class CardDrawn(Fact):
    """A card from the top of the deck into the hand."""

    TYPE: ClassVar[str] = "CardDrawn"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_doc(_INSTANCE))
    card_id: str = field(metadata=_doc("the card's id in the catalog"))


@dataclass(frozen=True)
class CardDrawnPublic(Fact):
    """``CardDrawn`` as the opponent and spectators see it: who drew."""

    TYPE: ClassVar[str] = "CardDrawn"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)


@dataclass(frozen=True)
class MulliganCompleted(Fact):
    """A player's mulligan: the cards returned (none: the hand is kept)."""

    TYPE: ClassVar[str] = "MulliganCompleted"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    returned: list[str] = field(metadata=_doc("the instance ids returned to the deck"))


@dataclass(frozen=True)
class MulliganCompletedPublic(Fact):
    """``MulliganCompleted`` as the opponent and spectators see it: how many cards went back."""

    TYPE: ClassVar[str] = "MulliganCompleted"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    count: int = field(metadata=_doc("how many cards were returned"))


@dataclass(frozen=True)
class TurnStarted(Fact):
    """A player's turn begins."""

    TYPE: ClassVar[str] = "TurnStarted"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    turn: int = field(metadata=_doc("the turn number, from 1"))
    round: int = field(metadata=_doc("the round: turns 2N-1 and 2N"))


@dataclass(frozen=True)
class HeroDrained(Fact):
    """An ending arcana drained both heroes at the start of a round."""

    TYPE: ClassVar[str] = "HeroDrained"
    arcana: str = field(metadata=_doc("the arcana that drains"))
    amount: int = field(metadata=_doc("health each hero lost"))
    round: int = field(metadata=_doc("the round"))


@dataclass(frozen=True)
class ManaRefilled(Fact):
    """The active player's mana grew by one (up to 10) and was refilled."""

    TYPE: ClassVar[str] = "ManaRefilled"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    max_mana: int = field(metadata=_doc("the maximum now"))
    mana: int = field(metadata=_doc("the mana now"))


@dataclass(frozen=True)
class CardPlayed(Fact):
    """A card left the hand for its cost: a unit to a position, or a spell (with its target)."""

    TYPE: ClassVar[str] = "CardPlayed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_doc(_INSTANCE))
    card_id: str = field(metadata=_doc("the card's id in the catalog"))
    cost: int = field(metadata=_doc("the mana paid (arcana cost changes included)"))
    position: int | None = field(default=None, metadata=_doc("a unit's board position; absent for a spell"))
    target: str | None = field(
        default=None, metadata=_doc("a spell's target unit (instance id); absent otherwise")
    )


@dataclass(frozen=True)
class UnitSummoned(Fact):
    """A unit entered the board (the arcana's stat bonus included)."""

    TYPE: ClassVar[str] = "UnitSummoned"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    unit: str = field(metadata=_doc(_INSTANCE))
    card_id: str = field(metadata=_doc("the card's id in the catalog"))
    position: int = field(metadata=_doc("its board position"))
    attack: int = field(metadata=_doc("its attack"))
    health: int = field(metadata=_doc("its health"))


@dataclass(frozen=True)
class UnitBuffed(Fact):
    """A permanent gain of attack and health (and maximum health)."""

    TYPE: ClassVar[str] = "UnitBuffed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    unit: str = field(metadata=_doc(_INSTANCE))
    attack: int = field(metadata=_doc("attack gained"))
    health: int = field(metadata=_doc("health gained"))


@dataclass(frozen=True)
class SpellCast(Fact):
    """A spell's effect, after its CardPlayed."""

    TYPE: ClassVar[str] = "SpellCast"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_doc(_INSTANCE))
    card_id: str = field(metadata=_doc("the card's id in the catalog"))
    effect: str = field(metadata=_doc("the spell's effect (docs/rules.md)"))
    target: str | None = field(metadata=_doc("the target unit's instance id, or null"))


@dataclass(frozen=True)
class AttackResolved(Fact):
    """A unit attacked a unit or the enemy hero."""

    TYPE: ClassVar[str] = "AttackResolved"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    attacker: str = field(metadata=_doc("the attacking unit's instance id"))
    target: str = field(metadata=_doc("the defending unit's instance id, or `hero`"))


@dataclass(frozen=True)
class DamageDealt(Fact):
    """Damage to a unit or a hero (after Ward)."""

    TYPE: ClassVar[str] = "DamageDealt"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_doc("the owner of what was hit"))
    target: str = field(metadata=_doc("the unit's instance id, or `hero`"))
    amount: int = field(metadata=_doc("the damage"))
    source: str = field(metadata=_doc("the unit or spell instance that dealt it"))


@dataclass(frozen=True)
class WardBroken(Fact):
    """A unit's Ward took a hit in its place and is gone."""

    TYPE: ClassVar[str] = "WardBroken"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    unit: str = field(metadata=_doc(_INSTANCE))


@dataclass(frozen=True)
class HeroHealed(Fact):
    """A hero regained health (never above 30)."""

    TYPE: ClassVar[str] = "HeroHealed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    amount: int = field(metadata=_doc("health regained"))


@dataclass(frozen=True)
class UnitDied(Fact):
    """A unit left the board."""

    TYPE: ClassVar[str] = "UnitDied"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    unit: str = field(metadata=_doc(_INSTANCE))


@dataclass(frozen=True)
class TurnTimedOut(Fact):
    """A turn reached its 60 s and ended itself."""

    TYPE: ClassVar[str] = "TurnTimedOut"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    timeouts: int = field(metadata=_doc("timed-out turns in a row (3 forfeit)"))


@dataclass(frozen=True)
class TurnEnded(Fact):
    """A turn is over."""

    TYPE: ClassVar[str] = "TurnEnded"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    timed_out: bool = field(metadata=_doc("whether its timer ended it"))


@dataclass(frozen=True)
class MatchEnded(Fact):
    """The engine's end of a match (the match service stores it enriched: see its catalog)."""

    TYPE: ClassVar[str] = "MatchEnded"
    winner: str = field(metadata=_doc("the winner's id, or `draw`"))
    reason: str = field(metadata=_doc("`hero_killed`, `concede`, `timeouts`, `disconnect` or `draw`"))


FACTS: tuple[type[Fact], ...] = (
    MatchStarted,
    DeckShuffled,
    ArcanaRevealed,
    CardDrawn,
    MulliganCompleted,
    TurnStarted,
    HeroDrained,
    ManaRefilled,
    CardPlayed,
    UnitSummoned,
    UnitBuffed,
    SpellCast,
    AttackResolved,
    DamageDealt,
    WardBroken,
    HeroHealed,
    UnitDied,
    TurnTimedOut,
    TurnEnded,
    MatchEnded,
)

# What the live topic (and the opponent) sees of each event; DeckShuffled is never seen.
PUBLIC: dict[str, type[Fact]] = {
    **{f.TYPE: f for f in FACTS if f is not DeckShuffled},
    MatchStartedPublic.TYPE: MatchStartedPublic,
    CardDrawnPublic.TYPE: CardDrawnPublic,
    MulliganCompletedPublic.TYPE: MulliganCompletedPublic,
}
