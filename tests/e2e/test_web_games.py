"""The line and Arcane Arena in the browser client at /play (issue 31), in headless Chromium against the
whole stack, by clicks only:

- the line, from an empty account: the game picker, the welcome set, the five-card editor (cards placed
  by tapping, the links lighting up as they are placed and agreeing with the server's reading),
  Autofill and a swap by hand, save and activate, the three training battles (ranked opens), then a
  casual queue of two pages (one phone-sized) and the fight viewer played to the end; its shareable
  URL opens the same moment of the fight on the other player's page;
- the arena: a table of 3 (one page, two practice bots): the page plays its turns (action and discard
  phases) until one attack on its player was answered in time and one left to time out (the clock
  moved through the stack's clock file, never slept), then leaves the match; the bots play it on to
  its end, which the page shows (a whole match played from the page took 226 s: too long for the
  suite). Nothing hidden reaches the page, and only listed moves (and the concession) are sent.

On the e2e modules' shared stack (``tests/e2e/conftest.py``): new players of its own, every ticket
matched. ``make screenshots`` saves each new screen to docs/screenshots/.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from selenium.webdriver.support.ui import Select

from harness.stack import Stack
from libs.games.line import CATALOG
from libs.games.line.links import active_links, bake
from tests.browser import fixtures
from tests.browser.games import (
    answer_reaction,
    arena_step,
    concede,
    drag,
    line_slots,
    lit_links,
    reaction_open,
)
from tests.browser.player import Player
from tests.e2e.test_web_client import check_only_legal_moves_sent, player
from tests.leaks import assert_no_arena_leak

pytestmark = pytest.mark.e2e
browsers, shots = fixtures.browsers, fixtures.shots  # the shared fixtures, under their names

WELCOME_SET = 11
TRAINING = 3
REACTION_SECONDS = 10  # docs/arena.md: the attacked player's window


def posted(p: Player, path: str) -> list[dict[str, Any]]:
    """The bodies of the successful answers to the page's writes to ``path`` (each once the record
    has read it: the recorder reads a copy of the body as the page reads its own)."""
    return [
        e["json"]
        for e in p.responses()
        if e["method"] in ("POST", "PUT")
        and e["url"].endswith(path)
        and e["status"] < 300
        and e["json"] is not None
    ]


def stored(stack: Stack, match_id: str) -> list[Any]:
    with psycopg.connect(stack.database_url) as conn:
        rows = conn.execute(
            "SELECT version, type, data FROM match.events WHERE stream = %s ORDER BY version",
            (f"match-{match_id}",),
        ).fetchall()
    return [SimpleNamespace(version=v, type=t, data=d) for v, t, d in rows]


# -- the line ------------------------------------------------------------------------------------


def build_line(p: Player, tap_first: bool) -> list[str]:
    """Claim the welcome set, (``tap_first``: place three cards by tapping, the links lighting up),
    Autofill, swap the first two by hand, save and activate: the line saved."""
    p.go("play/line", "#claim-welcome")
    p.shot("line-welcome")
    p.click("#claim-welcome")
    p.wait(lambda: len(p.find("#line-collection [data-line-card]")) == WELCOME_SET, "the welcome set")
    assert "0 / 3" in p.text("#training-count") and p.find("#train:disabled")
    if tap_first:
        p.click('[data-line-card="moss_shaman"]')  # a support: anchor
        assert line_slots(p) == ["moss_shaman", "", "", "", ""] and lit_links(p) == [("anchor", 1)]
        p.click('[data-line-card="iron_warden"]')  # a tank and initiator
        p.click('[data-line-card="ash_hound"]')  # a carry: classic lights
        assert line_slots(p)[:3] == ["moss_shaman", "iron_warden", "ash_hound"]
        assert lit_links(p) == [("anchor", 1), ("classic", 1)]
        assert p.find('#line-links li.lit.lighting[data-link="classic"]'), "the new link lights up"
        drag(p, '[data-line-card="frost_caller"]', '#line-slots [data-slot="4"]')  # dragging, too
        drag(p, '#line-slots [data-slot="4"]', '#line-slots [data-slot="3"]')  # a slot onto a slot: swapped
        assert line_slots(p) == ["moss_shaman", "iron_warden", "ash_hound", "frost_caller", ""]
        p.shot("line-editor")
    p.click("#autofill")
    proposed = p.wait(lambda: posted(p, "/v1/line/decks/autofill"), "the autofill's answer")[-1]
    p.wait(lambda: line_slots(p) == proposed["cards"], "the proposed five in the editor")
    # the editor's reading of the links and baked stats is the server's
    assert lit_links(p) == [(link["id"], link["tier"]) for link in proposed["links"]]
    shown = [b.get_attribute("data-stats") for b in p.find("#line-slots [data-slot]")]
    assert shown == [f"{f['atk']}/{f['arm']}/{f['hp']}" for f in proposed["stats"]]
    p.click('#line-slots [data-slot="0"]')  # swap by hand: the front two change places
    p.click('#line-slots [data-slot="1"]')
    line = [proposed["cards"][1], proposed["cards"][0], *proposed["cards"][2:]]
    assert line_slots(p) == line
    p.click("#save-line")
    p.one("#line-saved")
    saved = p.wait(lambda: posted(p, "/activate"), "the activated line's answer")[-1]
    assert saved["cards"] == line and saved["active"] and saved["legal"]
    assert lit_links(p) == [(link["id"], link["tier"]) for link in saved["links"]]
    return line


READ_LINKS = """
const [fives, done] = arguments;
import("./js/linecards.js").then((m) => m.loadLineCatalog().then(() => fives.map((five) => {
  const { lit } = m.lineLinks(five);
  const stats = m.baked(five, lit).map((f) => [f.atk, f.arm, f.hp]);
  return { links: lit.map((l) => [l.id, l.tier, l.slots]), stats };
}))).then(done, (e) => done(String(e)));
"""


def check_the_pages_links(p: Player, count: int = 400) -> None:
    """The page's reading of the links and baked stats (the editor's, before anything is saved) is the
    rules package's, on random fives of the catalog."""
    rng = random.Random(31)
    classic_in_one = ["sun_herald", "reed_archer", "ash_hound", "blade_dancer", "gale_duelist"]  # rules v2
    fives = [classic_in_one, *(rng.sample(sorted(CATALOG), 5) for _ in range(count))]
    shown = p.driver.execute_async_script(READ_LINKS, fives)
    assert isinstance(shown, list), shown
    for five, page in zip(fives, shown, strict=True):
        cards = [CATALOG[c] for c in five]
        found = active_links(cards)
        assert page["links"] == [[x.id, x.tier, list(x.slots)] for x in found], five
        assert page["stats"] == [[f.atk, f.arm, f.hp] for f in bake(cards, found)], five


