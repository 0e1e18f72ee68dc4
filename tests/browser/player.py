"""A player in a browser: what a person does on /play, through clicks and typing only. Moves are
made by clicking what the page highlights as legal (the server's list); nothing is sent by hand."""

from __future__ import annotations

import base64
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from tests.browser.chrome import page_errors, received

PASSWORD = "a long enough secret"
REDRAWS = 5  # redraws of an element between finding and clicking it before a click gives up


class Player:
    def __init__(self, driver: Any, base_url: str, username: str, shots: Path | None = None) -> None:
        self.driver, self.base_url, self.username, self.shots = driver, base_url, username, shots
        self.rng = random.Random(username)
        self.seen: list[dict[str, Any]] = []  # responses of pages left by a reload
        self.player_id = ""

    # -- looking --------------------------------------------------------------------------------

    def find(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def one(self, css: str, timeout: float = 20) -> WebElement:
        return self.wait(
            lambda: (self.find(css) or [None])[0], f"{css} on {self.driver.current_url}", timeout
        )

    def text(self, css: str, timeout: float = 20) -> str:
        """The first match's text, read in the same attempt as it was found: a page that renders
        again between the two makes the element stale, and the attempt is made again."""

        return self._read(css, lambda element: str(element.text), timeout)

    def _read(self, css: str, read: Callable[[WebElement], str], timeout: float = 20) -> str:
        def attempt() -> tuple[str] | None:
            found = self.find(css)
            return (read(found[0]),) if found else None

        return str(self.wait(attempt, f"{css} on {self.driver.current_url}", timeout)[0])

    def wait(self, condition: Callable[[], Any], what: str, timeout: float = 20) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = condition()
            except (StaleElementReferenceException, WebDriverException):
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                status = [e.get_attribute("textContent") for e in self.find("#status, #queue-status")]
                raise AssertionError(
                    f"waited {timeout}s for {what} on {self.driver.current_url}; said {status}; "
                    f"errors {page_errors(self.driver)}"
                )
            time.sleep(0.1)

    def hand_now(self) -> list[str]:
        """The cards in the hand as the page shows them now (raises a stale element's exception
        while the page redraws the table)."""
        return sorted(str(el.get_attribute("data-card")) for el in self.find(".hand [data-card]"))

    def hand(self) -> list[str]:
        """The cards in the hand once the page has stopped redrawing it: the same two reads in a
        row (an opponent's move arriving redraws the table and leaves read elements stale)."""
        last: list[list[str]] = []

        def same_twice() -> tuple[list[str]] | None:
            now = self.hand_now()
            settled = bool(last) and last[-1] == now
            last.append(now)
            return (now,) if settled else None

        return list(self.wait(same_twice, "the hand to settle")[0])

    def shot(self, name: str) -> None:
        """Save the whole page (up to 2,400 px high) as ``<shots>/<name>.png`` when screenshots are
        asked for; phone-sized windows add ``-phone`` to the name."""
        if self.shots is None:
            return
        time.sleep(0.8)  # let reveal animations finish
        self.driver.execute_script("document.getElementById('status')?.classList.remove('shown')")
        time.sleep(0.3)
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 2400), "scale": 1}
        shot = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
        )
        suffix = "-phone" if size["width"] < 600 else ""
        (self.shots / f"{name}{suffix}.png").write_bytes(base64.b64decode(shot["data"]))

    def go(self, route: str, ready: str) -> None:
        self.driver.get(f"{self.base_url}/play/#/{route}")
        self.one(ready)

    def click(self, css: str) -> None:
        """Click the element ``css`` finds; found again when the page redrew it between the look-up
        and the click (a table redraws at every event the stream brings)."""
        for _ in range(REDRAWS):
            try:
                self.one(css).click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"{css} redrawn under each of {REDRAWS} clicks: {self.describe()}")

    def responses(self) -> list[dict[str, Any]]:
        """Everything the page received, across reloads."""
        return [*self.seen, *received(self.driver)]

    def reload(self) -> None:
        self.seen += received(self.driver)
        self.driver.refresh()

    def block(self, *patterns: str) -> None:
        """Requests to URLs matching these patterns fail as if the server could not be reached
        (none: every request goes through again)."""
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": list(patterns)})

    def leave(self) -> None:
        """Close the game (the tab goes blank): no more requests from this player."""
        self.seen += received(self.driver)
        self.driver.get("about:blank")

    # -- account --------------------------------------------------------------------------------

    def register(self) -> None:
        self.driver.get(f"{self.base_url}/play/")
        self.one("#username").send_keys(self.username)
        self.one("#password").send_keys(PASSWORD)
        self.shot("login")
        self.click("#register")
        self.one("#coins")
        self.player_id = self.driver.execute_script(
            "return JSON.parse(localStorage.getItem('arcana.session')).player_id"
        )

    # -- the table ------------------------------------------------------------------------------

    def match_id(self) -> str:
        url = str(self.driver.current_url)
        assert "#/match/" in url, url
        return url.rsplit("/", 1)[1]

    def version(self) -> str:
        return self._read("#table", lambda table: str(table.get_attribute("data-version")))

    def ended(self) -> bool:
        return bool(self.find("#end-title"))

    def step(self) -> bool:
        """One legal move when it is this player's turn (clicking only highlighted elements); False
        when there was nothing to do (or the page redrew under the click: the caller tries again)."""
        try:
            return self._step()
        except StaleElementReferenceException:
            return False

    def _step(self) -> bool:
        if self.ended():
            return False
        mulligan = self.find("#mulligan")
        if mulligan:
            return self._act(mulligan[0].click)
        cancel = self.find("#cancel-selection")
        if cancel:  # a selection left by a click the page redrew under: start the move again
            cancel[0].click()
        status = self.find("#turn-status")
        if not status or status[0].get_attribute("data-mine") != "true":
            return False
        attackers = self.find("#table button.unit.legal")
        playable = self.find("#table button.hand-card.legal")
        if attackers:
            return self._act(lambda: self._choose(attackers[0], prefer="#foe-hero.target"))
        if playable:
            return self._act(lambda: self._choose(self.rng.choice(playable)))
        end_turn = self.find("#end-turn:enabled")
        if end_turn:
            return self._act(end_turn[0].click)
        return False

    def _choose(self, element: WebElement, prefer: str | None = None) -> None:
        element.click()
        time.sleep(0.05)
        if self.find("#end-title"):
            return
        options = (self.find(prefer) if prefer else []) or self.find("#table .target, #table .slot")
        if options:  # otherwise the card needed no target: the click sent it
            self.rng.choice(options).click()

    def _act(self, action: Callable[[], None]) -> bool:
        before = self.version()
        action()
        try:
            self.wait(lambda: self.ended() or self.version() != before, "the table to show the move", 20)
        except AssertionError as failure:
            raise AssertionError(f"{failure}; the page's last match calls: {self._match_calls()}") from None
        return True

    def describe(self) -> str:
        """What the page shows of the match, for a failure's message."""
        parts = {
            css: [e.get_attribute("textContent") for e in self.find(css)][:1]
            for css in ("#turn-status", "#timer", "#connection", "#status")
        }
        legal = len(self.find("#table .legal")) + len(self.find("#end-turn:enabled"))
        return (
            f"{self.username}: version {self.version()}, {parts}, {legal} legal; calls {self._match_calls()}"
        )

    def _match_calls(self) -> list[str]:
        """The last match requests the page made, for a failure's message: what it sent, what came back."""
        calls = [e for e in received(self.driver) if "/v1/matches/" in e["url"]][-8:]
        return [
            f"{e['method']} {e['url'].split('/v1/matches/')[1]} {e['request']} -> {e['status']} "
            f"{str(e['body'])[:300]}"
            for e in calls
        ]

    def play_until(self, done: Callable[[], bool], timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, "the match did not end in time"
            if not self.step():
                time.sleep(0.2)
