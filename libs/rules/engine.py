"""start / decide / evolve / fold: the rules of Arcana as a pure event-sourced decider.

`decide(state, command)` validates a command against the state and returns the events it causes (raising
`RuleViolation` otherwise); it never changes the state. `evolve(state, event)` applies one event and returns a
new state, leaving its input untouched. Every random outcome (turn order, instance ids, deck orders, the
arcana spread) is written into the events, so `fold(events)` rebuilds the exact state without drawing again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import rng
from .arcana import ARCANA, check_spread, daily_arcana, drain_amount, draw_spread, spread_index
from .board import attacks, cost_of, is_early, summon_stats
from .cards import CATALOG, validate_deck
from .constants import (
    BOARD_SIZE,
    DECK_SIZE,
    DRAW,
    FIRST_HAND,
    FORFEIT_REASONS,
    MAX_HEALTH,
    MAX_MANA,
    MAX_TIMEOUTS,
    SECOND_HAND,
    Cmd,
    EndReason,
    Ev,
)
from .errors import Code, RuleViolation
from .state import PlayerState, State, Unit

Event = dict[str, Any]
Command = Mapping[str, Any]

# Plain-str aliases of the event and command names (faster than enum lookups in the hot path).
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
HERO = "hero"
PLAYING, MULLIGAN, ENDED = "playing", "mulligan", "ended"
TAUNT, RUSH, WARD, LIFESTEAL = "taunt", "rush", "ward", "lifesteal"


# ---------------------------------------------------------------------------------------------------- start


def start(setup: Mapping[str, Any]) -> list[Event]:
    """The opening events of a match: MatchStarted, both DeckShuffled, the first ArcanaRevealed, the opening
    draws (4 for the first player, 5 for the second). The match is then in its mulligan phase.

    `setup`: `match_id`, `seed` (int), `players` (two `{"id", "deck": [20 card ids]}`), optional `first` (a
    player id), `shuffle` (default True; False keeps the deck lists' order, top first, also for the mulligan,
    which then puts returned cards at the bottom), `arcana` (6 ids in spread order), `date` (an ISO date
    string or `datetime.date`: its ascendant replaces one draw of its phase; ignored when `arcana` is given).
    Raises `RuleViolation`: `invalid_deck` for an illegal deck, `invalid_arcana` for a bad spread,
    `invalid_setup` for anything else.
    """
    if not isinstance(setup, Mapping):
        raise RuleViolation(Code.INVALID_SETUP, "setup is a mapping")
    match_id, seed, players = setup.get("match_id"), setup.get("seed"), setup.get("players")
    if not isinstance(match_id, str) or not match_id:
        raise RuleViolation(Code.INVALID_SETUP, "match_id is a non-empty string")
    if type(seed) is not int:
        raise RuleViolation(Code.INVALID_SETUP, "seed is an int")
    if (
        not isinstance(players, list | tuple)
        or len(players) != 2
        or not all(isinstance(p, Mapping) for p in players)
    ):
        raise RuleViolation(Code.INVALID_SETUP, "players is a list of two {id, deck}")
    pids = [p.get("id") for p in players]
    if not all(isinstance(pid, str) and pid for pid in pids) or pids[0] == pids[1]:
        raise RuleViolation(Code.INVALID_SETUP, "player ids are two distinct non-empty strings")
    # "hero" is an attack target and "draw" a MatchEnded winner: a player so named would be ambiguous
    if HERO in pids or DRAW in pids:
        raise RuleViolation(Code.INVALID_SETUP, f"a player id is neither {HERO!r} nor {DRAW!r}")
    for p in players:
        validate_deck(p.get("deck"))
    first = setup.get("first")
    if first is None:
        first_index = rng.stream(seed, rng.TURN_ORDER).randrange(2)
    elif first in pids:
        first_index = pids.index(first)
    else:
        raise RuleViolation(Code.INVALID_SETUP, f"first player {first!r} is not in the match")
    shuffle = setup.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise RuleViolation(Code.INVALID_SETUP, "shuffle is a bool")
    if setup.get("arcana") is not None:
        spread = check_spread(setup["arcana"])
    else:
        date = setup.get("date")
        try:
            ascendant = None if date is None else daily_arcana(str(date))
        except (TypeError, ValueError):
            raise RuleViolation(Code.INVALID_SETUP, f"date {date!r} is not an ISO date") from None
        spread = draw_spread(rng.stream(seed, rng.ARCANA), ascendant)
    numbers = rng.stream(seed, rng.INSTANCE_IDS).sample(range(1, 2 * DECK_SIZE + 1), 2 * DECK_SIZE)
    instances = [[f"c{n}" for n in numbers[i * DECK_SIZE : (i + 1) * DECK_SIZE]] for i in range(2)]
    orders = [list(ids) for ids in instances]
    if shuffle:
        for i, order in enumerate(orders):
            rng.stream(seed, rng.deck_purpose(i)).shuffle(order)
    events: list[Event] = [
        {
            "type": MATCH_STARTED,
            "match_id": match_id,
            "seed": seed,
            "players": [
                {"id": pids[i], "deck": list(players[i]["deck"]), "instances": instances[i]} for i in (0, 1)
            ],
            "first": pids[first_index],
            "arcana": list(spread),
            "shuffle": shuffle,
        },
        {"type": DECK_SHUFFLED, "player": pids[0], "order": orders[0]},
        {"type": DECK_SHUFFLED, "player": pids[1], "order": orders[1]},
        _reveal(spread, 0, 1),
    ]
    cards = {iid: c for i in (0, 1) for iid, c in zip(instances[i], players[i]["deck"], strict=True)}
    for i, n in ((first_index, FIRST_HAND), (1 - first_index, SECOND_HAND)):
        events += [_drawn(pids[i], iid, cards[iid]) for iid in orders[i][:n]]
    return events


def _reveal(spread: tuple[str, ...], index: int, round_: int) -> Event:
    arcana = spread[index]
    return {
        "type": ARCANA_REVEALED,
        "arcana": arcana,
        "phase": ARCANA[arcana].phase,
        "index": index,
        "round": round_,
    }


def _drawn(pid: str, iid: str, card_id: str) -> Event:
    return {"type": CARD_DRAWN, "player": pid, "card": iid, "card_id": card_id}


def _ended(winner: str, reason: str) -> Event:
    return {"type": MATCH_ENDED, "winner": winner, "reason": reason}


# ---------------------------------------------------------------------------------------------------- decide


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`; raises `RuleViolation` (see `Code`) if the rules refuse it.

    Checked in this order: a well-formed command (`invalid_command`), a match still running (`match_over`), a
    player of the match (`unknown_player`), then the command's own rules. `concede`, `timeout` and `forfeit`
    are accepted from either player at any time the match runs (a turn timeout only for the active player).
    """
    if not isinstance(command, Mapping):
        raise RuleViolation(Code.INVALID_COMMAND, "a command is a mapping")
    kind = command.get("type")
    handler = _DECIDERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleViolation(Code.INVALID_COMMAND, f"unknown command type {command.get('type')!r}")
    if state.phase == ENDED:
        raise RuleViolation(Code.MATCH_OVER, "the match is over")
    pid = command.get("player")
    if pid == state.pids[0]:
        index = 0
    elif pid == state.pids[1]:
        index = 1
    else:
        raise RuleViolation(Code.UNKNOWN_PLAYER, f"{pid!r} is not a player of this match")
    return handler(state, index, command)


