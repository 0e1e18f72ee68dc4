"""The REST operations the client calls, declared once: method, path template, query parameters and
whether a JSON body is sent. ``tests/unit/test_client_contract.py`` checks each against the services'
OpenAPI documents (same method and path, the same path parameters, query parameters the document
lists, a body only where it takes one)."""

from __future__ import annotations

import string
from dataclasses import dataclass


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    query: tuple[str, ...] = ()
    body: bool = False

    @property
    def path_params(self) -> tuple[str, ...]:
        return tuple(name for _, name, _, _ in string.Formatter().parse(self.path) if name)

    def url_path(self, **params: str) -> str:
        missing = set(self.path_params) - params.keys()
        if missing:
            raise TypeError(f"{self.method} {self.path} needs {sorted(missing)}")
        return self.path.format(**params)


def _op(method: str, path: str, *query: str, body: bool = False) -> Operation:
    return Operation(method, path, tuple(query), body)


# accounts
REGISTER = _op("POST", "/v1/accounts", body=True)
LOG_IN = _op("POST", "/v1/sessions", body=True)
LOG_OUT = _op("DELETE", "/v1/sessions/current")
LOG_OUT_EVERYWHERE = _op("DELETE", "/v1/sessions")
ME = _op("GET", "/v1/me")
DISPLAY_NAME = _op("PUT", "/v1/me/display-name", body=True)
DELETE_ACCOUNT = _op("DELETE", "/v1/accounts/me", body=True)
# match
MATCHES = _op("GET", "/v1/matches", "active")
MATCH = _op("GET", "/v1/matches/{match_id}")
MATCH_EVENTS = _op("GET", "/v1/matches/{match_id}/events", "after", "wait")
MATCH_STREAM = _op("GET", "/v1/matches/{match_id}/stream", "after", "ticket")
STREAM_TICKET = _op("POST", "/v1/matches/{match_id}/stream-tickets")
LEGAL_COMMANDS = _op("GET", "/v1/matches/{match_id}/legal-commands")
COMMAND = _op("POST", "/v1/matches/{match_id}/commands", body=True)
PRACTICE = _op("POST", "/v1/practice", body=True)
ADMIN_MATCH = _op("POST", "/v1/admin/matches", body=True)
CATALOG = _op("GET", "/v1/catalog")
# matchmaking
QUEUE = _op("POST", "/v1/queue", body=True)
TICKET = _op("GET", "/v1/queue/{ticket_id}")
CANCEL_TICKET = _op("DELETE", "/v1/queue/{ticket_id}")
# economy
WALLET = _op("GET", "/v1/wallet")
WALLET_HISTORY = _op("GET", "/v1/wallet/history", "limit", "before")
COLLECTION = _op("GET", "/v1/collection")
OPEN_PACK = _op("POST", "/v1/packs", body=True)
CRAFT = _op("POST", "/v1/crafts", body=True)
DISENCHANT = _op("POST", "/v1/disenchants", body=True)
DECKS = _op("GET", "/v1/decks")
CREATE_DECK = _op("POST", "/v1/decks", body=True)
DECK = _op("GET", "/v1/decks/{deck_id}")
UPDATE_DECK = _op("PUT", "/v1/decks/{deck_id}", body=True)
DELETE_DECK = _op("DELETE", "/v1/decks/{deck_id}")
ACTIVATE_DECK = _op("POST", "/v1/decks/{deck_id}/activate")
ADMIN_GRANT = _op("POST", "/v1/admin/grants", body=True)
ADMIN_DELETE_ACCOUNT = _op("DELETE", "/v1/admin/accounts/{player_id}", body=True)
ADMIN_SUSPEND = _op("POST", "/v1/admin/accounts/{player_id}/suspension", body=True)
ADMIN_RESTORE = _op("DELETE", "/v1/admin/accounts/{player_id}/suspension", body=True)
ADMIN_REFUND = _op("POST", "/v1/admin/wallets/{player_id}/refunds", body=True)
ADMIN_CLAW_BACK = _op("POST", "/v1/admin/wallets/{player_id}/claw-backs", body=True)
ADMIN_VOID_RATING = _op("POST", "/v1/admin/rating-voids", body=True)
CLAIM_LINE_WELCOME = _op("POST", "/v1/line/welcome")
LINE_COLLECTION = _op("GET", "/v1/line/collection")
LINE_DECKS = _op("GET", "/v1/line/decks")
CREATE_LINE_DECK = _op("POST", "/v1/line/decks", body=True)
AUTOFILL_LINE = _op("POST", "/v1/line/decks/autofill")
UPDATE_LINE_DECK = _op("PUT", "/v1/line/decks/{deck_id}", body=True)
DELETE_LINE_DECK = _op("DELETE", "/v1/line/decks/{deck_id}")
ACTIVATE_LINE_DECK = _op("POST", "/v1/line/decks/{deck_id}/activate")
ENTER_LINE_TOURNAMENT = _op("POST", "/v1/line/tournament/entries", body=True)
# match: tournaments
TOURNAMENTS = _op("GET", "/v1/tournaments")
TOURNAMENT = _op("GET", "/v1/tournaments/{tournament_id}")
CHOOSE_LINEUP = _op("PUT", "/v1/tournaments/{tournament_id}/lineup", body=True)
# progression
QUESTS = _op("GET", "/v1/quests")
SWAP_QUEST = _op("POST", "/v1/quests/{quest_id}/swap")
STREAK = _op("GET", "/v1/streak")
SEASON_PASS = _op("GET", "/v1/pass")
PASS_TRACK = _op("GET", "/v1/pass/track")
PASS_COSMETICS = _op("GET", "/v1/pass/cosmetics")
ARCANA_TODAY = _op("GET", "/v1/arcana/today", "date")
LINE_PROGRESS = _op("GET", "/v1/line/progress")
# ratings
MY_RATING = _op("GET", "/v1/ratings/me", "game")
MY_RATING_HISTORY = _op("GET", "/v1/ratings/me/history", "limit", "after", "game")
RATING = _op("GET", "/v1/ratings/{player_id}", "game")
LEADERBOARD = _op("GET", "/v1/leaderboard", "limit", "after", "game")

ALL: tuple[Operation, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Operation))
