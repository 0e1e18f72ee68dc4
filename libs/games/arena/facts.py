"""The arena's events, typed: one frozen dataclass per event type, the fields of its data (the ``type``
key aside) with their JSON types, for readers and the generated schemas (``docs/schemas/<topic>/arena/``).
The rules emit plain dicts; a property test checks that every event they emit is exactly one of these.

Several types share their name with one of Arcana's (``MatchStarted``, ``CardDrawn``...): ``GAME``
tells them apart in the catalog and the schemas. Four have a public form besides (``views.visible_event``
with no viewer: what the live topic carries): ``MatchStarted`` without the seed, ``RoundStarted`` and
``PileRebuilt`` with the pile's count instead of its order, ``CardDrawn`` and ``CardStolen`` without the
card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from libs.games.sdk.facts import Fact

_PLAYER = {"doc": "the player's id"}
_CARD = {"doc": "a card id (`fireball-2`: its kind, then which copy)"}
_ATTACK = {"doc": "the attack's number in the match, from 1"}


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


class ArenaFact(Fact):
    """Base of the arena's typed events."""

    GAME: ClassVar[str] = "arena"


@dataclass(frozen=True)
class MatchStarted(ArenaFact):
    """The match's set-up: the seats in order, the seed, the first player of round 1."""

    TYPE: ClassVar[str] = "MatchStarted"
    match_id: str = field(metadata=_doc("the match id"))
    seed: int = field(metadata=_doc("the seed every random outcome of the match was drawn from"))
    players: list[str] = field(metadata=_doc("the 2 to 4 player ids, in seat order"))
    first: str = field(metadata=_doc("the first player of round 1"))


@dataclass(frozen=True)
class MatchStartedPublic(ArenaFact):
    """``MatchStarted`` as everyone sees it: no seed."""

    TYPE: ClassVar[str] = "MatchStarted"
    match_id: str = field(metadata=_doc("the match id"))
    players: list[str] = field(metadata=_doc("the 2 to 4 player ids, in seat order"))
    first: str = field(metadata=_doc("the first player of round 1"))


@dataclass(frozen=True)
class RoundStarted(ArenaFact):
    """A round begins: all 16 cards shuffled into the pile, everyone in the match at 9 life."""

    TYPE: ClassVar[str] = "RoundStarted"
    round: int = field(metadata=_doc("the round, from 1 (a replayed round counts again)"))
    first: str = field(metadata=_doc("the round's first player"))
    pile: list[str] = field(metadata=_doc("the pile's card ids, top first"))


@dataclass(frozen=True)
class RoundStartedPublic(ArenaFact):
    """``RoundStarted`` as everyone sees it: the pile's count, not its order."""

    TYPE: ClassVar[str] = "RoundStarted"
    round: int = field(metadata=_doc("the round, from 1 (a replayed round counts again)"))
    first: str = field(metadata=_doc("the round's first player"))
    pile_count: int = field(metadata=_doc("the cards in the pile"))


@dataclass(frozen=True)
class CardDrawn(ArenaFact):
    """The pile's top card into a hand."""

    TYPE: ClassVar[str] = "CardDrawn"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_CARD)
    reason: str = field(metadata=_doc("`deal`, `draw`, `mana_focus`, `bonus` or `swap`"))


@dataclass(frozen=True)
class CardDrawnPublic(ArenaFact):
    """``CardDrawn`` as the others see it: no card."""

    TYPE: ClassVar[str] = "CardDrawn"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    reason: str = field(metadata=_doc("`deal`, `draw`, `mana_focus`, `bonus` or `swap`"))


@dataclass(frozen=True)
class NothingDrawn(ArenaFact):
    """Pile and discard pile empty: the magic ran out, the round is decided by life."""

    TYPE: ClassVar[str] = "NothingDrawn"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    reason: str = field(metadata=_doc("why it drew, as `CardDrawn.reason`"))


@dataclass(frozen=True)
class PileRebuilt(ArenaFact):
    """The pile ran out: 2 random cards of the discard pile removed from the round, the rest shuffled."""

    TYPE: ClassVar[str] = "PileRebuilt"
    removed: list[str] = field(metadata=_doc("the card ids removed from the round (face up)"))
    pile: list[str] = field(metadata=_doc("the new pile's card ids, top first"))


@dataclass(frozen=True)
class PileRebuiltPublic(ArenaFact):
    """``PileRebuilt`` as everyone sees it: the pile's count, not its order."""

    TYPE: ClassVar[str] = "PileRebuilt"
    removed: list[str] = field(metadata=_doc("the card ids removed from the round (face up)"))
    pile_count: int = field(metadata=_doc("the cards in the new pile"))


@dataclass(frozen=True)
class TurnStarted(ArenaFact):
    """A player's turn begins."""

    TYPE: ClassVar[str] = "TurnStarted"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    turn: int = field(metadata=_doc("the turn, counted over the whole match from 1"))
    round: int = field(metadata=_doc("the round"))


