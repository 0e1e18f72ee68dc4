"""HTTP of the progression service. Days are UTC, from the project's clock (``libs.clock``).

- ``GET  /v1/quests`` → 200 today's three quests with progress (offered on first look)
- ``POST /v1/quests/{id}/swap`` → 200 the quests after the swap; 404 ``quest_not_offered`` (not
  among the caller's quests of today); 409 ``swap_used`` (one a day), ``quest_completed``
- ``GET  /v1/streak`` → 200 cycle day, kept today, forgiveness, the last 30 days
- ``GET  /v1/pass`` → 200 season, level, XP into the level, unlocked rewards; 404 ``no_season``
- ``GET  /v1/pass/track`` → 200 the season's 30 levels; 404 ``no_season``
- ``GET  /v1/pass/cosmetics`` → 200 every cosmetic unlocked, by season (past seasons too)
- ``GET  /v1/line/progress`` → 200 the line's arena XP and training battles
- ``GET  /v1/arcana/today[?date=YYYY-MM-DD]`` → 200 the ascendant arcana of the date (public);
  422 ``validation_error`` for a bad date
A player only ever reads and changes their own quests, streak and pass (the token's player).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from libs import clock
from libs.games import registry
from libs.games.offer import Daily
from libs.kit import ErrorTable, Problem
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    ErrorSchema,
    current_player,
    idempotent,
    request_transaction,
    require_player,
)
from libs.web.contract import path_parameter
from services.progression import schemas, views
from services.progression.domain import (
    QUESTS,
    QuestAlreadyCompleted,
    QuestNotOffered,
    SwapAlreadyUsed,
    SwapQuest,
    season_of,
)
from services.progression.service import ProgressionService


class NoSeason(Exception):
    """No season is running on the day asked about."""


ERRORS = ErrorTable(
    {
        QuestNotOffered: Problem(404, "quest_not_offered", "This quest is not among your quests of today."),
        SwapAlreadyUsed: Problem(409, "swap_used", "Today's swap has been used."),
        QuestAlreadyCompleted: Problem(409, "quest_completed", "A completed quest cannot be swapped."),
        NoSeason: Problem(404, "no_season", "No season is running today."),
    }
)

blp = Blueprint(
    "progression",
    __name__,
    description="Daily quests, login streak, season pass, the day's arcana, the line's arena XP.",
)

MAX_QUEST_ID = 64
_QUEST_ID = path_parameter(
    "quest_id",
    "A quest of the catalogue; it must be among your quests of today (otherwise: 404 `quest_not_offered`).",
    enum=sorted(QUESTS),
)


def _service() -> ProgressionService:
    svc: ProgressionService = current_service()
    return svc


def _me() -> str:
    return str(current_player())


def _today() -> dt.date:
    return clock.now().date()


def _quests(svc: ProgressionService, player: str, day: dt.date) -> dict[str, Any]:
    """The quests view, read in the request's transaction (an idempotent swap's writes included)."""
    with request_transaction() as conn:
        return views.quests_view(conn, svc.schema, player, day)


@blp.route("/v1/quests", methods=["GET"])
@require_player
@blp.response(200, schemas.QuestsOut)
def get_quests() -> Any:
    """Today's three quests (easy, standard, hard) with progress and target."""
    svc, me, today = _service(), _me(), _today()
    svc.offer_quests(me, today)
    return _quests(svc, me, today)


@blp.route("/v1/quests/<string:quest_id>/swap", methods=["POST"], parameters=_QUEST_ID)
@require_player
@idempotent
@blp.response(200, schemas.QuestsOut)
@blp.alt_response(404, schema=ErrorSchema, description="quest_not_offered")
@blp.alt_response(409, schema=ErrorSchema, description="swap_used | quest_completed")
def swap_quest(quest_id: str) -> Any:
    """Swap one of today's quests for another of the same difficulty (once a day;
    ``Idempotency-Key`` honoured: a retried swap returns the first answer, not a 409)."""
    svc, me, today = _service(), _me(), _today()
    if len(quest_id) > MAX_QUEST_ID:
        raise QuestNotOffered(quest_id)
    svc.swap_quest(SwapQuest(me, quest_id, today), request_transaction)
    return _quests(svc, me, today)


@blp.route("/v1/streak", methods=["GET"])
@require_player
@blp.response(200, schemas.StreakOut)
def get_streak() -> Any:
    """The login streak: cycle day, whether today is kept, forgiveness, the last 30 days."""
    svc = _service()
    with svc.pool.connection() as conn:
        return views.streak_view(conn, svc.schema, _me(), _today())


@blp.route("/v1/pass", methods=["GET"])
@require_player
@blp.response(200, schemas.PassOut)
@blp.alt_response(404, schema=ErrorSchema, description="no_season")
def get_pass() -> Any:
    """The caller's pass in the current season: level, XP into the level, rewards unlocked."""
    svc = _service()
    with svc.pool.connection() as conn:
        found = views.pass_view(conn, svc.schema, _me(), _today())
    if found is None:
        raise NoSeason()
    return found


@blp.route("/v1/pass/track", methods=["GET"])
@require_player
@blp.response(200, schemas.TrackOut)
@blp.alt_response(404, schema=ErrorSchema, description="no_season")
def get_track() -> Any:
    """The current season's 30 levels and the cosmetic each holds."""
    season = season_of(_today())
    if season is None:
        raise NoSeason()
    return {"season": views.season_out(season), "levels": views.track_of(season)}


@blp.route("/v1/pass/cosmetics", methods=["GET"])
@require_player
@blp.response(200, schemas.CosmeticsOut)
def get_cosmetics() -> Any:
    """Every cosmetic you unlocked, season by season (past seasons too): they stay yours."""
    svc = _service()
    with svc.pool.connection() as conn:
        return views.cosmetics_view(conn, svc.schema, _me())


def _track_route(game: str, track: str) -> None:
    """``GET /v1/<game>/progress``: the caller's progress on ``game``'s own track (its offer's
    ``Progress.track``: the line's arena XP) and its training battles."""

    def get_progress() -> Any:
        svc = _service()
        with svc.pool.connection() as conn:
            return views.track_view(conn, svc.schema, _me(), track)

    get_progress.__doc__ = (
        f"The caller's progress in the {game}: arena XP (a track apart from the season pass) and training\n"
        f"battles (finished {game} practice matches, won or lost)."
    )
    view = blp.response(200, schemas.LineProgressOut)(get_progress)
    blp.route(f"/v1/{game}/progress", methods=["GET"], endpoint=f"get_{game}_progress")(require_player(view))


for _game, _offer in registry.offers().items():
    if _offer.progress.track is not None:
        _track_route(_game, _offer.progress.track)


def _daily_route(game: str, daily: Daily) -> None:
    """``GET /v1/<game>/today?date=``: what ``game`` shows of a UTC date (default today), by its
    offer (``libs.games.offer.Daily``: Arcana's ascendant arcana), the game's own function."""
    out = schemas.daily_out(daily.name, daily.doc)

    def today(args: dict[str, Any]) -> Any:
        day = args.get("date") or _today()
        return {"date": day, daily.name: daily.of(day.isoformat())}

    today.__doc__ = f"The {daily.doc} of a UTC date (default today): the rules engine's own function."
    view = blp.response(200, out)(today)
    view = blp.arguments(schemas.DayQuery(), location="query")(view)
    blp.route(f"/v1/{game}/today", methods=["GET"], endpoint=f"{game}_today")(view)


for _game, _offer in registry.offers().items():
    if _offer.daily is not None:
        _daily_route(_game, _offer.daily)
