"""Links (combos): read from the roles and tags of a line's five, baked into the stats the fight uses.

A card matches a link's name when it carries it as a role or a tag, and counts once per link. Several links
may be active; within one link only its best tier counts. Armour never drops below 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .catalog import Card
from .constants import Link, Role, Tag

Bonus = tuple[int, int, int]  # +ATK, +ARM, +HP


@dataclass(frozen=True, slots=True)
class Fighter:
    """A card as it enters the fight: its id, roles and stats with every link baked in."""

    card_id: str
    roles: tuple[str, ...]
    atk: int
    arm: int
    hp: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "card_id": self.card_id,
            "roles": list(self.roles),
            "atk": self.atk,
            "arm": self.arm,
            "hp": self.hp,
        }


@dataclass(frozen=True, slots=True)
class ActiveLink:
    """A link that lights: its id, the tier reached, the slots that match it, each slot's bonus."""

    id: str
    tier: int
    slots: tuple[int, ...]
    bonus: tuple[Bonus, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tier": self.tier,
            "slots": list(self.slots),
            "bonus": [list(b) for b in self.bonus],
        }


_SUPPORTISH: Final = frozenset({Role.SUPPORT.value, Tag.HEALER.value})
_FRONTISH: Final = frozenset({Role.TANK.value, Tag.INITIATOR.value})
_DAMAGEISH: Final = frozenset({Role.CARRY.value, Role.NUKER.value})
_CONTROL: Final = frozenset({Tag.DISABLER.value, Tag.INITIATOR.value})
_NUKER: Final = frozenset({Role.NUKER.value})
_ESCAPE: Final = frozenset({Tag.ESCAPE.value})
_PUSHER: Final = frozenset({Tag.PUSHER.value})
_CARRY, _TANK = Role.CARRY.value, Role.TANK.value


def _matching(cards: Sequence[Card], wanted: frozenset[str]) -> tuple[int, ...]:
    return tuple(i for i, c in enumerate(cards) if not c.words.isdisjoint(wanted))


def _all(cards: Sequence[Card], bonus: Bonus) -> tuple[Bonus, ...]:
    return (bonus,) * len(cards)


def _anchor(cards: Sequence[Card]) -> ActiveLink | None:
    """One support or healer: everyone +1 armour."""
    slots = _matching(cards, _SUPPORTISH)
    return ActiveLink(Link.ANCHOR.value, 1, slots, _all(cards, (0, 1, 0))) if slots else None


def _classic(cards: Sequence[Card]) -> ActiveLink | None:
    """Three different cards, one tank/initiator, one carry/nuker, one support/healer: everyone +1 HP."""
    fronts, hitters, helpers = (_matching(cards, group) for group in (_FRONTISH, _DAMAGEISH, _SUPPORTISH))
    for a in fronts:
        for b in hitters:
            for c in helpers:
                if len({a, b, c}) == 3:
                    return ActiveLink(Link.CLASSIC.value, 1, tuple(sorted((a, b, c))), _all(cards, (0, 0, 1)))
    return None


def _control_net(cards: Sequence[Card]) -> ActiveLink | None:
    """Disablers and initiators: two, everyone +1 armour; three or more, +1 armour and +1 HP."""
    slots = _matching(cards, _CONTROL)
    if len(slots) >= 3:
        return ActiveLink(Link.CONTROL_NET.value, 3, slots, _all(cards, (0, 1, 1)))
    if len(slots) == 2:
        return ActiveLink(Link.CONTROL_NET.value, 2, slots, _all(cards, (0, 1, 0)))
    return None


def _nuker_choir(cards: Sequence[Card]) -> ActiveLink | None:
    """Two nukers: everyone +1 ATK."""
    slots = _matching(cards, _NUKER)
    return ActiveLink(Link.NUKER_CHOIR.value, 2, slots, _all(cards, (1, 0, 0))) if len(slots) >= 2 else None


def _slippery(cards: Sequence[Card]) -> ActiveLink | None:
    """Two escapes: those cards +1 armour."""
    slots = _matching(cards, _ESCAPE)
    if len(slots) < 2:
        return None
    bonus = tuple((0, 1, 0) if i in slots else (0, 0, 0) for i in range(len(cards)))
    return ActiveLink(Link.SLIPPERY.value, 2, slots, bonus)


def _push(cards: Sequence[Card]) -> ActiveLink | None:
    """Two pushers: carries +1 ATK, tanks -1 armour."""
    slots = _matching(cards, _PUSHER)
    if len(slots) < 2:
        return None
    bonus = tuple((int(_CARRY in c.roles), -int(_TANK in c.roles), 0) for c in cards)
    return ActiveLink(Link.PUSH.value, 2, slots, bonus)


LINKS: Final[tuple[Callable[[Sequence[Card]], ActiveLink | None], ...]] = (
    _anchor,
    _classic,
    _control_net,
    _nuker_choir,
    _slippery,
    _push,
)


def active_links(cards: Sequence[Card]) -> list[ActiveLink]:
    """The links a line lights, in the order of `Link`."""
    return [link for find in LINKS if (link := find(cards)) is not None]


def bake(cards: Sequence[Card], links: Sequence[ActiveLink]) -> tuple[Fighter, ...]:
    """Each card's stats with every active link's bonus added (armour at least 0)."""
    stats = [[c.atk, c.arm, c.hp] for c in cards]
    for link in links:
        for row, bonus in zip(stats, link.bonus, strict=True):
            row[0] += bonus[0]
            row[1] += bonus[1]
            row[2] += bonus[2]
    return tuple(
        Fighter(c.id, c.roles, atk, max(0, arm), hp) for c, (atk, arm, hp) in zip(cards, stats, strict=True)
    )
