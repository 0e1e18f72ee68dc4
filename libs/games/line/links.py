"""Links (combos): read from the roles and tags of a line's five, baked into the stats the fight uses.

A card matches a link's name when it carries it as a role or a tag, and counts once per link. Several links
may be active; within one link only its best tier counts. Armour never drops below 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .catalog import Card
from .constants import RULES_VERSION, Link, Role, Tag

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
# the links' ids as plain strings (an enum member's `.value` is a descriptor call on the hot path)
ANCHOR, CLASSIC, CONTROL_NET = Link.ANCHOR.value, Link.CLASSIC.value, Link.CONTROL_NET.value
NUKER_CHOIR, SLIPPERY, PUSH = Link.NUKER_CHOIR.value, Link.SLIPPERY.value, Link.PUSH.value


# one bit per group of words a link counts
_GROUPS: Final = (_SUPPORTISH, _FRONTISH, _DAMAGEISH, _CONTROL, _NUKER, _ESCAPE, _PUSHER)
SUPPORTISH, FRONTISH, DAMAGEISH, CONTROL, NUKER, ESCAPE, PUSHER = (1 << i for i in range(len(_GROUPS)))
_ALL_GROUPS: Final = (SUPPORTISH, FRONTISH, DAMAGEISH, CONTROL, NUKER, ESCAPE, PUSHER)

# Memos of what a line's setup computes again and again: a catalog has a few dozen word sets, and its
# cards with every combination of link bonuses make a few thousand fighters (building one of these frozen
# records costs several times a dict look-up; being immutable, they are shared safely).
_MASKS: dict[frozenset[str], int] = {}
_FIGHTERS: dict[tuple[str, tuple[str, ...], int, int, int], Fighter] = {}
_LINKS: dict[tuple[str, int, tuple[int, ...], tuple[Bonus, ...]], ActiveLink] = {}


def _mask(words: frozenset[str]) -> int:
    """The groups a card's words fall in, as bits."""
    mask = _MASKS.get(words)
    if mask is None:
        mask = _MASKS[words] = sum(1 << i for i, group in enumerate(_GROUPS) if not words.isdisjoint(group))
    return mask


def _link(id_: str, tier: int, slots: tuple[int, ...], bonus: tuple[Bonus, ...]) -> ActiveLink:
    key = (id_, tier, slots, bonus)
    link = _LINKS.get(key)
    if link is None:
        link = _LINKS[key] = ActiveLink(id_, tier, slots, bonus)
    return link


def _fighter(card: Card, atk: int, arm: int, hp: int) -> Fighter:
    key = (card.id, card.roles, atk, arm, hp)
    fighter = _FIGHTERS.get(key)
    if fighter is None:
        fighter = _FIGHTERS[key] = Fighter(card.id, card.roles, atk, arm, hp)
    return fighter


Slots = Mapping[int, tuple[int, ...]]  # a group's bit -> the slots whose card falls in it
_BITS: dict[int, tuple[int, ...]] = {}  # a mask -> its groups' bits


def _group_slots(masks: Sequence[int]) -> Slots:
    """Each group's slots, in one pass over the line (each link reads one or three groups)."""
    found: dict[int, list[int]] = {group: [] for group in _ALL_GROUPS}
    for i, mask in enumerate(masks):
        bits = _BITS.get(mask)
        if bits is None:
            bits = _BITS[mask] = tuple(group for group in _ALL_GROUPS if mask & group)
        for group in bits:
            found[group].append(i)
    return {group: tuple(slots) for group, slots in found.items()}


def _all(cards: Sequence[Card], bonus: Bonus) -> tuple[Bonus, ...]:
    return (bonus,) * len(cards)