@dataclass(frozen=True)
class CardPlayed(ArenaFact):
    """A card played from the hand as the turn's action."""

    TYPE: ClassVar[str] = "CardPlayed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_CARD)
    target: str | None = field(metadata=_doc("the opponent aimed at (fireball, explosion, hand of shadows)"))


@dataclass(frozen=True)
class ComboPlayed(ArenaFact):
    """Two cards of the hand played as one combo, as the turn's action, and the bonus picked."""

    TYPE: ClassVar[str] = "ComboPlayed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    combo: str = field(metadata=_doc("`flame_burst`, `magic_fortress`, `supreme_counter`, `desecration`..."))
    cards: list[str] = field(metadata=_doc("the two card ids"))
    target: str | None = field(metadata=_doc("the opponent it aims at (flame burst)"))
    bonus: str = field(metadata=_doc("`draw` or `life`"))


@dataclass(frozen=True)
class CardStolen(ArenaFact):
    """Hand of shadows: a card taken at random from a player's hand."""

    TYPE: ClassVar[str] = "CardStolen"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_doc("the thief's id"))
    victim: str = field(metadata=_doc("the player it was taken from"))
    card: str = field(metadata=_CARD)


@dataclass(frozen=True)
class CardStolenPublic(ArenaFact):
    """``CardStolen`` as the others see it: no card."""

    TYPE: ClassVar[str] = "CardStolen"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_doc("the thief's id"))
    victim: str = field(metadata=_doc("the player it was taken from"))


@dataclass(frozen=True)
class CardTaken(ArenaFact):
    """Desecration: a card of the discard pile into the hand (in public)."""

    TYPE: ClassVar[str] = "CardTaken"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_CARD)


@dataclass(frozen=True)
class AttackDeclared(ArenaFact):
    """An attack on one player, to be answered in its reaction window (Lightning: one per opponent)."""

    TYPE: ClassVar[str] = "AttackDeclared"
    attack: int = field(metadata=_ATTACK)
    attacker: str = field(metadata=_doc("the attacker's id"))
    target: str = field(metadata=_doc("the attacked player's id"))
    damage: int = field(metadata=_doc("the damage before any answer"))
    source: str = field(metadata=_doc("the card kind or combo that attacks"))


@dataclass(frozen=True)
class ReactionWindowOpened(ArenaFact):
    """The attacked player may answer with a defence card or pass (10 s)."""

    TYPE: ClassVar[str] = "ReactionWindowOpened"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    attack: int = field(metadata=_ATTACK)
    player_id: str = field(metadata=_doc("the attacked player, who is awaited"))


@dataclass(frozen=True)
class ReactionPlayed(ArenaFact):
    """A defence card played in answer to the attack."""

    TYPE: ClassVar[str] = "ReactionPlayed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_CARD)
    attack: int = field(metadata=_ATTACK)


@dataclass(frozen=True)
class ReactionPassed(ArenaFact):
    """The attacked player let the attack through."""

    TYPE: ClassVar[str] = "ReactionPassed"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    attack: int = field(metadata=_ATTACK)
    timed_out: bool = field(metadata=_doc("whether the window's 10 s ran out"))


@dataclass(frozen=True)
class AttackResolved(ArenaFact):
    """The attack's outcome after the answer (a defence card, a ward or none)."""

    TYPE: ClassVar[str] = "AttackResolved"
    # no `player`, but its type is Arcana's too, whose version 2 renamed it: one version per type
    VERSION: ClassVar[int] = 2
    attack: int = field(metadata=_ATTACK)
    attacker: str = field(metadata=_doc("the attacker's id"))
    target: str = field(metadata=_doc("the attacked player's id"))
    answer: str | None = field(metadata=_doc("the defence card kind or ward that answered, or null"))
    to_target: int = field(metadata=_doc("the damage dealt to the target"))
    to_attacker: int = field(metadata=_doc("the damage sent back to the attacker (mirror, counter, recoil)"))


@dataclass(frozen=True)
class AttackCancelled(ArenaFact):
    """An attack whose attacker or target left the round before it was answered."""

    TYPE: ClassVar[str] = "AttackCancelled"
    attack: int = field(metadata=_ATTACK)


@dataclass(frozen=True)
class LifeLost(ArenaFact):
    """Damage taken."""

    TYPE: ClassVar[str] = "LifeLost"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    amount: int = field(metadata=_doc("the life lost"))
    life: int = field(metadata=_doc("the life left"))
    by: str | None = field(metadata=_doc("the player who dealt it (null: an explosion's recoil)"))


@dataclass(frozen=True)
class LifeGained(ArenaFact):
    """Life gained (never above 9)."""

    TYPE: ClassVar[str] = "LifeGained"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    amount: int = field(metadata=_doc("the life gained"))
    life: int = field(metadata=_doc("the life now"))


