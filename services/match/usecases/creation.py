"""Starting a match: practice against the bot, an operator's match, a ``MatchRequested`` from
matchmaking (or the stored rejection of one that cannot start); each of any hosted game
(``libs.games``), Arcana unless one is named.

Modes are data (``domain.MODES``); what each way in checks before ``create_match``:

- practice (``practice``): the caller's limits (``limits.admit_practice``: one unfinished practice
  match, a creation rate), checked in the creating transaction; their deck, else their active
  deck as economy last published it (``IllegalActiveDeck`` when illegal), else the game's
  starter deck; the bot plays the starter deck;
- operators (always ``admin``, which pays and moves nothing): a full setup, trusted;
- a ``MatchRequested`` (``requested``): players given by id only play their active deck as economy
  last published it (``with_active_decks``; older requests carry each deck); well-formed
  (``domain.request_problem``) and agreeing with what match knows (``request_mismatch``:
  registered players, none with an unfinished ranked or casual match, each deck the player's
  active deck and legal, the starter deck before any); otherwise a ``MatchRequestRejected`` stream.
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from libs import clock
from libs.contracts import match_id_for
from libs.eventstore import ConcurrencyError, RecordedEvent
from libs.fairplay import ADMIN
from libs.games import IllegalCommand, registry
from libs.games.registry import DEFAULT_GAME
from services.match import domain, fairplay, store, suspended
from services.match.errors import IllegalActiveDeck, MatchExists, PracticeSeats
from services.match.repository import MatchRepository, Outcome
from services.match.scheduling import Dispatcher
from services.match.usecases.limits import MatchLimits, admit_practice

log = logging.getLogger(__name__)

# Arcana's new players play the starter deck until they save one; a line must be built first (from
# the welcome set economy gives), so a player without one cannot start a line match.
STARTER_BEFORE_ANY = (DEFAULT_GAME,)
NO_DECK = "no active deck of this game: build one and make it active"


def needs_deck(game: str) -> bool:
    """Whether players of ``game`` bring decks (the arena's cards are shared: none)."""
    return bool(domain.game_named(game).starter_deck)


Transaction = Callable[..., AbstractContextManager[psycopg.Connection[Any]]]
AfterCommit = Callable[[Callable[[], None]], None]
Problem = tuple[str, str, Any]  # (reason, message, details per player id)


class MatchCreation:
    def __init__(self, matches: MatchRepository, dispatcher: Dispatcher, limits: MatchLimits) -> None:
        self.matches = matches
        self.schema = matches.schema
        self.dispatcher = dispatcher
        self.limits = limits

    def create_match(
        self,
        mode: str,
        players: Sequence[Mapping[str, Any]],
        *,
        bot: str | None = None,
        request_id: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        match_id: str | None = None,
        conn: psycopg.Connection[Any] | None = None,
        game: str = DEFAULT_GAME,
        bots: Sequence[str] = (),
    ) -> Outcome:
        """Start a match (the game's ``IllegalSetup`` for an illegal setup; ``MatchExists`` for a
        taken id). With ``conn`` the caller commits and then calls ``dispatcher.dispatch``."""
        match_id = match_id or str(uuid.uuid4())
        seed = seed if seed is not None else secrets.randbits(63)
        today = clock.now().date().isoformat()
        decision = domain.open_match(
            match_id,
            mode,
            players,
            seed,
            today,
            bot=bot,
            request_id=request_id,
            options=options,
            game=game,
            bots=bots,
        )
        try:
            outcome = self.matches.append(None, match_id, decision, conn)
        except ConcurrencyError:
            raise MatchExists(match_id) from None
        if conn is None:
            self.dispatcher.dispatch(outcome)
        return outcome

    # -- practice and operators (over HTTP) ---------------------------------------------------------

    def practice(
        self,
        player: str,
        deck: list[str] | None,
        game: str,
        *,
        transaction: Transaction,
        after_commit: AfterCommit,
        bots: int = 1,
    ) -> dict[str, Any]:
        """A match of ``player`` against ``bots`` bots of the game, at once; its timers and bots are
        scheduled after the commit. Each bot plays the game's bot deck (``Game.bot_deck``). Raises
        ``PracticeSeats`` (the game does not seat ``1 + bots``), ``PracticeInProgress``,
        ``TooManyRequests``, ``IllegalActiveDeck`` and the game's ``IllegalSetup``."""
        g = domain.game_named(game)
        if 1 + bots not in g.seats:
            raise PracticeSeats(game, sorted(n - 1 for n in g.seats))
        seated = [f"bot-{uuid.uuid4()}" for _ in range(bots)]
        rng = random.Random(secrets.randbits(64))
        players = [
            {"id": player, "deck": deck or self.practice_deck(player, game)},
            *({"id": b, "deck": list(g.bot_deck(rng))} for b in seated),
        ]
        with transaction() as conn:
            admit_practice(conn, self.schema, player, self.limits)
            outcome = self.create_match("practice", players, bot=seated[0], conn=conn, game=game, bots=seated)
        after_commit(lambda: self.dispatcher.dispatch(outcome))
        return {
            "match_id": outcome.after.match_id,
            "version": outcome.after.version,
            "bot": seated[0],
            "bots": seated,
        }

    def operators(
        self,
        game: str,
        setup: Mapping[str, Any],
        *,
        transaction: Transaction,
        after_commit: AfterCommit,
    ) -> dict[str, Any]:
        """An operator's match from a full setup (``players``, ``seed`` and the game's options), always in
        mode ``admin``: it pays and moves nothing (``libs.fairplay``)."""
        options = dict(setup)
        players = options.pop("players")
        seed = options.pop("seed", None)
        with transaction() as conn:
            outcome = self.create_match(ADMIN, players, options=options, seed=seed, conn=conn, game=game)
        after_commit(lambda: self.dispatcher.dispatch(outcome))
        return {"match_id": outcome.after.match_id, "version": outcome.after.version, "bot": None}

    def practice_deck(self, player: str, game: str = DEFAULT_GAME) -> list[str]:
        """The player's active deck of ``game`` as economy last published it: Arcana's starter deck
        before any; a line must have been published (``NO_DECK`` otherwise); a game without decks
        (the arena) none. Raises ``IllegalActiveDeck`` (with every problem) when that deck is not
        legal now, or missing."""
        if not needs_deck(game):
            return []
        with self.matches.pool.connection() as conn:
            found = store.active_deck(conn, self.schema, player, game)
        if found is None:
            if game in STARTER_BEFORE_ANY:
                return list(domain.game_named(game).starter_deck)
            raise IllegalActiveDeck([NO_DECK])
        if not found.legal:
            raise IllegalActiveDeck(found.problems)
        return found.cards

    # -- matchmaking's MatchRequested (in the consumer's transaction) ------------------------------

    def requested(self, event: RecordedEvent, conn: psycopg.Connection[Any]) -> str | None:
        """Start (or reject) the match of one MatchRequested; returns the match id, or None when the
        request was already handled. The match id is ``match_id_for(request_id)``, so one request
        never makes two matches."""
        data = event.data
        request_id = str(data.get("request_id") or event.event_id)
        match_id = match_id_for(request_id)
        mode, game = data.get("mode"), data.get("game", DEFAULT_GAME)
        players = self.with_active_decks(data.get("players"), conn, str(game))
        problem = (
            self.missing_decks(players, conn, game)
            or domain.request_problem(mode, players, game)
            or self.request_mismatch(list(players or ()), conn, str(game))
        )
        if problem is None:
            try:
                outcome = self.create_match(
                    str(mode),
                    list(players or ()),
                    request_id=request_id,
                    match_id=match_id,
                    conn=conn,
                    game=str(game),
                )
            except MatchExists:
                log.info("match request %s: match %s exists already", request_id, match_id)
                return None
            except IllegalCommand as exc:  # the game's own verdict on the setup
                problem = (exc.code, exc.message, None)
            else:
                # before the commit: a deadline task only looks, the sweep backs it up
                self.dispatcher.dispatch(outcome)
                return match_id
        reason, message, details = problem
        events = domain.rejected_request_events(
            match_id, request_id, mode, players, reason, message, details, game
        )
        if not self.reject_request(match_id, events, conn):
            return None
        log.info("match request %s rejected: %s", request_id, message)
        return match_id

    def reject_request(
        self, match_id: str, events: list[domain.Event], conn: psycopg.Connection[Any]
    ) -> bool:
        """Store a MatchRequestRejected stream in ``conn``'s transaction; False when the request was
        already handled (the stream exists)."""
        try:
            self.matches.append(None, match_id, domain.Decision(events), conn)
        except ConcurrencyError:
            return False
        return True

    def with_active_decks(self, players: Any, conn: psycopg.Connection[Any], game: str = DEFAULT_GAME) -> Any:
        """``players`` of a MatchRequested, each given without a ``deck`` given the deck it must
        play (requests carry ids only, issue 17 finding 5; older ones carried decks, which are kept
        and vetted). Anything malformed is returned as it is, for ``request_problem`` to name."""
        if not isinstance(players, list) or game not in registry.names():
            return players
        return [
            {**p, "deck": self._expected_deck(conn, p["id"], game)}
            if isinstance(p, Mapping) and "deck" not in p and isinstance(p.get("id"), str)
            else p
            for p in players
        ]

    def missing_decks(self, players: Any, conn: psycopg.Connection[Any], game: Any) -> Problem | None:
        """For a game whose decks economy publishes without a starter before any (the line): the
        players given by id with no active deck of it, or one published as not legal
        (``illegal_deck``, as for Arcana). None otherwise (anything malformed is
        ``request_problem``'s to name)."""
        if not isinstance(game, str) or game in STARTER_BEFORE_ANY or not needs_deck(game):
            return None
        if not isinstance(players, list):
            return None
        ids = [str(p["id"]) for p in players if isinstance(p, Mapping) and isinstance(p.get("id"), str)]
        found = {i: store.active_deck(conn, self.schema, i, game) for i in ids}
        problems = {
            i: [NO_DECK] if d is None else d.problems or ["the deck is not legal"]
            for i, d in found.items()
            if d is None or not d.legal
        }
        if not problems:
            return None
        return "illegal_deck", f"no legal active {game} deck of {', '.join(sorted(problems))}", problems

    def request_mismatch(
        self, players: Sequence[Mapping[str, Any]], conn: psycopg.Connection[Any], game: str = DEFAULT_GAME
    ) -> Problem | None:
        """Why well-formed ``players`` disagree with what match knows (issue 12, finding 3), or None:
        a player accounts never registered (``unknown_player``), a player with an unfinished ranked
        or casual match (``match_in_progress``: one match at a time), an active deck economy last
        published as not legal against the collection (``illegal_deck``, with its problems), a deck
        that is not the player's active deck as economy last published it, or the starter deck
        before any, in any order (``deck_mismatch``; the decks are Arcana's only: economy keeps no
        other game's). A request reaching match before its players' events is rejected;
        matchmaking then returns the tickets to waiting (``unknown_player``; other reasons fail them)."""
        ids = [str(p["id"]) for p in players]
        known = store.known_players(conn, self.schema, ids)
        barred = suspended.suspended_among(conn, self.schema, ids)
        unknown = [i for i in ids if i not in known or i in barred]
        if unknown:
            details = {i: ["suspended" if i in barred else "no such player"] for i in unknown}
            return "unknown_player", f"unknown player(s): {', '.join(unknown)}", details
        busy = fairplay.unfinished_matches(conn, self.schema, ids)
        if busy:
            details = {i: [f"match {m} has not ended"] for i, m in busy.items()}
            return "match_in_progress", f"a match of {', '.join(sorted(busy))} has not ended", details
        if game not in STARTER_BEFORE_ANY:
            return None  # the line's decks: ``missing_decks``; the arena has none
        illegal = self._illegal_decks(conn, ids)
        if illegal:
            return "illegal_deck", f"the active deck of {', '.join(sorted(illegal))} is not legal", illegal
        wrong = [
            str(p["id"])
            for p in players
            if sorted(p["deck"]) != sorted(self._expected_deck(conn, str(p["id"])))
        ]
        if wrong:
            details = {i: ["the deck is not the player's active deck"] for i in wrong}
            return "deck_mismatch", f"not the active deck of {', '.join(wrong)}", details
        return None

    def _illegal_decks(self, conn: psycopg.Connection[Any], ids: Sequence[str]) -> dict[str, list[str]]:
        """Player id -> the problems of their active deck, for those whose deck economy last published
        as not legal against their collection (a card disenchanted while they waited)."""
        found = {i: store.active_deck(conn, self.schema, i) for i in ids}
        return {i: d.problems or ["the deck is not legal"] for i, d in found.items() if d and not d.legal}

    def _expected_deck(
        self, conn: psycopg.Connection[Any], player_id: str, game: str = DEFAULT_GAME
    ) -> list[str]:
        """The deck a player's ranked or casual match must use: their active deck of the game, or
        the starter deck (an empty one for a game without decks; a line never published is caught
        by ``missing_decks``)."""
        starter = list(domain.game_named(game).starter_deck)
        if not needs_deck(game):
            return starter
        found = store.active_deck(conn, self.schema, player_id, game)
        return list(found.cards) if found is not None else starter

    # -- other services' read models (in the consumer's transaction) -------------------------------

    def keep_player(self, player_id: str, conn: psycopg.Connection[Any]) -> None:
        """Record a player accounts registered."""
        store.keep_player(conn, self.schema, player_id)

    def keep_active_deck(self, data: dict[str, Any], version: int, conn: psycopg.Connection[Any]) -> None:
        """Record a player's active deck as economy published it."""
        store.keep_active_deck(conn, self.schema, data, version)
