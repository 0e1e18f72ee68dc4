"""The browser client at /play, in headless Chromium against the whole stack (``make run``'s
processes): a new player registers, plays a practice match to the end clicking only the moves the
page highlights, opens a pack and verifies it in the browser, builds and activates a deck; two
browsers queue casual and play each other to the end (their first pairing rejected by a match service
that had not yet heard of one of them: both pages queue again), one reloading mid-match and one going
away and coming back. The pages follow their matches on the stream (EventSource), which the server
is seen serving. Everything the pages received from the match endpoints, the stream's frames
included, goes through the API tests' hidden-information check (``tests/leaks.py``).

``ARCANA_SCREENSHOTS=docs/screenshots`` (``make screenshots``) saves each main screen as it passes.
Without Chromium the tests skip, except under CI (``CI`` set), where they fail: ``.ci/run``
installs it (``make browser-deps``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest

from harness.stack import Stack
from libs.client import ArcanaClient
from services.economy.domain.packs import open_pack
from tests.browser import fixtures
from tests.browser.chrome import browser_paths, chrome
from tests.browser.player import Player
from tests.leaks import assert_no_leak

pytestmark = pytest.mark.e2e
browsers, shots = fixtures.browsers, fixtures.shots  # the shared fixtures, under their names

if browser_paths() is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI needs chromium and chromedriver for the browser tests: make browser-deps")
    pytest.skip("chromium and chromedriver are not installed (make browser-deps)", allow_module_level=True)

MATCH_PATH = re.compile(r"/v1/matches/([0-9a-f-]{36})")


@pytest.fixture(scope="module")
def stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # The default heartbeat: a page that leaves closes its stream's connection, and the server
    # notices that as it happens (libs/web/departure.py), not at a later heartbeat.
    with Stack(postgres_url, None, tmp_path_factory.mktemp("web-e2e")) as s:
        s.wait_ready()
        yield s
        web_log = s.log("web")
    assert '"status": 500' not in web_log, web_log[-3000:]


def player(stack: Stack, browsers: list[Any], shots: Path | None, width: int = 1280) -> Player:
    """A new player (not registered yet) in a new Chromium window ``width`` px wide."""
    driver = chrome(width, 900)
    browsers.append(driver)
    return Player(driver, stack.url, "web_" + uuid.uuid4().hex[:10], shots)


def _stored_events(stack: Stack, match_id: str) -> list[SimpleNamespace]:
    with psycopg.connect(stack.database_url) as conn:
        rows = conn.execute(
            "SELECT version, type, data FROM match.events WHERE stream = %s ORDER BY version",
            (f"match-{match_id}",),
        ).fetchall()
    return [SimpleNamespace(version=v, type=t, data=d) for v, t, d in rows]


def _match_responses(player: Player, match_id: str) -> list[tuple[str, int, Any]]:
    """(player, version, body) of every response the page got about the match."""
    seen = []
    for entry in player.responses():
        if entry["json"] is None or match_id not in entry["url"] + (entry["body"] or ""):
            continue
        body = entry["json"]
        version = body.get("version") if isinstance(body, dict) else None
        seen.append((player.player_id, version or 10**9, body))
    return seen


def check_no_leak(stack: Stack, player: Player, match_id: str) -> None:
    seen = _match_responses(player, match_id)
    events = _stored_events(stack, match_id)
    last = events[-1].version
    assert_no_leak([(p, min(v, last), body) for p, v, body in seen], events)
    assert len(seen) > 20, f"only {len(seen)} match responses recorded"


def check_played_on_the_stream(stack: Stack, player: Player, match_id: str) -> None:
    """The page followed the match on its stream (EventSource), which the server served, and never
    fell back to the long-poll."""
    frames = [e for e in player.responses() if e["method"] == "STREAM" and match_id in e["url"]]
    assert any((e["json"] or {}).get("type") for e in frames), "no match event arrived on the stream"
    assert not [e for e in player.responses() if "/events?" in e["url"] and "wait=" in e["url"]]
    assert f"/v1/matches/{match_id}/stream" in stack.log("web"), "the server saw no stream request"


def check_only_legal_moves_sent(player: Player) -> int:
    """Each command the page posted names the version it was chosen at, and was among the legal
    moves the server had listed to the page for that version; none was refused as illegal (a 409
    only says the match had moved on meanwhile). A concession, always allowed and never listed, is
    sent without a version and accepted: a move made at the same moment must not void it. The
    number accepted."""
    legal: dict[int, list[dict[str, Any]]] = {}
    accepted = 0
    for entry in player.responses():
        if entry["url"].endswith("/legal-commands") and entry["status"] == 200:
            legal[entry["json"]["version"]] = entry["json"]["commands"]
        elif entry["url"].endswith("/commands") and entry["method"] == "POST":
            command = json.loads(entry["request"])
            if command.get("type") == "concede":
                assert command == {"type": "concede"} and entry["status"] == 200, (command, entry["body"])
                accepted += 1
                continue
            version = command.pop("expected_version")
            listed = legal.get(version, [])
            assert command in listed, f"{command} not among the legal moves at {version}"
            assert entry["status"] in (200, 409), entry["body"]
            accepted += entry["status"] == 200
    return accepted


def stack_wait(probe: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not probe():
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}"
        time.sleep(0.2)


def _sql(stack: Stack, query: str, player_id: str) -> Any:
    with psycopg.connect(stack.database_url, autocommit=True) as conn:
        return conn.execute(query, (player_id,)).fetchone()


def _known_to_match(stack: Stack, player_id: str) -> bool:
    return bool(_sql(stack, "SELECT count(*) FROM match.players WHERE player_id = %s", player_id)[0])


def _forget_in_match(stack: Stack, player_id: str) -> None:
    _sql(stack, "DELETE FROM match.players WHERE player_id = %s RETURNING player_id", player_id)


def _register_in_match(stack: Stack, player_id: str) -> None:
    _sql(stack, "INSERT INTO match.players (player_id) VALUES (%s) RETURNING player_id", player_id)


def _rejected_for(stack: Stack, player_id: str) -> bool:
    query = (
        "SELECT count(*) FROM match.events WHERE type = 'MatchRequestRejected' "
        "AND data->>'reason' = 'unknown_player' AND data::text LIKE '%%' || %s || '%%'"
    )
    return bool(_sql(stack, query, player_id)[0])


def test_a_new_player_practices_opens_and_verifies_a_pack_and_builds_a_deck(
    stack: Stack, browsers: list[Any], shots: Path | None
) -> None:
    p = player(stack, browsers, shots)
    p.register()
    p.wait(lambda: len(p.find("#quests li")) == 3, "three quests")
    assert int(p.text("#coins")) >= 400
    assert p.text("#arcana-today")
    swapped = p.find("#quests li")[0].get_attribute("data-quest")
    p.find("#quests li")[0].find_element("css selector", "button").click()
    p.wait(lambda: p.find("#quests li")[0].get_attribute("data-quest") != swapped, "the swapped quest")
    assert not p.find("#quests button"), "one swap a day: no swap offered after it"
    p.go("home", "#quests li")
    p.shot("home")

    # practice against the bot, to the end, by clicking legal moves only
    p.go("play", "#practice")
    p.shot("play")
    p.click("#practice")
    p.one("#table")
    match_id = p.match_id()
    p.shot("table-mulligan")
    p.play_until(p.ended)
    p.one("#payout-why")
    assert "practice" in p.text("#payout-why")
    p.shot("end")
    assert check_only_legal_moves_sent(p) >= 3
    check_no_leak(stack, p, match_id)
    check_played_on_the_stream(stack, p, match_id)

    # open a pack: the commitment before, the seed after, verified in the browser
    p.go("packs", "#commitment")
    commitment = p.text("#commitment")
    p.click("#open-pack")
    p.wait(lambda: len(p.find("#pack-cards li")) == 5, "five cards")
    seed = p.text("#server-seed")
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    p.click("#verify")
    assert "✓" in p.text("#verify-commitment") and "✓" in p.text("#verify-cards")
    p.shot("packs")
    pack = next(e["json"] for e in p.responses() if e["url"].endswith("/v1/packs") and e["method"] == "POST")
    shown = [li.get_attribute("data-card") for li in p.find("#pack-cards li")]
    assert shown == [c["card_id"] for c in pack["cards"]]
    # the browser's function is the documented one: the same cards as the economy's, pity included
    for pity in (0, pack["pity_before"], 19):
        browser = p.driver.execute_async_script(
            """const [seed, client, n, pity, done] = arguments;
               Promise.all([import('./js/fair.js'), import('./js/cards.js')])
                 .then(([fair, cards]) => cards.loadCatalog()
                   .then((c) => fair.openPack(seed, client, n, pity, c.list)))
                 .then(done, (e) => done(String(e)));""",
            seed,
            pack["client_seed"],
            pack["pack_number"],
            pity,
        )
        assert browser == open_pack(seed, pack["client_seed"], pack["pack_number"], pity)

    # disenchant a card: the dust arithmetic shown
    p.go("collection", "#new-deck")
    dust = int(p.text("#dust"))
    owned = int(re.search(r"owned (\d+)", p.text('[data-card="wolf_pup"] .owned-line')).group(1))  # type: ignore[union-attr]
    p.click('[data-disenchant="wolf_pup"]')
    p.wait(lambda: p.text("#dust-math"), "the dust arithmetic")
    assert f"dust {dust} + 5 = {dust + 5}; you own {owned - 1}." in p.text("#dust-math")
    assert int(p.text("#dust")) == dust + 5

    # build a new deck, legality shown as it grows, then save and activate it
    p.click("#new-deck")
    assert "exactly 20 cards, not 0" in p.text("#deck-problems")
    usable = {}  # card id -> copies a legal deck may hold: owned, at most 2 (1 of a legendary)
    for li in p.find(".card-grid li.owned"):
        owned = int(re.search(r"owned (\d+)", li.text).group(1))  # type: ignore[union-attr]
        legendary = "rarity-legendary" in str(li.find_element("css selector", ".card").get_attribute("class"))
        usable[li.get_attribute("data-card")] = min(owned, 1 if legendary else 2)
    first = next(cid for cid, n in usable.items() if n == 2)
    for _ in range(3):
        p.click(f'[data-add="{first}"]')
    assert "3 copies" in p.text("#deck-problems")
    p.click(f'[data-remove="{first}"]')
    added = 2
    for cid, copies in usable.items():
        for _ in range(copies if cid != first else 0):
            if added < 20:
                p.click(f'[data-add="{cid}"]')
                added += 1
    assert added == 20
    p.wait(lambda: "Legal" in p.text("#deck-problems"), "the deck to be legal")
    p.one("#deck-name").clear()
    p.one("#deck-name").send_keys("Browser deck")
    p.click("#save-deck")
    p.wait(lambda: p.find("#activate-deck:enabled"), "the saved deck")
    p.click("#activate-deck")
    p.wait(lambda: p.text("#activate-deck") == "Active", "the deck to be active")
    p.shot("collection")
    token = p.driver.execute_script("return JSON.parse(localStorage.getItem('arcana.session')).token")
    decks = ArcanaClient(stack.url, token).decks()
    active = next(d for d in decks if d["active"])
    assert active["name"] == "Browser deck" and active["legal"] and len(active["cards"]) == 20


def test_two_browsers_queue_casual_and_play_each_other_through_a_reload_and_a_disconnection(
    stack: Stack, browsers: list[Any], shots: Path | None
) -> None:
    a = player(stack, browsers, shots)
    b = player(stack, browsers, shots, width=412)  # a phone-sized screen
    for p in (a, b):
        p.register()
    # A player who queues seconds after registering may be paired before the match service heard
    # of the registration: it rejects the request (unknown_player) and matchmaking returns both
    # tickets to waiting (TicketReturned); neither page sees its ticket fail. Made certain here (it
    # happened on a loaded machine): match forgets b until it has rejected the pairing.
    stack_wait(lambda: _known_to_match(stack, b.player_id), "match to know b")
    _forget_in_match(stack, b.player_id)
    for p in (a, b):
        p.go("play", "#queue-casual")
        p.click("#queue-casual")
    for p in (a, b):  # each sees its own ticket waiting (or already matched)
        p.wait(lambda p=p: p.find("#waited") or "#/match/" in p.driver.current_url, "the ticket")
    a.shot("queue")
    stack_wait(lambda: _rejected_for(stack, b.player_id), "the pairing rejected for b")
    _register_in_match(stack, b.player_id)
    for p in (a, b):
        p.wait(lambda p=p: "#/match/" in p.driver.current_url and p.find("#table"), "the match", 60)
        tickets = [e["json"] or {} for e in p.responses() if "/v1/queue/" in e["url"]]
        assert not [t for t in tickets if t.get("status") == "failed"], "no ticket failed"
        assert len({t.get("ticket_id") for t in tickets if t.get("ticket_id")}) == 1, "one ticket, kept"
    match_id = a.match_id()
    assert b.match_id() == match_id

    moved = [time.monotonic()]

    def both_step() -> None:
        if a.step() or b.step():
            moved[0] = time.monotonic()
            return
        stalled = time.monotonic() - moved[0]
        assert stalled < 90, f"no move for {stalled:.0f} s:\n{a.describe()}\n{b.describe()}"
        time.sleep(0.2)

    def turn() -> int:
        return int(re.search(r"turn (\d+)", a.text(".table-head .mode")).group(1))  # type: ignore[union-attr]

    while turn() < 3:
        both_step()
    assert re.fullmatch(r"(Your|Opponent's) turn: \d+ s left", a.text("#timer"))
    assert a.find("#log li.theirs"), "the opponent's moves arrive in the log"
    a.shot("table")
    b.shot("table")  # table-phone.png

    # a reload mid-match resumes where it was
    hand = a.hand()
    a.reload()
    a.one("#table")
    assert a.match_id() == match_id
    a.wait(lambda: a.hand_now() == hand, "the same hand")

    # b goes away: after 20 s without a request a sees the disconnection, then the return
    b.leave()
    stack.advance_clock(25)
    a.wait(lambda: "disconnected" in a.text("#table"), "the opponent shown disconnected", 30)
    a.shot("table-disconnected")
    # b comes back while its match's reads fail (as when the server restarts under a page that has
    # just loaded): the table says so and shows the match once they answer, by itself
    b.block("*/v1/matches/*")
    b.driver.get(f"{stack.url}/play/#/match/{match_id}")
    b.wait(lambda: "Connection lost" in b.text("#connection"), "the lost connection shown to b")
    b.block()
    b.wait(lambda: b.find("#table .hand"), "b's table, once the reads answer", 30)
    a.wait(lambda: "disconnected" not in a.text("#table"), "the opponent back", 30)

    # the server goes away and comes back: the page says so and goes on
    stack.kill("web")
    a.wait(lambda: "Connection lost" in a.text("#connection"), "the lost connection shown")
    stack.start("web")
    stack.wait_ready()
    a.wait(
        lambda: a.one("#connection").get_attribute("textContent") == "Reconnected.", "the reconnection", 40
    )

    deadline_steps = 2000
    while not (a.ended() and b.ended()):
        both_step()
        deadline_steps -= 1
        assert deadline_steps > 0, "the match did not end"
    titles = {a.text("#end-title"), b.text("#end-title")}
    assert titles in ({"Victory", "Defeat"}, {"Draw"})
    for p in (a, b):
        p.one("#payout-why")
        assert p.text("#payout-why").startswith("Counts")
        p.wait(lambda p=p: p.find("#payout-credit"), "the credit", 60)
    a.shot("end-casual")
    for p in (a, b):
        assert check_only_legal_moves_sent(p) >= 3
        check_no_leak(stack, p, match_id)
        check_played_on_the_stream(stack, p, match_id)

    a.go("history", "#history")
    a.shot("history")
    a.click(f'[data-match="{match_id}"] .replay-link')
    a.one("#replay-turn")
    a.click("#replay-next")
    a.click("#replay-next")
    assert "Turn 2" in a.text("#replay-turn")
    a.shot("replay")
    a.go("leaderboard", "#leaderboard")
    a.shot("leaderboard")

    # the API reference: Swagger UI over each service's document, from the project's own files
    a.driver.get(f"{stack.url}/docs/")
    a.wait(lambda: len(a.find(".swagger-ui .opblock")) >= 5, "the accounts operations")
    services = [o.text for o in a.find(".swagger-ui .topbar select option")]
    assert services == ["accounts", "economy", "match", "matchmaking", "progression", "ratings"]
    a.shot("docs")
