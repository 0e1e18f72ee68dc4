"""Plain-str names of events, phases and keywords: the enum values of `constants`, as plain strings
because the hot path (decide, evolve) compares them millions of times and enum lookups cost more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .constants import HERO, Ev, Keyword, Phase

Event = dict[str, Any]
Command = Mapping[str, Any]

MATCH_STARTED, DECK_SHUFFLED, CARD_DRAWN = Ev.MATCH_STARTED.value, Ev.DECK_SHUFFLED.value, Ev.CARD_DRAWN.value
ARCANA_REVEALED, MULLIGAN_COMPLETED = Ev.ARCANA_REVEALED.value, Ev.MULLIGAN_COMPLETED.value
TURN_STARTED, HERO_DRAINED, MANA_REFILLED = (
    Ev.TURN_STARTED.value,
    Ev.HERO_DRAINED.value,
    Ev.MANA_REFILLED.value,
)
CARD_PLAYED, UNIT_SUMMONED, UNIT_BUFFED = Ev.CARD_PLAYED.value, Ev.UNIT_SUMMONED.value, Ev.UNIT_BUFFED.value
SPELL_CAST, ATTACK_RESOLVED, DAMAGE_DEALT = (
    Ev.SPELL_CAST.value,
    Ev.ATTACK_RESOLVED.value,
    Ev.DAMAGE_DEALT.value,
)
WARD_BROKEN, HERO_HEALED, UNIT_DIED = Ev.WARD_BROKEN.value, Ev.HERO_HEALED.value, Ev.UNIT_DIED.value
TURN_TIMED_OUT, TURN_ENDED, MATCH_ENDED = Ev.TURN_TIMED_OUT.value, Ev.TURN_ENDED.value, Ev.MATCH_ENDED.value

PLAYING, MULLIGAN, ENDED = Phase.PLAYING.value, Phase.MULLIGAN.value, Phase.ENDED.value
TAUNT, RUSH, WARD, LIFESTEAL = (
    Keyword.TAUNT.value,
    Keyword.RUSH.value,
    Keyword.WARD.value,
    Keyword.LIFESTEAL.value,
)

__all__ = [
    "ARCANA_REVEALED",
    "ATTACK_RESOLVED",
    "CARD_DRAWN",
    "CARD_PLAYED",
    "DAMAGE_DEALT",
    "DECK_SHUFFLED",
    "ENDED",
    "HERO",
    "HERO_DRAINED",
    "HERO_HEALED",
    "LIFESTEAL",
    "MANA_REFILLED",
    "MATCH_ENDED",
    "MATCH_STARTED",
    "MULLIGAN",
    "MULLIGAN_COMPLETED",
    "PLAYING",
    "RUSH",
    "SPELL_CAST",
    "TAUNT",
    "TURN_ENDED",
    "TURN_STARTED",
    "TURN_TIMED_OUT",
    "UNIT_BUFFED",
    "UNIT_DIED",
    "UNIT_SUMMONED",
    "WARD",
    "WARD_BROKEN",
    "Command",
    "Event",
]
