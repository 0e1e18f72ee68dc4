"""A match as JSON, for the snapshots the service keeps of long streams (``restore(snapshot(m)) == m``).

A snapshot holds the ``Match`` (mode, players, bots, clocks, presence, version) through the one codec
(``libs.codec``) and its game's state in the game's own form (``Game.snapshot``). Its shape is
``SHAPE`` plus the game's ``snapshot_shape``: bump ``SHAPE`` whenever ``Match`` changes (a field added,
removed or retyped), and a game bumps its own when its state does. A snapshot of another shape (or of
a game that keeps none) is ignored: the match is folded from its first event, and its next snapshot
replaces the old one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from libs import codec

from .model import Match, game_named

SHAPE = 1


def shape_of(game: str) -> str:
    """The shape a snapshot of a match of ``game`` has now (``<SHAPE>/<game>:<its shape>``)."""
    return f"{SHAPE}/{game}:{game_named(game).snapshot_shape}"


def snapshot(m: Match) -> dict[str, Any] | None:
    """``m`` as JSON-able data, or None when it is not worth keeping (its game keeps no snapshots)."""
    rules = None
    if m.rules is not None:
        rules = game_named(m.game).snapshot(m.rules)
        if rules is None:
            return None
    return {"shape": shape_of(m.game), "match": codec.encode(replace(m, rules=rules))}


def restore(data: Mapping[str, Any]) -> Match | None:
    """The match ``data`` (a ``snapshot``) holds; None when it is of another shape (fold instead)."""
    kept = data.get("match")
    if not isinstance(kept, Mapping) or data.get("shape") != _current_shape(kept.get("game")):
        return None
    m: Match = codec.decode(Match, kept)
    return m if m.rules is None else replace(m, rules=game_named(m.game).restore(m.rules))


def _current_shape(game: object) -> str | None:
    """The current shape for ``game`` (None: not a hosted game's snapshot, never current)."""
    try:
        return shape_of(str(game)) if isinstance(game, str) else None
    except LookupError:
        return None
