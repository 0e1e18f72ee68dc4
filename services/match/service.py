"""The match service object: its use cases by name, the only thing ``api``, ``tasks`` and
``consumers`` reach (built once per process by ``root.build``, the only place they are wired).

Each attribute is a use case (``services/match/usecases``); callers call it directly, so nothing here
forwards:

| attribute | use case | e.g. |
|---|---|---|
| ``matches`` | the match streams: loads, stored events, replay check | ``matches.read_events(id)`` |
| ``creation`` | starting matches (practice, operators, MatchRequested) | ``creation.practice(...)`` |
| ``commands`` | players' commands | ``commands.post(...)`` |
| ``reads`` | a player's reads and long polls | ``reads.events(...)`` |
| ``streams`` | a player's match as Server-Sent Events | ``streams.open(...)`` |
| ``system`` | presence, timeouts, disconnections, forfeits | ``system.tick(id)`` |
| ``bot`` | the practice bot | ``bot.bot_turn(id)`` |
| ``sweeper`` | the beat's sweep | ``sweeper.sweep()`` |
| ``dispatcher`` | deadline and bot tasks after a commit | ``dispatcher.dispatch(outcome)`` |
| ``tournaments`` | the brackets of games with a tournament | ``tournaments.sweep(...)`` |
"""

from __future__ import annotations

from dataclasses import dataclass

from psycopg_pool import ConnectionPool

from services.match.repository import MatchRepository
from services.match.scheduling import Dispatcher
from services.match.usecases.bot import BotPlayer
from services.match.usecases.commands import PlayerCommands
from services.match.usecases.creation import MatchCreation
from services.match.usecases.polls import PlayerReads
from services.match.usecases.streams import MatchStreams
from services.match.usecases.sweep import Sweeper
from services.match.usecases.system import SystemCommands
from services.match.usecases.tournaments import Tournaments


@dataclass(frozen=True)
class MatchService:
    pool: ConnectionPool
    schema: str
    matches: MatchRepository
    creation: MatchCreation
    commands: PlayerCommands
    reads: PlayerReads
    streams: MatchStreams
    system: SystemCommands
    bot: BotPlayer
    sweeper: Sweeper
    dispatcher: Dispatcher
    tournaments: Tournaments