def _require_turn(state: State, index: int) -> None:
    if state.phase != PLAYING:
        raise RuleViolation(Code.WRONG_PHASE, f"not during the {state.phase}")
    if index != state.active:
        raise RuleViolation(Code.NOT_YOUR_TURN, "it is the opponent's turn")


def _decide_mulligan(state: State, index: int, command: Command) -> list[Event]:
    if state.phase != MULLIGAN:
        raise RuleViolation(Code.WRONG_PHASE, "the mulligan is over")
    returned = command.get("cards", [])
    if not isinstance(returned, list | tuple) or not all(isinstance(c, str) for c in returned):
        raise RuleViolation(Code.INVALID_COMMAND, "cards is a list of instance ids")
    if len(set(returned)) != len(returned):
        raise RuleViolation(Code.INVALID_COMMAND, "a card is named twice")
    return _mulligan(state, index, list(returned))


def _mulligan(state: State, index: int, returned: list[str]) -> list[Event]:
    player = state.players[index]
    if player.mulligan_done:
        raise RuleViolation(Code.ALREADY_MULLIGANED, "one mulligan per player")
    for iid in returned:
        if iid not in player.hand:
            raise RuleViolation(Code.CARD_NOT_IN_HAND, f"{iid} is not in your hand")
    k = len(returned)
    events = [_drawn(player.id, iid, state.cards[iid].id) for iid in player.deck[:k]]
    events.append({"type": MULLIGAN_COMPLETED, "player": player.id, "returned": returned})
    if k and state.shuffle:
        order = list(player.deck[k:]) + returned
        rng.stream(state.seed, rng.mulligan_purpose(index)).shuffle(order)
        events.append({"type": DECK_SHUFFLED, "player": player.id, "order": order})
    if state.players[1 - index].mulligan_done:
        after = fold_onto(state, events)
        events += _begin_turn(after, after.first, 1)
    return events


