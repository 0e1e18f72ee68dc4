"""A tiny fourth game for the tests: "first to say 3 wins". Players take turns saying the next number
or the one after (1 or 2 more than the count); whoever says 3 wins. A turn lasts 5 s, then passes to
the other player. The seed picks who starts and stays secret.

Its offer (``libs.games.offer``) gives it ranked and casual queues of two without decks, an Elo ladder
of its own (stream ``count-rating-<player>``), a rewards table (30 coins a win, 10 a loss or draw) and
pass XP with the quests every game reports. Registered for a test stack by naming this module in
``ARCANA_GAMES``: matchmaking queues it, economy pays it and ratings rates it with no change to any
service (tests/integration/*/test_fourth_game.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from libs import games as g
from libs.games import offer as o

WIN_COINS, OTHER_COINS = 30, 10
OFFER = o.Offer(
    queue=o.Queue((o.RANKED, o.CASUAL), (2,)),
    ladder=o.Ladder(o.ELO, "count-rating"),
    rewards=o.Rewards.every_mode(o.Reward("coins", WIN_COINS), o.Reward("coins", OTHER_COINS)),
    progress=o.Progress(facts=("matches", "wins")),
)


class NotYourTurn(g.IllegalCommand):
    code = "not_your_turn"


class WrongNumber(g.IllegalCommand):
    code = "wrong_number"


class Over(g.MatchOver):
    pass


@dataclass(frozen=True)
class Count:
    players: tuple[str, ...]
    seed: int
    active: int
    count: int = 0
    turn: int = 1
    turns: tuple[int, int] = (0, 0)  # turns each player started
    winner: str | None = None
    reason: str | None = None


class CountGame(g.Game):
    name = "count"
    seats = frozenset({2})
    errors = (NotYourTurn, WrongNumber, Over)
    commands = {
        "say": g.CommandShape({"number": g.Param("int", required=True, low=1, high=3)}, "Say a number.")
    }
    offer = OFFER

    def setup(self, setup: g.Setup) -> list[dict[str, Any]]:
        ids = [s.id for s in setup.seats]
        first = setup.options.get("first") or ids[setup.seed % 2]
        return [{"type": "CountStarted", "players": ids, "first": first, "seed": setup.seed}]

    def decide(self, state: Count, command: Any) -> list[dict[str, Any]]:
        player, kind = command["player"], command["type"]
        if state.winner is not None:
            raise Over("the match has ended")
        if kind == "forfeit" or kind == "concede":
            return [self._end(state, player, command.get("reason", "concede"))]
        if player != state.players[state.active]:
            raise NotYourTurn("wait for your turn")
        if kind == "timeout":
            return [{"type": "TurnPassed", "player_id": player}]
        if command.get("number") not in (state.count + 1, state.count + 2):
            raise WrongNumber(f"say {state.count + 1} or {state.count + 2}")
        said = [{"type": "NumberSaid", "player_id": player, "number": command["number"]}]
        if command["number"] == 3:
            said.append({"type": "MatchEnded", "winner": player, "reason": "counted"})
        return said

    def _end(self, state: Count, loser: str, reason: str) -> dict[str, Any]:
        return {
            "type": "MatchEnded",
            "winner": next(p for p in state.players if p != loser),
            "reason": reason,
        }

    def evolve(self, state: Count | None, event: Any) -> Count:
        kind = event["type"]
        if kind == "CountStarted":
            first = event["players"].index(event["first"])
            return Count(tuple(event["players"]), event["seed"], first, turns=(1 - first, first))
        assert state is not None
        if kind == "NumberSaid":
            state = replace(state, count=event["number"])
        if kind == "MatchEnded":
            return replace(state, winner=event["winner"], reason=event["reason"])
        active = 1 - state.active
        turns = tuple(n + (i == active) for i, n in enumerate(state.turns))
        return replace(state, active=active, turn=state.turn + 1, turns=turns)  # type: ignore[arg-type]

    def forfeit(self, player: str, reason: str) -> dict[str, Any]:
        return {"type": "forfeit", "player": player, "reason": reason}

    def view(self, state: Count, viewer: str) -> dict[str, Any]:
        return {"count": state.count, "turn": state.turn, "winner": state.winner, "reason": state.reason}

    def visible_event(self, event: Any, viewer: str | None) -> dict[str, Any] | None:
        return {k: v for k, v in event.items() if k != "seed"}

    def legal_commands(self, state: Count, player: str) -> list[dict[str, Any]]:
        if state.winner is not None or player != state.players[state.active]:
            return []
        return [{"type": "say", "number": n} for n in (state.count + 1, state.count + 2) if n <= 3]

    def waits(self, state: Count) -> list[g.Wait]:
        if state.winner is not None:
            return []
        active = state.players[state.active]
        return [g.Wait(active, f"turn:{state.turn}", 5, {"type": "timeout", "player": active})]

    def bot(self, state: Count, player: str, rng: random.Random) -> dict[str, Any] | None:
        legal = self.legal_commands(state, player)
        return {**legal[-1], "player": player} if legal else None

    def progress(self, state: Count) -> g.Progress:
        return g.Progress("counting", state.turn, state.players[state.active])

    def result(self, state: Count) -> g.Result | None:
        if state.winner is None:
            return None
        loser = next(p for p in state.players if p != state.winner)
        stats = {p: {"turns": n} for p, n in zip(state.players, state.turns, strict=True)}
        return g.Result(((state.winner,), (loser,)), state.winner, str(state.reason), state.turn, 1, stats)

    def seated(self, state: Count) -> list[str]:
        return list(state.players)

    def deck_problems(self, deck: Any) -> list[str]:
        return []

    def state_hash(self, state: Count) -> str:
        return repr(state)


GAME = CountGame()