def train(p: Player) -> None:
    """The three training battles, each watched to its end in the viewer (at once: ⏭); ranked opens."""
    for battle in range(TRAINING):
        p.go("play/line", "#train:enabled")
        p.click("#train")
        p.wait(lambda: "#/fight/" in p.driver.current_url and p.find("#fight"), "the training fight", 30)
        if battle == 0:
            p.shot("line-training")
        p.click("#fight-last")
        assert p.text("#fight-result") in ("Victory", "Defeat")

    def opened() -> bool:  # progression counts each battle as it hears of it: look again until it has
        if f"{TRAINING} / {TRAINING}" in p.text("#training-count"):
            return True
        p.reload()
        return False

    p.go("play/line", "#training-count")
    p.wait(opened, "three training battles counted", 60)
    assert p.find("#queue-ranked:enabled"), "ranked opens after three training battles"


def test_a_line_fight_from_an_empty_account_to_the_end_of_the_fight_viewer(
    stack: Stack,
    browsers: list[Any],
    shots: Path | None,
) -> None:
    a = player(stack, browsers, shots)
    b = player(stack, browsers, shots, width=412)  # a phone-sized screen
    for p in (a, b):
        p.register()
    a.click('#game-picker [data-game="line"]')
    a.one("#claim-welcome")
    build_line(a, tap_first=True)
    a.shot("line")
    check_the_pages_links(a)
    build_line(b, tap_first=False)
    b.shot("line")  # line-phone.png
    train(a)

    for p in (a, b):
        p.go("play/line", "#queue-casual:enabled")
        p.click("#queue-casual")
    for p in (a, b):
        p.wait(lambda p=p: "#/fight/" in p.driver.current_url and p.find("#fight"), "the casual fight", 60)
    match_id = a.driver.current_url.split("#/fight/")[1].split("/")[0]
    assert match_id in b.driver.current_url

    # the viewer: step, then play at the highest speed to the end
    def read_by_the_page() -> Any:
        return next((e["json"] for e in a.responses() if e["url"].endswith(f"/v1/matches/{match_id}")), None)

    view = a.wait(read_by_the_page, "the fight the page read")
    log = view["log"]
    actions = sum(len(r["actions"]) for r in log["rounds"])
    steps = 1 + len(log["rounds"]) + actions + 1
    assert a.text("#fight-step") == f"Step 0 / {steps - 1}"
    a.click("#fight-next")
    assert a.text("#fight-round") == "Round 1" and a.text("#fight-text").startswith("Round 1:")
    a.click("#fight-next")
    first = log["rounds"][0]["actions"][0]
    assert f"for {first['damage']}" in a.text("#fight-text")
    a.shot("fight")
    Select(a.one("#fight-speed")).select_by_value("16")
    a.click("#fight-play")
    a.wait(lambda: a.find("#fight-result"), "the end of the fight", 30)
    assert a.text("#fight-step") == f"Step {steps - 1} / {steps - 1}"
    won = log["end"]["winner"] == "you"
    assert a.text("#fight-result") == ("Victory" if won else "Defeat")
    assert len(a.find("#fight-log li")) == min(60, steps - 1)
    fallen = [li for li in a.find(".fight-row li") if li.get_attribute("data-hp") == "0"]
    assert len(fallen) == sum(1 for r in log["rounds"] for x in r["actions"] if x.get("fell"))
    a.shot("fight-end")

    # the shareable URL: the same moment of the fight on the other player's page
    a.click("#fight-first")
    a.click("#fight-next")
    a.click("#fight-next")
    url = str(a.one("#fight-url").get_attribute("value"))
    assert url.endswith(f"#/fight/{match_id}/2")
    b.driver.get(url)
    b.wait(lambda: b.text("#fight-step").startswith("Step 2 /"), "the shared moment")
    # the same hit, told from the other side
    assert b.text("#fight-text").split(" for ")[1] == a.text("#fight-text").split(" for ")[1]
    assert a.text("#fight-text").startswith("Your ") != b.text("#fight-text").startswith("Your ")
    b.shot("fight")  # fight-phone.png