def _decide_play(state: State, index: int, command: Command) -> list[Event]:
    _require_turn(state, index)
    me = state.players[index]
    iid = command.get("card")
    if not isinstance(iid, str) or iid not in me.hand:
        raise RuleViolation(Code.CARD_NOT_IN_HAND, f"{iid!r} is not in your hand")
    card = state.cards[iid]
    cost = cost_of(state, card)
    if cost > me.mana:
        raise RuleViolation(Code.NOT_ENOUGH_MANA, f"{card.id} costs {cost}, you have {me.mana} mana")
    position, target = command.get("position"), command.get("target")
    if card.type == "unit":
        if target is not None:
            raise RuleViolation(Code.ILLEGAL_TARGET, "a unit is played without a target")
        if len(me.board) >= BOARD_SIZE:
            raise RuleViolation(Code.BOARD_FULL, f"a board holds at most {BOARD_SIZE} units")
        if type(position) is not int or not 0 <= position <= len(me.board):
            raise RuleViolation(Code.INVALID_POSITION, f"position is an int in 0..{len(me.board)}")
        return _play_unit(state, index, iid, cost, position)
    if position is not None:
        raise RuleViolation(Code.INVALID_POSITION, "a spell takes no position")
    return _cast_spell(state, index, iid, cost, target)


def _play_unit(state: State, index: int, iid: str, cost: int, position: int) -> list[Event]:
    me = state.players[index]
    card = state.cards[iid]
    attack, health = summon_stats(state, card)
    pid = me.id
    events: list[Event] = [
        {
            "type": CARD_PLAYED,
            "player": pid,
            "card": iid,
            "card_id": card.id,
            "cost": cost,
            "position": position,
        },
        {
            "type": UNIT_SUMMONED,
            "player": pid,
            "unit": iid,
            "card_id": card.id,
            "position": position,
            "attack": attack,
            "health": health,
        },
    ]
    if card.summon == "per_wild":
        n = sum(u.card.tribe == "wild" for u in me.board)
        if n:
            events.append({"type": UNIT_BUFFED, "player": pid, "unit": iid, "attack": n, "health": n})
    elif card.summon == "giant_buff":
        events += [
            {"type": UNIT_BUFFED, "player": pid, "unit": u.id, "attack": 1, "health": 1}
            for u in me.board
            if u.card.tribe == "giant"
        ]
    return events


