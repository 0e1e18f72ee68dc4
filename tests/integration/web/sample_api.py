"""A small service used to test libs/web: it writes a row and an event per created thing."""

from __future__ import annotations

import time
import uuid
from typing import Any

import marshmallow as ma
from psycopg import sql

from libs.eventstore import EventStore, Expect, NewEvent
from libs.web import (
    Blueprint,
    StrictInteger,
    StrictSchema,
    abort_with,
    current_player,
    idempotent,
    request_transaction,
    require_operator,
    require_player,
    service_context,
)

blp = Blueprint("things", __name__, description="Things, for tests.")

SETUP_SQL = "CREATE TABLE IF NOT EXISTS {}.things (id UUID PRIMARY KEY, name TEXT NOT NULL, owner TEXT)"


class ThingIn(StrictSchema):
    name = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=50))
    count = StrictInteger(load_default=1, validate=ma.validate.Range(min=1, max=10))
    delay_ms = StrictInteger(load_default=0, validate=ma.validate.Range(min=0, max=500))


class ThingOut(ma.Schema):
    id = ma.fields.UUID()
    name = ma.fields.String()
    count = StrictInteger()
    owner = ma.fields.String(allow_none=True)


def _create(args: dict[str, Any], owner: str | None) -> dict[str, Any]:
    ctx = service_context()
    assert ctx.schema
    thing_id = uuid.uuid4()
    with request_transaction() as conn:
        conn.execute(
            sql.SQL("INSERT INTO {} (id, name, owner) VALUES (%s, %s, %s)").format(
                sql.Identifier(ctx.schema, "things")
            ),
            (thing_id, args["name"], owner),
        )
        time.sleep(args["delay_ms"] / 1000)
        EventStore(ctx.pool, ctx.schema).append(
            f"thing-{thing_id}",
            Expect.NO_STREAM,
            [NewEvent("ThingCreated", {"name": args["name"]})],
            conn=conn,
        )
    return {"id": thing_id, "name": args["name"], "count": args["count"], "owner": owner}


@blp.route("/v1/things", methods=["POST"])
@idempotent
@blp.arguments(ThingIn)
@blp.response(201, ThingOut)
def create_thing(args: dict[str, Any]) -> Any:
    return _create(args, None)


@blp.route("/v1/my-things", methods=["POST"])
@require_player
@idempotent
@blp.arguments(ThingIn)
@blp.response(201, ThingOut)
def create_my_thing(args: dict[str, Any]) -> Any:
    return _create(args, str(current_player()))


@blp.route("/v1/whoami", methods=["GET"])
@require_player
@blp.response(200)
def whoami() -> Any:
    return {"player_id": str(current_player())}


class SearchArgs(StrictSchema):
    q = ma.fields.String(required=True)
    limit = ma.fields.Integer(load_default=10)  # query values are strings: not StrictInteger


@blp.route("/v1/search", methods=["GET"])
@blp.arguments(SearchArgs, location="query")
@blp.response(200)
def search(args: dict[str, Any]) -> Any:
    return {"q": args["q"], "limit": args["limit"]}


@blp.route("/v1/conflict", methods=["POST"])
@blp.response(200)
def conflict() -> Any:
    abort_with(409, "thing_conflict", "That thing conflicts.", {"hint": "try another"})


@blp.route("/v1/bug", methods=["GET"])
@blp.response(200)
def bug() -> Any:
    raise RuntimeError("a deliberate bug, to check the 500 shape")


@blp.route("/v1/admin/ping", methods=["GET"])
@require_operator
@blp.response(200)
def admin_ping() -> Any:
    return {"pong": True}
