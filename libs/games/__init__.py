"""The game interface: what the match service needs from a game, and nothing else.

Pure: standard library only. A game is a deterministic, event-sourced decider, like ``libs.games.arcana``
(Arcana, the first game). The match service stores a game's events, runs its clocks, presence,
long-polls, idempotency, publication and replay, once for every game; it reaches a game only through
``Game`` below, found by name in the registry (``libs.games.registry``). The service never reads a
game's state or events itself: everything it needs is asked of the game.

Shapes shared with the service:

- an **event** is a JSON-able ``dict`` with a ``"type"`` (past tense: ``CardPlayed``); every random
  outcome is written into the events, so folding them rebuilds the state without drawing again;
- a **command** is a JSON-able ``dict`` with a ``"type"`` (imperative: ``play``) and the acting
  ``"player"`` (set by the service from the caller, never from the request body);
- the **state** is the game's own immutable value; the service only hands it back to the game;
- the event that ends a game has the type ``MatchEnded`` (``END_EVENT``) and carries ``winner``
  and ``reason``; the service adds the fields of its integration event ``MatchEnded`` (match,
  mode, players, placements, stats from ``result``) when it stores it, and folds the event as
  stored (so its own fields must agree with those, or keep out of their names);
- the service stores a ``state_hash`` (of ``Game.state_hash``) on the last event of each batch and
  removes it before it hands the event to ``evolve``.

A game, in short (see ``Game`` for each method's contract): its ``name`` and allowed ``seats``; ``setup``
(opening events from a seed, the seated players and their decks); ``decide`` (the events a command causes,
or one ``IllegalCommand`` subclass per kind of refusal, listed in ``errors``); ``evolve``; ``view`` and
``visible_event`` per viewer (``None``: the public form, for the live topic); ``legal_commands``;
``waits`` (who must act, by when, and the system command that enforces it: turn and mulligan
timers, reaction windows); ``forfeit`` (the command of a player who left); ``bot`` (its move) and
``bot_deck`` (its deck in practice: the starter deck unless the game picks one); ``progress``;
``result`` (placements, winner, per-player stats once ended); ``deck_problems``; ``state_hash``;
``commands`` (the shape of each player command, as data, for the API's input schema); optionally
``snapshot``/``restore`` (the state as JSON, of version ``snapshot_shape``: the service keeps one
every few dozen events so that a cold load folds only the events after it).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from libs import codec
from libs.games.offer import Offer

Event = dict[str, Any]
Command = dict[str, Any]
State = Any

END_EVENT = "MatchEnded"


class IllegalCommand(Exception):
    """A command (or a set-up) the game refuses. Each game raises one subclass per kind of refusal,
    each with its own ``code`` (a class attribute, snake_case: ``not_your_turn``); the service answers
    422 with that code and writes nothing. ``message`` says why, for people."""

    code: ClassVar[str] = "illegal_command"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class MatchOver(IllegalCommand):
    """A command to a match that has ended (or never started)."""

    code: ClassVar[str] = "match_over"


class IllegalSetup(IllegalCommand):
    """A set-up the game refuses (bad seats, options or decks); subclass it per kind too."""

    code: ClassVar[str] = "invalid_setup"


class IllegalDeck(IllegalSetup):
    """A seated player's deck is not legal for this game (``problems``: per player id, each reason)."""

    code: ClassVar[str] = "invalid_deck"

    def __init__(self, message: str, problems: Mapping[str, Sequence[str]] | None = None) -> None:
        super().__init__(message)
        self.problems = {p: list(v) for p, v in (problems or {}).items()}


@dataclass(frozen=True)
class Seat:
    """A seated player: their id (a UUID, or ``bot-<uuid>`` for a bot) and their deck (the game's
    card ids, in the order the player saved them; a game without decks ignores it)."""

    id: str
    deck: tuple[str, ...] = ()


@dataclass(frozen=True)
class Setup:
    """What a match starts from. ``seed`` decides every random outcome (kept secret by the service:
    it never leaves the server while the match runs); ``today`` is the UTC date (ISO) the match
    starts on; ``options`` are the game's own (operators' matches: e.g. Arcana's ``first``,
    ``shuffle``, ``arcana``), validated by the game (``IllegalSetup``)."""

    match_id: str
    seed: int
    seats: tuple[Seat, ...]
    today: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Wait:
    """The state waits for ``player`` (a turn, a mulligan, a reaction window). ``key`` names this wait
    so it can be told from the next one (``turn:7``, ``mulligan:<player>``, ``reaction:12``): the
    service starts its clock when a key first appears and stops it when the key goes, so the time a
    wait started survives restarts (it is the time of the stored event after which the key appeared).
    After ``seconds`` (None: no timer) the service sends ``timeout`` (a whole system command, its
    ``"player"`` included) to ``decide`` like any command."""

    player: str
    key: str
    seconds: int | None
    timeout: Command | None = None