def _cast_spell(state: State, index: int, iid: str, cost: int, target: Any) -> list[Event]:
    me, foe = state.players[index], state.players[1 - index]
    card = state.cards[iid]
    effect = card.effect
    if effect in ("damage_unit_2", "buff_unit_2_1"):
        if target is None:
            raise RuleViolation(Code.TARGET_REQUIRED, f"{card.id} needs a target unit")
        sides = (me, foe) if effect == "damage_unit_2" else (me,)
        if not any(u.id == target for side in sides for u in side.board):
            raise RuleViolation(Code.ILLEGAL_TARGET, f"{target!r} is not a unit {card.id} may target")
    elif target is not None:
        raise RuleViolation(Code.ILLEGAL_TARGET, f"{card.id} takes no target")
    pid = me.id
    played: Event = {"type": CARD_PLAYED, "player": pid, "card": iid, "card_id": card.id, "cost": cost}
    if target is not None:
        played["target"] = target
    events = [
        played,
        {
            "type": SPELL_CAST,
            "player": pid,
            "card": iid,
            "card_id": card.id,
            "effect": effect,
            "target": target,
        },
    ]
    if effect == "damage_unit_2":
        owner = me if any(u.id == target for u in me.board) else foe
        unit = next(u for u in owner.board if u.id == target)
        events += _damage_units(state, [(owner.id, unit, 2)], iid)
    elif effect == "heal_hero_4":
        events += _heal(me, 4)
    elif effect == "draw_1":
        if me.deck:
            events.append(_drawn(pid, me.deck[0], state.cards[me.deck[0]].id))
    elif effect == "buff_unit_2_1":
        events.append({"type": UNIT_BUFFED, "player": pid, "unit": target, "attack": 2, "health": 1})
    elif effect == "damage_enemy_hero_3":
        events.append({"type": DAMAGE_DEALT, "player": foe.id, "target": HERO, "amount": 3, "source": iid})
        if foe.hero <= 3:
            events.append(_ended(pid, EndReason.HERO_KILLED.value))
    elif effect == "damage_enemy_units_2":
        events += _damage_units(state, [(foe.id, u, 2) for u in foe.board], iid)
    elif effect == "buff_order_1_1":
        events += [
            {"type": UNIT_BUFFED, "player": pid, "unit": u.id, "attack": 1, "health": 1}
            for u in me.board
            if u.card.tribe == "order"
        ]
    elif effect == "damage_all_units_1":
        events += _damage_units(state, [(p.id, u, 1) for p in (me, foe) for u in p.board], iid)
    return events


def _damage_units(state: State, hits: list[tuple[str, Unit, int]], source: str) -> list[Event]:
    """Damage dealt at once to several units (Ward prevents one instance), then the deaths."""
    events: list[Event] = []
    dead: list[Event] = []
    for owner, unit, amount in hits:
        if unit.ward:
            events.append({"type": WARD_BROKEN, "player": owner, "unit": unit.id})
            continue
        events.append(
            {"type": DAMAGE_DEALT, "player": owner, "target": unit.id, "amount": amount, "source": source}
        )
        if unit.health <= amount:
            dead.append({"type": UNIT_DIED, "player": owner, "unit": unit.id})
    return events + dead


def _heal(player: PlayerState, amount: int) -> list[Event]:
    healed = min(amount, MAX_HEALTH - player.hero)
    return [{"type": HERO_HEALED, "player": player.id, "amount": healed}] if healed > 0 else []


def _decide_attack(state: State, index: int, command: Command) -> list[Event]:
    _require_turn(state, index)
    me, foe = state.players[index], state.players[1 - index]
    attacker_id, target = command.get("attacker"), command.get("target")
    i = _find(me.board, attacker_id)
    if i < 0:
        raise RuleViolation(Code.UNKNOWN_UNIT, f"{attacker_id!r} is not a unit on your board")
    attacker = me.board[i]
    turn = state.turn
    if attacker.attacked_turn == turn:
        raise RuleViolation(Code.ALREADY_ATTACKED, "each unit attacks once per turn")
    if attacker.played_turn == turn and attacker.card.keyword != RUSH:
        raise RuleViolation(
            Code.UNIT_CANNOT_ATTACK, "a unit played this turn cannot attack unless it has Rush"
        )
    early = is_early(state)
    power = attacks(me.board, early)[i]
    if power <= 0:
        raise RuleViolation(Code.UNIT_CANNOT_ATTACK, "a unit without attack cannot attack")
    defender: Unit | None = None
    j = -1
    if target != HERO:
        j = _find(foe.board, target)
        if j < 0:
            raise RuleViolation(
                Code.ILLEGAL_TARGET, f"{target!r} is neither the enemy hero nor an enemy unit"
            )
        defender = foe.board[j]
    if (defender is None or defender.card.keyword != TAUNT) and any(
        u.card.keyword == TAUNT for u in foe.board
    ):
        raise RuleViolation(Code.MUST_ATTACK_TAUNT, "the defender has a Taunt unit: attack it first")
    events: list[Event] = [
        {"type": ATTACK_RESOLVED, "player": me.id, "attacker": attacker.id, "target": target}
    ]
    if defender is None:
        events.append(
            {"type": DAMAGE_DEALT, "player": foe.id, "target": HERO, "amount": power, "source": attacker.id}
        )
        if attacker.card.keyword == LIFESTEAL:
            events += _heal(me, power)
        if foe.hero <= power:
            events.append(_ended(me.id, EndReason.HERO_KILLED.value))
        return events
    counter = attacks(foe.board, early)[j]
    dealt = taken = 0
    if defender.ward:
        events.append({"type": WARD_BROKEN, "player": foe.id, "unit": defender.id})
    else:
        dealt = power
        events.append(
            {
                "type": DAMAGE_DEALT,
                "player": foe.id,
                "target": defender.id,
                "amount": power,
                "source": attacker.id,
            }
        )
    if counter > 0:
        if attacker.ward:
            events.append({"type": WARD_BROKEN, "player": me.id, "unit": attacker.id})
        else:
            taken = counter
            events.append(
                {
                    "type": DAMAGE_DEALT,
                    "player": me.id,
                    "target": attacker.id,
                    "amount": counter,
                    "source": defender.id,
                }
            )
    if dealt and attacker.card.keyword == LIFESTEAL:
        events += _heal(me, dealt)
    if taken and defender.card.keyword == LIFESTEAL:
        events += _heal(foe, taken)
    if dealt and defender.health <= dealt:
        events.append({"type": UNIT_DIED, "player": foe.id, "unit": defender.id})
    if taken and attacker.health <= taken:
        events.append({"type": UNIT_DIED, "player": me.id, "unit": attacker.id})
    return events