@dataclass(frozen=True)
class WardRaised(ArenaFact):
    """A protection until the start of the player's next turn."""

    TYPE: ClassVar[str] = "WardRaised"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    ward: str = field(metadata=_doc("`veil`, `fortress` or `counter`"))


@dataclass(frozen=True)
class BonusTaken(ArenaFact):
    """A combo's bonus, once its attacks are resolved."""

    TYPE: ClassVar[str] = "BonusTaken"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    bonus: str = field(metadata=_doc("`draw` or `life`"))


@dataclass(frozen=True)
class ActionEnded(ArenaFact):
    """The action is over: the discard phase begins."""

    TYPE: ClassVar[str] = "ActionEnded"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    skipped: bool = field(metadata=_doc("whether the player had no action to take"))


@dataclass(frozen=True)
class CardDiscarded(ArenaFact):
    """A card from the hand to the discard pile (face up)."""

    TYPE: ClassVar[str] = "CardDiscarded"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    card: str = field(metadata=_CARD)
    reason: str = field(metadata=_doc("`swap` or `hand_limit`"))


@dataclass(frozen=True)
class TurnTimedOut(ArenaFact):
    """The awaited player's 60 s ran out (the action draws if it may; the turn ends)."""

    TYPE: ClassVar[str] = "TurnTimedOut"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    turn: int = field(metadata=_doc("the turn"))
    phase: str = field(metadata=_doc("`action` or `discard`"))


@dataclass(frozen=True)
class TurnEnded(ArenaFact):
    """A turn is over."""

    TYPE: ClassVar[str] = "TurnEnded"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)


@dataclass(frozen=True)
class PlayerOut(ArenaFact):
    """A player at 0 life leaves the round; their hand goes to the discard pile."""

    TYPE: ClassVar[str] = "PlayerOut"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    cards: list[str] = field(metadata=_doc("the hand, now in the discard pile"))


@dataclass(frozen=True)
class PlayerLeft(ArenaFact):
    """A player leaves the match (conceded or forfeited); the others play on."""

    TYPE: ClassVar[str] = "PlayerLeft"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    player_id: str = field(metadata=_PLAYER)
    reason: str = field(metadata=_doc("`concede` or `disconnect`"))
    cards: list[str] = field(metadata=_doc("the hand, now in the discard pile"))


@dataclass(frozen=True)
class RoundWon(ArenaFact):
    """The last one standing (or the most life when the magic ran out) wins the round."""

    TYPE: ClassVar[str] = "RoundWon"
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    round: int = field(metadata=_doc("the round"))
    player_id: str = field(metadata=_PLAYER)
    wins: int = field(metadata=_doc("the rounds that player has won (3 win the match)"))
    how: str = field(metadata=_doc("`last_standing` or `most_life`"))


@dataclass(frozen=True)
class RoundReplayed(ArenaFact):
    """The last players fell together (or tied on life): the round is played again."""

    TYPE: ClassVar[str] = "RoundReplayed"
    round: int = field(metadata=_doc("the round"))
    how: str = field(metadata=_doc("`last_standing` or `most_life`"))


@dataclass(frozen=True)
class MatchEnded(ArenaFact):
    """The rules' end of a match (the match service stores it enriched: see its catalog)."""

    TYPE: ClassVar[str] = "MatchEnded"
    winner: str = field(metadata=_doc("the winner's id"))
    reason: str = field(metadata=_doc("`rounds` or `last_in_match`"))
    placements: list[list[str]] = field(metadata=_doc("groups of player ids, best first"))


FACTS: tuple[type[Any], ...] = (
    MatchStarted,
    RoundStarted,
    CardDrawn,
    NothingDrawn,
    PileRebuilt,
    TurnStarted,
    CardPlayed,
    ComboPlayed,
    CardStolen,
    CardTaken,
    AttackDeclared,
    ReactionWindowOpened,
    ReactionPlayed,
    ReactionPassed,
    AttackResolved,
    AttackCancelled,
    LifeLost,
    LifeGained,
    WardRaised,
    BonusTaken,
    ActionEnded,
    CardDiscarded,
    TurnTimedOut,
    TurnEnded,
    PlayerOut,
    PlayerLeft,
    RoundWon,
    RoundReplayed,
    MatchEnded,
)

# What everyone (the live topic) sees of each event: every event is public, some in a form of their own.
OWN_PUBLIC_FORMS = (
    MatchStartedPublic,
    RoundStartedPublic,
    CardDrawnPublic,
    PileRebuiltPublic,
    CardStolenPublic,
)
PUBLIC: dict[str, type[Any]] = {**{f.TYPE: f for f in FACTS}, **{f.TYPE: f for f in OWN_PUBLIC_FORMS}}
