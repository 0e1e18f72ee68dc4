"""The line's events, typed: one frozen dataclass per event type, the fields of its data (the ``type``
key aside) with their JSON types, for readers and for the generated schemas (``docs/schemas/``). The
resolution emits plain dicts (the hot path); a property test checks that every event it emits is exactly
one of these.

The only secret of a fight is its seed: ``FightStarted`` has a public form without it (what a player,
a spectator and so the live topic see); every other event is public whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from libs.games.sdk.facts import Fact

from .constants import Ev

_ROUND = {"doc": "the round, 1..40"}
_SLOT = "a slot of the line, 0 (the front, left) .. 4"


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


class LineFact(Fact):
    """Base of the line's typed events (``GAME``: apart from Arcana's and the arena's in the catalog)."""

    GAME: ClassVar[str] = "line"


_PLAYERS = (
    "the two sides: `{id, line: [5 card ids, front first], links: [{id, tier, slots, bonus}], "
    "fighters: [{card_id, roles, atk, arm, hp}, in row order, the links baked in]}`"
)


@dataclass(frozen=True)
class FightStartedPublic(LineFact):
    """``FightStarted`` as the players and spectators see it: without the seed."""

    TYPE: ClassVar[str] = Ev.FIGHT_STARTED.value
    match_id: str = field(metadata=_doc("the match id"))
    first: str = field(metadata=_doc("the id of the player whose side acts first in round 1"))
    players: list[dict[str, Any]] = field(metadata=_doc(_PLAYERS))
    rules: int = field(
        default=1,
        kw_only=True,
        metadata=_doc(
            "the version of the line's rules the fight is played under (absent: 1, every fight before "
            "versions; 2: one card may meet several of the classic link's requirements)"
        ),
    )


@dataclass(frozen=True)
class FightStarted(FightStartedPublic):
    """A fight's set-up: both lines with the links they light and the stats the fight uses, the side
    that acts first in round 1, and the seed."""

    seed: int = field(metadata=_doc("the match seed (the side acting first in round 1 is drawn from it)"))


@dataclass(frozen=True)
class RoundStarted(LineFact):
    """A round begins: the side acting first in it, the ATK every hit gains, what a support heals."""

    TYPE: ClassVar[str] = Ev.ROUND_STARTED.value
    round: int = field(metadata=_ROUND)
    first: str = field(metadata=_doc("the id of the player whose side acts first this round"))
    ramp: int = field(
        metadata=_doc("ATK every hit gains this round: 0, then +1 from 11, +2 from 21, +3 from 31")
    )
    heal: int = field(
        metadata=_doc("HP each living support heals after the hits: 2, 1 from round 6, 0 from 11")
    )


@dataclass(frozen=True)
class CardHit(LineFact):
    """A card hit an enemy card (the damage applies at once)."""

    TYPE: ClassVar[str] = Ev.CARD_HIT.value
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    round: int = field(metadata=_ROUND)
    player_id: str = field(metadata=_doc("the id of the hitting card's player"))
    slot: int = field(metadata=_doc(f"the hitting card: {_SLOT}"))
    target_player: str = field(metadata=_doc("the id of the hit card's player"))
    target: int = field(metadata=_doc(f"the hit card: {_SLOT}"))
    hit: str = field(
        metadata=_doc("`front`, `carry_front` (a carry on its own front: half) or `back` (a nuker's)")
    )
    damage: int = field(metadata=_doc("the damage, at least 1"))


@dataclass(frozen=True)
class CardDied(LineFact):
    """A card fell to 0 HP: it acts no more."""

    TYPE: ClassVar[str] = Ev.CARD_DIED.value
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    round: int = field(metadata=_ROUND)
    player_id: str = field(metadata=_doc("the id of the fallen card's player"))
    slot: int = field(metadata=_doc(f"the fallen card: {_SLOT}"))


@dataclass(frozen=True)
class CardHealed(LineFact):
    """A support healed an ally after the round's hits (never above its max HP)."""

    TYPE: ClassVar[str] = Ev.CARD_HEALED.value
    VERSION: ClassVar[int] = 2  # 1: the player named `player` (upcast on read)
    round: int = field(metadata=_ROUND)
    player_id: str = field(metadata=_doc("the id of the side's player"))
    slot: int = field(metadata=_doc(f"the healing support: {_SLOT}"))
    target: int = field(metadata=_doc(f"the healed ally: {_SLOT}"))
    amount: int = field(metadata=_doc("HP regained"))


@dataclass(frozen=True)
class RoundEnded(LineFact):
    """A round is over, with a card on each side still standing."""

    TYPE: ClassVar[str] = Ev.ROUND_ENDED.value
    round: int = field(metadata=_ROUND)


@dataclass(frozen=True)
class MatchEnded(LineFact):
    """The rules' end of a fight (the match service stores it enriched: see its catalog)."""

    TYPE: ClassVar[str] = Ev.MATCH_ENDED.value
    round: int = field(metadata=_doc("the last round fought"))
    winner: str = field(metadata=_doc("the winner's id (a fight has no draw)"))
    loser: str = field(metadata=_doc("the loser's id"))
    reason: str = field(metadata=_doc("`line_fell`, `frozen` or `round_limit`"))
    tie_break: str | None = field(
        metadata=_doc("what decided a frozen or round-limit fight (`living_cards` .. `technical`), or null")
    )
    score: int = field(metadata=_doc("the winner's living cards' current HP"))


FACTS: tuple[type[Fact], ...] = (
    FightStarted,
    RoundStarted,
    CardHit,
    CardDied,
    CardHealed,
    RoundEnded,
    MatchEnded,
)

# What the live topic (and a player's view) shows of each event: FightStarted without its seed.
PUBLIC: dict[str, type[Fact]] = {
    **{f.TYPE: f for f in FACTS},
    FightStartedPublic.TYPE: FightStartedPublic,
}