@dataclass(frozen=True)
class Progress:
    """Where a running match is, for listings and the index: the game's ``phase`` name (``mulligan``,
    ``playing``, ``reactions``...), a ``turn`` (or round) number, and whose move it is (None when
    several players or nobody may act)."""

    phase: str
    turn: int = 0
    active: str | None = None


@dataclass(frozen=True)
class Result:
    """How an ended match ended. ``placements``: groups of player ids, best first (a tie shares a
    group; a draw of two players is one group of both); ``winner``: the winner's id or ``"draw"``;
    ``reason``: why it ended (``concede``, ``disconnect``, the game's own); ``turns`` and ``round``:
    how far it went (the game's measure); ``stats``: per player id, the game's counters (at least
    ``turns``: turns that player started, for rewards' minimum-length rules)."""

    placements: tuple[tuple[str, ...], ...]
    winner: str
    reason: str
    turns: int
    round: int
    stats: Mapping[str, Mapping[str, Any]]

    @property
    def draw(self) -> bool:
        return len(self.placements) == 1 and len(self.placements[0]) > 1

    @property
    def losers(self) -> tuple[str, ...]:
        """Every player not in the first group (the match's loser(s))."""
        return tuple(p for group in self.placements[1:] for p in group)


@dataclass(frozen=True)
class Param:
    """One field of a player command, as data (the API turns it into its input schema): ``kind`` is
    ``id`` (a short string: an instance or card id), ``ids`` (a list of them), ``int`` or ``bool``;
    ``low``/``high``: an int's range, or an ``ids`` list's length bounds; ``choices``: the ids an
    ``id`` or ``ids`` may hold (empty: any); ``distinct``: an ``ids`` list holds no id twice; ``doc``
    for the API's document."""

    kind: str
    required: bool = False
    low: int | None = None
    high: int | None = None
    doc: str = ""
    choices: tuple[str, ...] = ()
    distinct: bool = False


@dataclass(frozen=True)
class CommandShape:
    """A player command's fields (besides ``type``, ``player`` and the service's
    ``expected_version``), and what it does, for the API's document. Only the shape: whether a
    command is legal now is ``decide``'s to say."""

    params: Mapping[str, Param] = field(default_factory=dict)
    doc: str = ""