def _anchor(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """One support or healer: everyone +1 armour."""
    slots = groups[SUPPORTISH]
    return _link(ANCHOR, 1, slots, _all(cards, (0, 1, 0))) if slots else None


def _classic(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """In the five, a tank/initiator, a carry/nuker and a support/healer (one card may be several of
    them, rules version 2): everyone +1 HP. The slots: three different cards when the five has them (as
    version 1 chose them), else the fewest that meet the three."""
    fronts, hitters, helpers = groups[FRONTISH], groups[DAMAGEISH], groups[SUPPORTISH]
    if not (fronts and hitters and helpers):
        return None
    return _classic_v1(cards, groups) or _link(
        CLASSIC, 1, _fewest(fronts, hitters, helpers), _all(cards, (0, 0, 1))
    )


def _fewest(fronts: tuple[int, ...], hitters: tuple[int, ...], helpers: tuple[int, ...]) -> tuple[int, ...]:
    """The fewest slots with one in each group (the first such, the groups' slots taken left to right)."""
    return min((tuple(sorted({a, b, c})) for a in fronts for b in hitters for c in helpers), key=len)


def _classic_v1(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """Rules version 1: three different cards, one tank/initiator, one carry/nuker, one support/healer."""
    fronts, hitters, helpers = groups[FRONTISH], groups[DAMAGEISH], groups[SUPPORTISH]
    for a in fronts:
        for b in hitters:
            for c in helpers:
                if len({a, b, c}) == 3:
                    return _link(CLASSIC, 1, tuple(sorted((a, b, c))), _all(cards, (0, 0, 1)))
    return None


def _control_net(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """Disablers and initiators: two, everyone +1 armour; three or more, +1 armour and +1 HP."""
    slots = groups[CONTROL]
    if len(slots) >= 3:
        return _link(CONTROL_NET, 3, slots, _all(cards, (0, 1, 1)))
    if len(slots) == 2:
        return _link(CONTROL_NET, 2, slots, _all(cards, (0, 1, 0)))
    return None


def _nuker_choir(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """Two nukers: everyone +1 ATK."""
    slots = groups[NUKER]
    return _link(NUKER_CHOIR, 2, slots, _all(cards, (1, 0, 0))) if len(slots) >= 2 else None


def _slippery(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """Two escapes: those cards +1 armour."""
    slots = groups[ESCAPE]
    if len(slots) < 2:
        return None
    bonus = tuple((0, 1, 0) if i in slots else (0, 0, 0) for i in range(len(cards)))
    return _link(SLIPPERY, 2, slots, bonus)


def _push(cards: Sequence[Card], groups: Slots) -> ActiveLink | None:
    """Two pushers: carries +1 ATK, tanks -1 armour."""
    slots = groups[PUSHER]
    if len(slots) < 2:
        return None
    bonus = tuple((int(_CARRY in c.roles), -int(_TANK in c.roles), 0) for c in cards)
    return _link(PUSH, 2, slots, bonus)


Finder = Callable[[Sequence[Card], Slots], ActiveLink | None]
# each rules version's link finders, in the order of `Link`
LINKS: Final[dict[int, tuple[Finder, ...]]] = {
    1: (_anchor, _classic_v1, _control_net, _nuker_choir, _slippery, _push),
    2: (_anchor, _classic, _control_net, _nuker_choir, _slippery, _push),
}


def active_links(cards: Sequence[Card], rules: int = RULES_VERSION) -> list[ActiveLink]:
    """The links a line lights under rules version `rules`, in the order of `Link`."""
    groups = _group_slots([_mask(c.words) for c in cards])
    return [link for find in LINKS[rules] if (link := find(cards, groups)) is not None]


def bake(cards: Sequence[Card], links: Sequence[ActiveLink]) -> tuple[Fighter, ...]:
    """Each card's stats with every active link's bonus added (armour at least 0)."""
    fighters = []
    for i, c in enumerate(cards):
        atk, arm, hp = c.atk, c.arm, c.hp
        for link in links:
            more_atk, more_arm, more_hp = link.bonus[i]
            atk += more_atk
            arm += more_arm
            hp += more_hp
        fighters.append(_fighter(c, atk, max(0, arm), hp))
    return tuple(fighters)