def _find(board: tuple[Unit, ...], iid: Any) -> int:
    """The position of unit `iid` on `board`, or -1."""
    for k, unit in enumerate(board):
        if unit.id == iid:
            return k
    return -1


def _decide_end_turn(state: State, index: int, command: Command) -> list[Event]:
    _require_turn(state, index)
    ended = {"type": TURN_ENDED, "player": state.pids[index], "timed_out": False}
    return [ended, *_begin_turn(state, 1 - index, state.turn + 1)]


def _decide_timeout(state: State, index: int, command: Command) -> list[Event]:
    if state.phase == MULLIGAN:
        return _mulligan(state, index, [])
    if index != state.active:
        raise RuleViolation(Code.NOT_YOUR_TURN, "only the active player's turn can time out")
    pid = state.pids[index]
    count = state.players[index].timeouts + 1
    events: list[Event] = [{"type": TURN_TIMED_OUT, "player": pid, "timeouts": count}]
    if count >= MAX_TIMEOUTS:
        return [*events, _ended(state.pids[1 - index], EndReason.TIMEOUTS.value)]
    events.append({"type": TURN_ENDED, "player": pid, "timed_out": True})
    return events + _begin_turn(state, 1 - index, state.turn + 1)


def _decide_concede(state: State, index: int, command: Command) -> list[Event]:
    return [_ended(state.pids[1 - index], EndReason.CONCEDE.value)]


def _decide_forfeit(state: State, index: int, command: Command) -> list[Event]:
    reason = command.get("reason")
    if not isinstance(reason, str) or reason not in FORFEIT_REASONS:
        raise RuleViolation(Code.INVALID_COMMAND, f"forfeit reason is one of {sorted(FORFEIT_REASONS)}")
    return [_ended(state.pids[1 - index], str(reason))]


def _begin_turn(state: State, index: int, turn: int) -> list[Event]:
    """Turn start: at a round start the next arcana (every 2 rounds) and an ending arcana's drain; then mana
    +1 (cap 10) refilled, and a draw (none from an empty deck). Units need no readying (see `Unit`)."""
    player = state.players[index]
    round_ = (turn + 1) // 2
    events: list[Event] = [{"type": TURN_STARTED, "player": player.id, "turn": turn, "round": round_}]
    if turn % 2 == 1 and round_ > 1:
        shown = spread_index(round_)
        if shown >= state.revealed:
            events.append(_reveal(state.spread, shown, round_))
        arcana = ARCANA[state.spread[shown]]
        drain = drain_amount(arcana, round_)
        if drain:
            events.append({"type": HERO_DRAINED, "arcana": arcana.id, "amount": drain, "round": round_})
            low = [p.hero <= drain for p in state.players]
            if all(low):
                return [*events, _ended(EndReason.DRAW.value, EndReason.DRAW.value)]
            if any(low):
                return [*events, _ended(state.pids[low.index(False)], EndReason.HERO_KILLED.value)]
    mana = min(MAX_MANA, player.max_mana + 1)
    events.append({"type": MANA_REFILLED, "player": player.id, "max_mana": mana, "mana": mana})
    if player.deck:
        events.append(_drawn(player.id, player.deck[0], state.cards[player.deck[0]].id))
    return events