class Game(ABC):
    """One game the match service can host. Implementations are pure and deterministic: the same
    events and commands always give the same states and events, and no method changes its inputs.

    Class attributes: ``name`` (lowercase, the ``game`` of tickets, matches and ``MatchEnded``),
    ``seats`` (the player counts a match may have), ``errors`` (every ``IllegalCommand`` subclass
    ``decide`` and ``setup`` raise), ``commands`` (the player commands by type), ``starter_deck`` (a
    legal deck: the bot's, and a new player's before they build one), ``events`` (the typed
    declaration of each event type it emits: a dataclass with ``TYPE``, ``VERSION`` and documented
    fields, for the event catalog and the JSON Schemas of the match topics) and ``public_events``
    (the declaration of each form ``visible_event(event, None)`` gives: what the live topic carries;
    a type that is never public is not there). A game whose types share a name with another game's
    gives its declarations ``GAME`` (its name: ``libs/games/arena/facts.py``): catalog and schemas list
    them under it, and the relays accept an event that conforms to one declaration of its type."""

    name: ClassVar[str]
    seats: ClassVar[frozenset[int]]
    errors: ClassVar[tuple[type[IllegalCommand], ...]]
    commands: ClassVar[Mapping[str, CommandShape]]
    starter_deck: ClassVar[tuple[str, ...]] = ()
    events: ClassVar[tuple[Any, ...]] = ()
    public_events: ClassVar[tuple[Any, ...]] = ()
    offer: ClassVar[Offer] = Offer()
    """What the game offers the other services (queues, ladder, rewards, progress, collection:
    ``libs.games.offer``); the default offers nothing but matches."""
    setup_options: ClassVar[Mapping[str, Param]] = {}
    """The options of an operator's match set-up (``Setup.options``), as data: the API's input schema
    of ``POST /v1/admin/matches`` is built from every game's; the game judges them in ``setup``
    (``IllegalSetup``). None by default."""

    # -- the decider -----------------------------------------------------------------------------

    @abstractmethod
    def setup(self, setup: Setup) -> list[Event]:
        """The opening events of a match (the first one fixes the seats; a game resolved at once,
        like the line, may return the whole match up to its ``MatchEnded``). Raises ``IllegalSetup``
        (or a subclass: ``IllegalDeck``) when the seat count, a deck or an option is refused."""

    @abstractmethod
    def decide(self, state: State, command: Mapping[str, Any]) -> list[Event]:
        """The events ``command`` causes in ``state`` (player commands, and the system commands the
        service sends: the ``timeout`` of a ``Wait``, ``forfeit``). Never changes ``state``. Raises
        one subclass of ``IllegalCommand`` per kind of refusal (a malformed command too; a command
        after the end: the game's ``match_over``)."""

    @abstractmethod
    def evolve(self, state: State | None, event: Mapping[str, Any]) -> State:
        """The state after one event (``None``: before the first event of ``setup``)."""

    @abstractmethod
    def forfeit(self, player: str, reason: str) -> Command:
        """The system command by which ``player`` leaves the match (``reason``: ``disconnect``
        after 120 s away). With two players the other wins; with more, the others play on."""

    # -- what each one may see -------------------------------------------------------------------

    @abstractmethod
    def view(self, state: State, viewer: str) -> dict[str, Any]:
        """The match as player ``viewer`` sees it: never another player's hidden cards, any deck order
        or the seed. Raises ValueError for a viewer who is not seated."""

    @abstractmethod
    def visible_event(self, event: Mapping[str, Any], viewer: str | None) -> dict[str, Any] | None:
        """``event`` as player ``viewer`` may see it; ``viewer=None``: its public form (what anyone
        may see: the live topic). None when wholly secret (a deck order)."""

    @abstractmethod
    def legal_commands(self, state: State, player: str) -> list[Command]:
        """Every player command ``decide`` accepts from ``player`` now, as the player posts it
        (without ``"player"``); empty when they may not act. Conceding need not be listed."""

    # -- time, bots, the end ---------------------------------------------------------------------

    @abstractmethod
    def waits(self, state: State) -> list[Wait]:
        """Whom the state waits for now, in the order their timeouts apply (empty once ended). The
        service's deadlines are these waits' ``seconds`` after their keys appeared."""

    @abstractmethod
    def bot(self, state: State, player: str, rng: random.Random) -> Command | None:
        """The bot's next command as ``player`` (with ``"player"``), or None when it has none now.
        Ties are broken by ``rng`` only, so a replayed bot move is the same."""

    def bot_deck(self, rng: random.Random) -> tuple[str, ...]:
        """The deck a bot plays in a practice match (drawn with ``rng`` only, so the same generator
        gives the same deck); the starter deck unless the game chooses otherwise."""
        return tuple(self.starter_deck)

    @abstractmethod
    def progress(self, state: State) -> Progress:
        """The phase, turn and active player (for listings)."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """How the match ended, or None while it runs."""

    def playing(self, state: State) -> list[str]:
        """The players still in the match (out: a player who forfeited a match that goes on)."""
        ended = self.result(state)
        return [] if ended is not None else list(self.seated(state))

    @abstractmethod
    def seated(self, state: State) -> list[str]:
        """Every seated player id, in seat order."""

    # -- decks, replay ---------------------------------------------------------------------------

    @abstractmethod
    def deck_problems(self, deck: Sequence[Any]) -> list[str]:
        """Why ``deck`` is not a legal deck of this game (empty: legal)."""

    @abstractmethod
    def state_hash(self, state: State) -> str:
        """A digest of the whole state: equal states, and only they, have equal hashes (the
        service stores it with each batch and checks replays against it)."""

    # -- snapshots -------------------------------------------------------------------------------

    snapshot_shape: ClassVar[int] = 0
    """The version of ``snapshot``'s form: bump it whenever the state's shape changes (a field of a
    state class added, removed or retyped). A snapshot of another shape is ignored (the service
    folds that match from its first event, and its next snapshot replaces the old one)."""

    state_class: ClassVar[type | None] = None
    """The state's class when it is a frozen dataclass of frozen dataclasses, tuples, mappings and
    JSON scalars: ``snapshot`` and ``restore`` then follow its type hints (``libs.codec``)."""

    def snapshot(self, state: State) -> dict[str, Any] | None:
        """``state`` as JSON-able data for ``restore`` (``restore(snapshot(s)) == s``), or None
        when the game keeps no snapshots (no ``state_class`` and no override: the service then
        always folds the events)."""
        if self.state_class is None:
            return None
        data: dict[str, Any] = codec.encode(state)
        return data

    def restore(self, data: Mapping[str, Any]) -> State:
        """The state ``snapshot`` gave ``data`` for (of the current ``snapshot_shape``)."""
        if self.state_class is None:
            raise NotImplementedError(f"{self.name} keeps no snapshots")
        return codec.decode(self.state_class, data)

    def catalog(self) -> dict[str, Any]:
        """The game's cards (JSON-able) for ``GET /v1/catalog?game=<name>``; none by default."""
        return {}


__all__ = [
    "END_EVENT",
    "Command",
    "CommandShape",
    "Event",
    "Game",
    "IllegalCommand",
    "IllegalDeck",
    "IllegalSetup",
    "MatchOver",
    "Offer",
    "Param",
    "Progress",
    "Result",
    "Seat",
    "Setup",
    "State",
    "Wait",
]
