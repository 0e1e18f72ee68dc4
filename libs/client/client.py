"""``ArcanaClient``: one method per REST operation, on a ``requests.Session``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

import requests

from libs.client import operations as ops
from libs.client.operations import Operation
from libs.client.types import (
    CommandResult,
    Created,
    Deck,
    Events,
    LegalCommands,
    MatchView,
    Pack,
    Registered,
    Session,
    Ticket,
    Wallet,
)

Json = dict[str, Any]


class ApiError(Exception):
    """An answer outside 2xx, in the API's one error shape ``{"error": {"code", "message"}}``."""

    def __init__(self, status: int, code: str, message: str, body: Any, headers: Mapping[str, str]) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.body, self.headers = status, code, message, body, headers

    @property
    def details(self) -> Any:
        error = self.body.get("error") if isinstance(self.body, dict) else None
        return error.get("details") if isinstance(error, dict) else None


class ArcanaClient:
    """The REST API for one player (or the operator, with ``operator_token``)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        operator_token: str | None = None,
        timeout: float = 30.0,
        session: requests.Session | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.operator_token = operator_token
        self.player_id: str | None = None
        self.timeout = timeout
        self.http = session or requests.Session()

    # -- the one way a request is made ------------------------------------------------------------

    def call(
        self,
        op: Operation,
        *,
        json: Any = None,
        query: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        timeout: float | None = None,
        **path: str,
    ) -> Any:
        """Send ``op``; the decoded JSON body (None for 204), or ``ApiError``."""
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        unknown = set(params) - set(op.query)
        if unknown:
            raise TypeError(f"{op.method} {op.path} takes no query parameter {sorted(unknown)}")
        if json is not None and not op.body:
            raise TypeError(f"{op.method} {op.path} takes no body")
        headers = {}
        bearer = self.operator_token if op.path.startswith("/v1/admin/") else self.token
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        response = self.http.request(
            op.method,
            self.base_url + op.url_path(**path),
            params=params or None,
            json=json,
            headers=headers,
            timeout=timeout or self.timeout,
        )
        return _decode(response)

    # -- accounts ---------------------------------------------------------------------------------

    def register(self, username: str, password: str) -> Registered:
        return cast(Registered, self.call(ops.REGISTER, json={"username": username, "password": password}))

    def log_in(self, username: str, password: str) -> Session:
        """Log in and keep the token for the calls that follow."""
        session = cast(Session, self.call(ops.LOG_IN, json={"username": username, "password": password}))
        self.token, self.player_id = session["token"], session["player_id"]
        return session

    def log_out(self) -> None:
        self.call(ops.LOG_OUT)

    def log_out_everywhere(self) -> None:
        self.call(ops.LOG_OUT_EVERYWHERE)

    def me(self) -> Json:
        return cast(Json, self.call(ops.ME))

    def set_display_name(self, display_name: str) -> Json:
        """The public name others see (never the log-in name)."""
        return cast(Json, self.call(ops.DISPLAY_NAME, json={"display_name": display_name}))

    def delete_account(self, password: str) -> None:
        """Erase this account (its password again, as confirmation); its tokens are refused after."""
        self.call(ops.DELETE_ACCOUNT, json={"password": password})

    # -- match ------------------------------------------------------------------------------------

    def matches(self, active: bool | None = None) -> list[Json]:
        return cast(list[Json], self.call(ops.MATCHES, query={"active": active})["matches"])

    def match(self, match_id: str) -> MatchView:
        return cast(MatchView, self.call(ops.MATCH, match_id=match_id))

    def events(self, match_id: str, after: int = 0, wait: float | None = None) -> Events:
        timeout = self.timeout + (wait or 0)
        result = self.call(
            ops.MATCH_EVENTS, query={"after": after, "wait": wait}, timeout=timeout, match_id=match_id
        )
        return cast(Events, result)

    def stream(self, match_id: str, after: int = 0) -> Iterator[Json]:
        """The match's events as the server pushes them (Server-Sent Events): each visible event,
        then after each batch a ``{"type": "state", ...}`` item (awaiting, legal commands); ends
        when the server closes the stream. Resume with ``after`` = the last event's version."""
        url = self.base_url + ops.MATCH_STREAM.url_path(match_id=match_id)
        headers = {"Authorization": f"Bearer {self.token}", "Last-Event-ID": str(after)}
        with self.http.get(url, headers=headers, stream=True, timeout=(self.timeout, None)) as response:
            if response.status_code != 200:
                _decode(response)  # raises ApiError for an error; 204: the match is over and seen
                return
            yield from sse_items(response.iter_lines(decode_unicode=True))

    def stream_ticket(self, match_id: str) -> Json:
        """A one-minute ticket opening the match's stream without the bearer header (browsers)."""
        return cast(Json, self.call(ops.STREAM_TICKET, match_id=match_id))

    def legal_commands(self, match_id: str) -> LegalCommands:
        return cast(LegalCommands, self.call(ops.LEGAL_COMMANDS, match_id=match_id))

    def command(
        self,
        match_id: str,
        command: Mapping[str, Any],
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandResult:
        body = dict(command)
        if expected_version is not None:
            body["expected_version"] = expected_version
        result = self.call(ops.COMMAND, json=body, idempotency_key=idempotency_key, match_id=match_id)
        return cast(CommandResult, result)

    def practice(
        self, deck: list[str] | None = None, *, game: str | None = None, bots: int | None = None
    ) -> Created:
        """A match of ``game`` (Arcana when None) against ``bots`` bots (the arena's 1-3; default 1)."""
        body = {"deck": deck, "game": game, "bots": bots}
        return cast(Created, self.call(ops.PRACTICE, json={k: v for k, v in body.items() if v is not None}))

    def admin_match(self, setup: Mapping[str, Any], mode: str | None = None) -> Created:
        body: Json = {"setup": dict(setup)}
        if mode is not None:
            body["mode"] = mode
        return cast(Created, self.call(ops.ADMIN_MATCH, json=body))

    def catalog(self) -> Json:
        return cast(Json, self.call(ops.CATALOG))

    # -- matchmaking ------------------------------------------------------------------------------

    def queue(
        self,
        mode: str,
        idempotency_key: str | None = None,
        *,
        game: str | None = None,
        sizes: list[int] | None = None,
    ) -> Ticket:
        """Join ``game``'s queue (Arcana when None; ``sizes``: the arena's table sizes, default all)."""
        body: Json = {"mode": mode}
        if game is not None:
            body["game"] = game
        if sizes is not None:
            body["sizes"] = list(sizes)
        return cast(Ticket, self.call(ops.QUEUE, json=body, idempotency_key=idempotency_key))

    def ticket(self, ticket_id: str) -> Ticket:
        return cast(Ticket, self.call(ops.TICKET, ticket_id=ticket_id))

    def cancel_ticket(self, ticket_id: str) -> Ticket:
        return cast(Ticket, self.call(ops.CANCEL_TICKET, ticket_id=ticket_id))

    # -- economy ----------------------------------------------------------------------------------

    def wallet(self) -> Wallet:
        return cast(Wallet, self.call(ops.WALLET))

    def wallet_history(self, limit: int | None = None, before: int | None = None) -> Json:
        return cast(Json, self.call(ops.WALLET_HISTORY, query={"limit": limit, "before": before}))

    def collection(self) -> list[Json]:
        return cast(list[Json], self.call(ops.COLLECTION)["cards"])

    def open_pack(self, client_seed: str | None = None, idempotency_key: str | None = None) -> Pack:
        body = {"client_seed": client_seed} if client_seed is not None else {}
        return cast(Pack, self.call(ops.OPEN_PACK, json=body, idempotency_key=idempotency_key))

    def craft(self, card_id: str) -> Json:
        return cast(Json, self.call(ops.CRAFT, json={"card_id": card_id}))

    def disenchant(self, card_id: str) -> Json:
        return cast(Json, self.call(ops.DISENCHANT, json={"card_id": card_id}))

    def decks(self) -> list[Deck]:
        return cast(list[Deck], self.call(ops.DECKS)["decks"])

    def create_deck(self, name: str, cards: list[str]) -> Deck:
        return cast(Deck, self.call(ops.CREATE_DECK, json={"name": name, "cards": cards}))

    def deck(self, deck_id: str) -> Deck:
        return cast(Deck, self.call(ops.DECK, deck_id=deck_id))

    def update_deck(self, deck_id: str, name: str, cards: list[str]) -> Deck:
        return cast(Deck, self.call(ops.UPDATE_DECK, json={"name": name, "cards": cards}, deck_id=deck_id))

    def delete_deck(self, deck_id: str) -> None:
        self.call(ops.DELETE_DECK, deck_id=deck_id)

    def activate_deck(self, deck_id: str) -> Deck:
        return cast(Deck, self.call(ops.ACTIVATE_DECK, deck_id=deck_id))

    def claim_line_welcome(self) -> Json:
        """The line's welcome set (once; 409 ``welcome_already_claimed`` after): the collection."""
        return cast(Json, self.call(ops.CLAIM_LINE_WELCOME))

    def line_collection(self) -> Json:
        return cast(Json, self.call(ops.LINE_COLLECTION))

    def line_decks(self) -> list[Json]:
        return cast(list[Json], self.call(ops.LINE_DECKS)["decks"])

    def autofill_line(self) -> Json:
        """A legal five from the collection: the most lit links, then the highest stats (not saved)."""
        return cast(Json, self.call(ops.AUTOFILL_LINE))

    def create_line_deck(self, name: str, cards: list[str]) -> Json:
        return cast(Json, self.call(ops.CREATE_LINE_DECK, json={"name": name, "cards": cards}))

    def update_line_deck(self, deck_id: str, name: str, cards: list[str]) -> Json:
        body = {"name": name, "cards": cards}
        return cast(Json, self.call(ops.UPDATE_LINE_DECK, json=body, deck_id=deck_id))

    def delete_line_deck(self, deck_id: str) -> None:
        self.call(ops.DELETE_LINE_DECK, deck_id=deck_id)

    def activate_line_deck(self, deck_id: str) -> Json:
        return cast(Json, self.call(ops.ACTIVATE_LINE_DECK, deck_id=deck_id))

    def enter_line_tournament(self, cards: list[str]) -> Json:
        """An entry of ten line cards you own (422 ``invalid_entry``, 409 ``already_entered``)."""
        return cast(Json, self.call(ops.ENTER_LINE_TOURNAMENT, json={"cards": cards}))

    def tournaments(self) -> list[Json]:
        """The brackets you entered, newest first."""
        return cast(list[Json], self.call(ops.TOURNAMENTS)["tournaments"])

    def tournament(self, tournament_id: str) -> Json:
        return cast(Json, self.call(ops.TOURNAMENT, tournament_id=tournament_id))

    def choose_lineup(self, tournament_id: str, cards: list[str]) -> Json:
        """Your deck for the bracket's current round, from your entry."""
        return cast(Json, self.call(ops.CHOOSE_LINEUP, json={"cards": cards}, tournament_id=tournament_id))

    def grant(self, player_id: str, reason: str, **amounts: Any) -> Json:
        return cast(
            Json, self.call(ops.ADMIN_GRANT, json={"player_id": player_id, "reason": reason, **amounts})
        )

    def delete_account_of(self, player_id: str, reason: str) -> None:
        """Operators: erase a player's account on their request (as ``delete_account``)."""
        self.call(ops.ADMIN_DELETE_ACCOUNT, json={"reason": reason}, player_id=player_id)

    # -- operator actions, each audited (docs/operations.md, "Operator actions") -------------------

    def suspend(self, player_id: str, reason: str) -> None:
        """Operators: suspend an account (tokens refused, tickets cancelled, matches forfeited)."""
        self.call(ops.ADMIN_SUSPEND, json={"reason": reason}, player_id=player_id)

    def restore(self, player_id: str, reason: str) -> None:
        """Operators: lift an account's suspension."""
        self.call(ops.ADMIN_RESTORE, json={"reason": reason}, player_id=player_id)

    def refund(self, player_id: str, reason: str, **amounts: Any) -> Json:
        """Operators: pay back ``coins``, ``dust``, ``free_packs`` (and ``refund_id``)."""
        return cast(
            Json, self.call(ops.ADMIN_REFUND, json={"reason": reason, **amounts}, player_id=player_id)
        )

    def claw_back(self, player_id: str, reason: str, **amounts: Any) -> Json:
        """Operators: take back ``coins``, ``dust``, ``free_packs`` (and ``claw_back_id``)."""
        return cast(
            Json, self.call(ops.ADMIN_CLAW_BACK, json={"reason": reason, **amounts}, player_id=player_id)
        )

    def void_rating(self, match_id: str, reason: str) -> Json:
        """Operators: void what a ranked match moved of its players' ratings."""
        return cast(Json, self.call(ops.ADMIN_VOID_RATING, json={"match_id": match_id, "reason": reason}))

    # -- progression ------------------------------------------------------------------------------

    def quests(self) -> Json:
        return cast(Json, self.call(ops.QUESTS))

    def swap_quest(self, quest_id: str) -> Json:
        return cast(Json, self.call(ops.SWAP_QUEST, quest_id=quest_id))

    def streak(self) -> Json:
        return cast(Json, self.call(ops.STREAK))

    def season_pass(self) -> Json:
        return cast(Json, self.call(ops.SEASON_PASS))

    def pass_track(self) -> Json:
        return cast(Json, self.call(ops.PASS_TRACK))

    def pass_cosmetics(self) -> Json:
        """Every cosmetic unlocked, season by season."""
        return cast(Json, self.call(ops.PASS_COSMETICS))

    def arcana_today(self, date: str | None = None) -> Json:
        return cast(Json, self.call(ops.ARCANA_TODAY, query={"date": date}))

    def line_progress(self) -> Json:
        """The line's arena XP and training battles."""
        return cast(Json, self.call(ops.LINE_PROGRESS))

    # -- ratings ----------------------------------------------------------------------------------

    # ``game``: ``arcana`` (the server's default) or ``line`` (the line's MMR ladder)

    def my_rating(self, game: str | None = None) -> Json:
        return cast(Json, self.call(ops.MY_RATING, query={"game": game}))

    def my_rating_history(
        self, limit: int | None = None, after: str | None = None, game: str | None = None
    ) -> Json:
        query = {"limit": limit, "after": after, "game": game}
        return cast(Json, self.call(ops.MY_RATING_HISTORY, query=query))

    def rating(self, player_id: str, game: str | None = None) -> Json:
        return cast(Json, self.call(ops.RATING, query={"game": game}, player_id=player_id))

    def leaderboard(
        self, limit: int | None = None, after: str | None = None, game: str | None = None
    ) -> Json:
        query = {"limit": limit, "after": after, "game": game}
        return cast(Json, self.call(ops.LEADERBOARD, query=query))


def _query_value(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else value


def sse_items(lines: Iterable[str]) -> Iterator[Json]:
    """The JSON items of a Server-Sent Events stream given line by line: an event's ``data``, or
    for a frame with an ``event:`` name, that name as ``type`` beside its data. Comments (the
    server's ``: ping``) and ``retry:`` are skipped."""
    name: str | None = None
    data: list[str] = []
    for line in lines:
        if line == "":
            if data:
                item = json.loads("\n".join(data))
                yield {"type": name, **item} if name else item
            name, data = None, []
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "data":
                data.append(value)
            elif field == "event":
                name = value


def _decode(response: requests.Response) -> Any:
    body: Any = None
    if response.content:
        try:
            body = response.json()
        except ValueError:
            body = response.text
    if response.ok:
        return body
    error = body.get("error") if isinstance(body, dict) else None
    code = str(error.get("code")) if isinstance(error, dict) else "http_error"
    message = str(error.get("message")) if isinstance(error, dict) else str(body)[:200]
    raise ApiError(response.status_code, code, message, body, response.headers)
