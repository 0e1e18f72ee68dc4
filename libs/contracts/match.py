"""What match publishes for other services on ``arcana.match.events`` and ``arcana.match.lifecycle``
(matchmaking settles tickets by the first two; economy, progression and ratings read ``MatchEnded``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import FIRST_GAME, IntegrationEvent, integration_event


def player_named_player_id(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2 of every event of a match's stream that names a player: the acting player's
    id, stored as ``player`` in version 1, is ``player_id`` (as in every other stream's events).
    The key keeps its place; data without ``player`` is returned as it is (a copy)."""
    return {("player_id" if k == "player" else k): v for k, v in data.items()}


@integration_event("MatchCreated", version=1)
@dataclass(frozen=True)
class MatchCreated(IntegrationEvent):
    """A match exists (the first event of its stream `match-<id>`)."""

    match_id: str = field(metadata={"doc": "the match id (UUID)"})
    mode: str = field(
        metadata={
            "doc": "`ranked`, `casual`, `practice`, `admin` or `tournament` (a tournament bracket's fight)"
        }
    )
    players: list[str] = field(
        metadata={"doc": "the player ids in seat order (a bot's id starts with `bot-`)"}
    )
    bot: str | None = field(metadata={"doc": "the bot's player id in a practice match"})
    request_id: str | None = field(metadata={"doc": "the MatchRequested that asked for it"})
    game: str = field(
        default=FIRST_GAME,
        metadata={"doc": "the game played (`libs.games`); absent from matches created before: `arcana`"},
    )
    bots: list[str] = field(
        default_factory=list,
        metadata={
            "doc": "every bot's player id in a practice match (the arena seats 1 to 3; `bot` is the "
            "first); absent from matches created before: `[bot]` when there is a bot"
        },
    )


@integration_event("MatchRequestRejected", version=1)
@dataclass(frozen=True)
class MatchRequestRejected(IntegrationEvent):
    """A MatchRequested could not start a match (the only event of its stream)."""

    match_id: str = field(metadata={"doc": "the match id the request would have had"})
    request_id: str = field(metadata={"doc": "the request's id"})
    mode: Any = field(metadata={"doc": "the mode as requested"})
    players: Any = field(metadata={"doc": "the players as requested"})
    reason: str = field(
        metadata={
            "doc": "`invalid_game`, `invalid_deck`, `invalid_mode`, `invalid_players`, `unknown_player` "
            "(accounts never registered them), `match_in_progress` (a player's ranked or casual match "
            "has not ended), `illegal_deck` (an active deck not legal against the collection), "
            "`deck_mismatch` (not the player's active deck) or a game's code"
        }
    )
    message: str = field(metadata={"doc": "what was wrong, for people"})
    problems: Any = field(metadata={"doc": "details: per player, each deck problem"})
    game: Any = field(default=FIRST_GAME, metadata={"doc": "the game as requested (absent before: `arcana`)"})


@integration_event("PlayerDisconnected", version=2)
@dataclass(frozen=True)
class PlayerDisconnected(IntegrationEvent):
    """A player made no request for 20 s; 120 s after `since` they forfeit."""

    UPCASTERS = {1: player_named_player_id}  # 1: the player named `player`

    player_id: str = field(metadata={"doc": "the player id"})
    since: str = field(metadata={"doc": "when they went silent (ISO 8601, UTC)"})


@integration_event("PlayerReconnected", version=2)
@dataclass(frozen=True)
class PlayerReconnected(IntegrationEvent):
    """A disconnected player made a request again."""

    UPCASTERS = {1: player_named_player_id}  # 1: the player named `player`

    player_id: str = field(metadata={"doc": "the player id"})
    since: str = field(
        metadata={
            "doc": "when they went silent: the `since` of the PlayerDisconnected this ends (ISO 8601, UTC)"
        }
    )


@integration_event("MatchEnded", version=1)
@dataclass(frozen=True)
class MatchEnded(IntegrationEvent):
    """A match is over: who won, why, and what each player did (quests, rewards, ratings read it)."""

    winner: str = field(metadata={"doc": "the winner's player id, or `draw`"})
    reason: str = field(
        metadata={
            "doc": "`hero_killed`, `concede`, `timeouts`, `disconnect`, `suspended` (an operator) or `draw`"
        }
    )
    match_id: str = field(metadata={"doc": "the match id"})
    mode: str = field(
        metadata={
            "doc": "`ranked`, `casual`, `practice`, `admin` or `tournament` (a tournament bracket's fight)"
        }
    )
    players: list[str] = field(metadata={"doc": "the player ids, in seat order"})
    loser: str | None = field(
        metadata={"doc": "the loser's id; null on a draw (and with more than two players)"}
    )
    draw: bool = field(metadata={"doc": "whether it was a draw"})
    turns: int = field(metadata={"doc": "turns started (rewards count only matches with turns >= 4)"})
    round: int = field(metadata={"doc": "the round reached"})
    bot: str | None = field(default=None, metadata={"doc": "the bot's id in a practice match"})
    stats: dict[str, Any] = field(
        default_factory=dict,
        metadata={
            "doc": "per player id: `units_played` (by tribe), `spells_cast`, `hero_damage`, "
            "`cards_drawn`, `units_killed`, `turns`, `went_first` (Arcana's; each game has its own, "
            "all with `turns`)"
        },
    )
    game: str = field(
        default=FIRST_GAME, metadata={"doc": "the game played (`arcana` when absent: matches before games)"}
    )
    placements: list[list[str]] = field(
        default_factory=list,
        metadata={
            "doc": "groups of player ids, best first (a draw: one group of all); absent from matches "
            "ended before (read them as `[[winner], [loser]]`, or one group on a draw)"
        },
    )
    verdict: dict[str, dict[str, Any]] = field(
        default_factory=dict,
        metadata={
            "doc": "per player id, what the match counts for them (docs/rules.md, Fair play): `coins`, "
            "`xp` (XP and quests), `rating` (their rating moves by the result), each a bool; `reasons` "
            "(per aspect that does not count: `repeat_opponent`, `daily_coin_limit`, `early_concede`, "
            "`too_short`, `mode`, `not_ranked`, `draw`) and `message`, the words shown to the player. "
            "Absent (or empty) on events from before it existed: read them by the rule of their time "
            "(`libs.fairplay.verdicts_of`)"
        },
    )

    def placement_groups(self) -> list[list[str]]:
        """The placements, best first, read as documented for an event from before them: the winner,
        then the others; one group of everyone on a draw."""
        if self.placements:
            return [list(group) for group in self.placements]
        if self.draw:
            return [list(self.players)]
        return [[self.winner], [p for p in self.players if p != self.winner]]

    def practice_humans(self) -> list[str]:
        """The human players of a practice match, won or lost (a bot's id starts with `bot-`); empty
        for another mode. Whether it is a training battle is the game's offer's to say
        (``libs.games.offer.Queue.trains``)."""
        if self.mode != "practice":
            return []
        return [p for p in self.players if p != self.bot and not p.startswith("bot-")]