_DECIDERS: dict[str, Callable[[State, int, Command], list[Event]]] = {
    Cmd.MULLIGAN.value: _decide_mulligan,
    Cmd.PLAY.value: _decide_play,
    Cmd.ATTACK.value: _decide_attack,
    Cmd.END_TURN.value: _decide_end_turn,
    Cmd.TIMEOUT.value: _decide_timeout,
    Cmd.CONCEDE.value: _decide_concede,
    Cmd.FORFEIT.value: _decide_forfeit,
}


# ---------------------------------------------------------------------------------------------------- evolve


def evolve(state: State | None, event: Mapping[str, Any]) -> State:
    """The state after `event`. A MatchStarted event starts from nothing (`state` may be None); the input
    state is never modified. Raises ValueError for an event that does not fit the state."""
    kind = event.get("type")
    if kind == MATCH_STARTED:
        return _match_started(event)
    if state is None:
        raise ValueError("the first event of a match is MatchStarted")
    apply = _APPLIERS.get(kind)  # type: ignore[arg-type]
    if apply is None:
        raise ValueError(f"unknown event type {kind!r}")
    return apply(state, event)


def fold(events: Iterable[Mapping[str, Any]]) -> State:
    """The state a whole event stream leads to (starting with MatchStarted)."""
    state: State | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state