# -- the arena -----------------------------------------------------------------------------------


def test_a_table_of_3_against_two_bots_to_its_end_one_reaction_answered_one_timed_out(
    stack: Stack,
    browsers: list[Any],
    shots: Path | None,
) -> None:
    p = player(stack, browsers, shots)
    p.register()
    p.go("play", "#game-picker")
    p.click('#game-picker [data-game="arena"]')
    Select(p.one("#arena-bots")).select_by_value("2")
    p.shot("arena-play")
    p.click("#arena-practice")
    p.wait(lambda: "#/arena/" in p.driver.current_url and p.find("#seats .seat"), "the table")
    match_id = p.driver.current_url.rsplit("/", 1)[1]
    assert len(p.find("#seats .seat")) == 3

    reactions = {"answered": 0, "timed_out": 0}
    turns_ended, moved, shown = 0, time.monotonic(), set()
    while not (reactions["answered"] and reactions["timed_out"] and turns_ended):
        assert not p.ended(), "the match ended before the page was attacked twice"
        if reaction_open(p):
            if reactions["answered"]:
                assert re.fullmatch(r"\d+ s", p.text("#reaction-timer")), p.text("#reaction-timer")
                p.shot("arena-reaction")
                before = p.version()
                stack.advance_clock(REACTION_SECONDS + 1)  # the sweep passes for the silent player
                p.wait(lambda before=before: p.version() != before, "the reaction to time out", 30)
                reactions["timed_out"] += 1
            else:
                reactions["answered"] += answer_reaction(p)
            moved = time.monotonic()
            continue
        ending = bool(p.find("#end-turn"))
        if ending and "discard" not in shown:
            shown.add("discard")
            p.shot("arena-discard")
        if arena_step(p):
            turns_ended += ending
            moved = time.monotonic()
            continue
        assert time.monotonic() - moved < 60, f"no move for 60 s: {p.describe()}"
        p.wait(lambda: p.ended() or reaction_open(p) or _mine(p), "the table to wait for the page", 60)
    p.shot("arena")
    p.driver.set_window_size(412, 900)  # a phone-sized screen
    p.wait(lambda: p.find("#seats .seat"), "the table on a phone")
    p.shot("arena")  # arena-phone.png
    p.driver.set_window_size(1280, 900)

    # the page's player leaves; the two bots play the match on to its end, which the page shows
    concede(p)
    p.wait(p.ended, "the bots to finish the match", 180)
    p.shot("arena-end")

    events = stored(stack, match_id)
    me = p.player_id
    passes = [e.data for e in events if e.type == "ReactionPassed" and e.data["player_id"] == me]
    played = [e.data for e in events if e.type == "ReactionPlayed" and e.data["player_id"] == me]
    assert any(x["timed_out"] for x in passes), "one reaction left to time out"
    assert played or any(not x["timed_out"] for x in passes), "one reaction answered in time"
    (ended,) = [e.data for e in events if e.type == "MatchEnded"]
    placed = [x for g in ended["placements"] for x in g]
    assert len(placed) == 3 and ended["placements"][-1] == [me], "who leaves places last"
    assert [e.data["reason"] for e in events if e.type == "PlayerLeft"] == ["concede"]
    assert len(p.find("#placements li")) == len(ended["placements"])
    assert p.text("#end-title") == "Defeat" and "You" in p.find("#placements li")[-1].text
    assert check_only_legal_moves_sent(p) >= 4  # an answer, an action, an end of turn, the concession
    seen = [
        (me, (e["json"] or {}).get("version") or 10**9, e["json"])
        for e in p.responses()
        if e["json"] is not None and match_id in e["url"] + (e["body"] or "")
    ]
    last = events[-1].version
    assert assert_no_arena_leak([(w, min(v, last), b) for w, v, b in seen], events) > 50
    assert json.dumps(seen).count('"seed"') == 0


def _mine(p: Player) -> bool:
    status = p.find("#turn-status")
    return bool(status) and status[0].get_attribute("data-mine") == "true"