def fold_onto(state: State, events: Iterable[Mapping[str, Any]]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def _match_started(e: Mapping[str, Any]) -> State:
    players = []
    cards = {}
    for p in e["players"]:
        players.append(PlayerState(p["id"], tuple(p["instances"])))
        cards.update({iid: CATALOG[c] for iid, c in zip(p["instances"], p["deck"], strict=True)})
    pids = [p.id for p in players]
    return State(
        e["match_id"],
        e["seed"],
        (players[0], players[1]),
        cards,
        pids.index(e["first"]),
        tuple(e["arcana"]),
        e["shuffle"],
    )


def _side(state: State, pid: str) -> int:
    return 0 if pid == state.pids[0] else 1


def _put(state: State, index: int, player: PlayerState, **changes: Any) -> State:
    players = (player, state.players[1]) if index == 0 else (state.players[0], player)
    return state._with(players=players, **changes)


def _deck_shuffled(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    order = tuple(e["order"])
    if sorted(order) != sorted(p.deck):
        raise ValueError("a shuffled deck holds the same cards")
    return _put(s, i, p._with(deck=order))


def _card_drawn(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    iid = e["card"]
    deck = p.deck
    deck = deck[1:] if deck and deck[0] == iid else tuple(c for c in deck if c != iid)
    return _put(s, i, p._with(deck=deck, hand=(*p.hand, iid), cards_drawn=p.cards_drawn + 1))


def _arcana_revealed(s: State, e: Mapping[str, Any]) -> State:
    return s._with(revealed=e["index"] + 1)


def _mulligan_completed(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    returned = tuple(e["returned"])
    hand = tuple(c for c in p.hand if c not in returned)
    return _put(s, i, p._with(hand=hand, deck=p.deck + returned, mulligan_done=True))


def _turn_started(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    return _put(s, i, p._with(turns=p.turns + 1), phase=PLAYING, turn=e["turn"], round=e["round"], active=i)


def _hero_drained(s: State, e: Mapping[str, Any]) -> State:
    n = e["amount"]
    p0, p1 = s.players
    return s._with(players=(p0._with(hero=p0.hero - n), p1._with(hero=p1.hero - n)))


def _mana_refilled(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    return _put(s, i, s.players[i]._with(max_mana=e["max_mana"], mana=e["mana"]))


def _card_played(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    iid = e["card"]
    card = s.cards[iid]
    changes: dict[str, Any] = {"hand": tuple(c for c in p.hand if c != iid), "mana": p.mana - e["cost"]}
    if card.type == "unit":
        tribe = card.tribe or "none"
        changes["units_played"] = {**p.units_played, tribe: p.units_played.get(tribe, 0) + 1}
    return _put(s, i, p._with(**changes))


def _unit_summoned(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    iid = e["unit"]
    card = s.cards[iid]
    unit = Unit(iid, card, e["attack"], e["health"], e["health"], card.keyword == WARD, s.turn)
    pos = e["position"]
    return _put(s, i, p._with(board=(*p.board[:pos], unit, *p.board[pos:])))


def _replace_unit(s: State, pid: str, iid: str, change: Callable[[Unit], Unit]) -> State:
    i = _side(s, pid)
    p = s.players[i]
    board = p.board
    for k, u in enumerate(board):
        if u.id == iid:
            return _put(s, i, p._with(board=(*board[:k], change(u), *board[k + 1 :])))
    raise ValueError(f"no unit {iid} on {pid}'s board")


def _unit_buffed(s: State, e: Mapping[str, Any]) -> State:
    a, h = e["attack"], e["health"]
    return _replace_unit(
        s,
        e["player"],
        e["unit"],
        lambda u: Unit(
            u.id, u.card, u.attack + a, u.health + h, u.max_health + h, u.ward, u.played_turn, u.attacked_turn
        ),
    )


def _spell_cast(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    return _put(s, i, p._with(grave=(*p.grave, e["card"]), spells_cast=p.spells_cast + 1))


def _attack_resolved(s: State, e: Mapping[str, Any]) -> State:
    turn = s.turn
    return _replace_unit(
        s,
        e["player"],
        e["attacker"],
        lambda u: Unit(u.id, u.card, u.attack, u.health, u.max_health, u.ward, u.played_turn, turn),
    )


def _damage_dealt(s: State, e: Mapping[str, Any]) -> State:
    n = e["amount"]
    if e["target"] == HERO:
        i = _side(s, e["player"])
        p, foe = s.players[i], s.players[1 - i]
        hit = p._with(hero=p.hero - n)
        other = foe._with(hero_damage=foe.hero_damage + n)
        return s._with(players=(hit, other) if i == 0 else (other, hit))
    return _replace_unit(
        s,
        e["player"],
        e["target"],
        lambda u: Unit(
            u.id, u.card, u.attack, u.health - n, u.max_health, u.ward, u.played_turn, u.attacked_turn
        ),
    )


def _ward_broken(s: State, e: Mapping[str, Any]) -> State:
    return _replace_unit(
        s,
        e["player"],
        e["unit"],
        lambda u: Unit(u.id, u.card, u.attack, u.health, u.max_health, False, u.played_turn, u.attacked_turn),
    )


def _hero_healed(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p = s.players[i]
    return _put(s, i, p._with(hero=min(MAX_HEALTH, p.hero + e["amount"])))


def _unit_died(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    p, foe = s.players[i], s.players[1 - i]
    iid = e["unit"]
    hit = p._with(board=tuple(u for u in p.board if u.id != iid), grave=(*p.grave, iid))
    other = foe._with(units_killed=foe.units_killed + 1)
    return s._with(players=(hit, other) if i == 0 else (other, hit))


def _turn_timed_out(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player"])
    return _put(s, i, s.players[i]._with(timeouts=e["timeouts"]))


def _turn_ended(s: State, e: Mapping[str, Any]) -> State:
    if e.get("timed_out"):
        return s
    i = _side(s, e["player"])
    p = s.players[i]
    return s if p.timeouts == 0 else _put(s, i, p._with(timeouts=0))


def _match_ended(s: State, e: Mapping[str, Any]) -> State:
    return s._with(phase=ENDED, winner=e["winner"], reason=e["reason"])


_APPLIERS: dict[str, Callable[[State, Mapping[str, Any]], State]] = {
    DECK_SHUFFLED: _deck_shuffled,
    CARD_DRAWN: _card_drawn,
    ARCANA_REVEALED: _arcana_revealed,
    MULLIGAN_COMPLETED: _mulligan_completed,
    TURN_STARTED: _turn_started,
    HERO_DRAINED: _hero_drained,
    MANA_REFILLED: _mana_refilled,
    CARD_PLAYED: _card_played,
    UNIT_SUMMONED: _unit_summoned,
    UNIT_BUFFED: _unit_buffed,
    SPELL_CAST: _spell_cast,
    ATTACK_RESOLVED: _attack_resolved,
    DAMAGE_DEALT: _damage_dealt,
    WARD_BROKEN: _ward_broken,
    HERO_HEALED: _hero_healed,
    UNIT_DIED: _unit_died,
    TURN_TIMED_OUT: _turn_timed_out,
    TURN_ENDED: _turn_ended,
    MATCH_ENDED: _match_ended,
}
