"""A player of the line and of Arcane Arena in a browser, by clicks only (``Player``'s page): the line's
editor, and one arena move at a time chosen among what the table highlights (the server's legal
commands)."""

from __future__ import annotations

import re

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.remote.webelement import WebElement

from tests.browser.player import Player

ATTACKS = ("flame_burst", "fireball", "explosion", "lightning")


# -- the line ------------------------------------------------------------------------------------


def line_slots(p: Player) -> list[str]:
    """The editor's five slots, left to right ('' for an empty one)."""
    return [str(b.get_attribute("data-card") or "") for b in p.find("#line-slots [data-slot]")]


DRAG = """
const [from, to] = arguments;
const carried = new DataTransfer();
for (const [el, type] of [[from, "dragstart"], [to, "dragover"], [to, "drop"]])
  el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: carried }));
"""


def drag(p: Player, source: str, target: str) -> None:
    """Drag the element ``source`` onto ``target`` (the HTML drag events a mouse sends, in order)."""
    p.driver.execute_script(DRAG, p.one(source), p.one(target))


def lit_links(p: Player) -> list[tuple[str, int]]:
    """The links the editor shows lit, with their tiers."""
    return [
        (str(li.get_attribute("data-link")), int(str(li.get_attribute("data-tier"))))
        for li in p.find("#line-links li.lit")
    ]


# -- the arena -----------------------------------------------------------------------------------


def reaction_open(p: Player) -> bool:
    return bool(p.find("#reaction #pass"))


def concede(p: Player) -> None:
    """Leave the match: Concede, then Confirm."""
    p.click("#concede")
    p._act(lambda: p.click("#concede"))


def answer_reaction(p: Player) -> bool:
    """Answer the attack on the page with a defence card when the hand holds one, else let it through.
    False when the page redrew the prompt between the look-up and the click (a stream frame for the
    same version draws the table again): nothing was sent, and the prompt is still open."""
    options = p.find("#reaction [data-react]") or p.find("#reaction #pass")
    if not options:  # the prompt closed meanwhile
        return False
    try:
        return p._act(options[0].click)
    except StaleElementReferenceException:
        return False


def arena_step(p: Player) -> bool:
    """One move when the table waits for this player outside a reaction: an attack first (a flame
    burst, else an attack card on the opponent with the least life), else a draw, else any card the
    page highlights, else any combo it offers; in the discard phase, the cards over 3 chosen from the
    left, then the end of the turn. False when there was nothing to do (or the page redrew under the
    clicks)."""
    try:
        return _arena_step(p)
    except StaleElementReferenceException:
        return False


def _arena_step(p: Player) -> bool:
    if p.ended() or reaction_open(p):
        return False
    status = p.find("#turn-status")
    if not status or status[0].get_attribute("data-mine") != "true":
        return False
    if p.find("#end-turn"):
        return p._act(lambda: _end_turn(p))
    combo = p.find('#combos [data-combo="flame_burst"]')
    if combo:
        return p._act(lambda: _combo(p, combo[0]))
    cards = p.find("#arena-hand button.hand-card.legal")
    attacks = [c for c in cards if str(c.get_attribute("data-card")).rsplit("-", 1)[0] in ATTACKS]
    if attacks:
        return p._act(lambda: _aim(p, attacks[0]))
    drawn = p.find("#draw")
    if drawn:
        return p._act(drawn[0].click)
    if cards:
        return p._act(lambda: _aim(p, cards[0]))
    combos = p.find("#combos [data-combo]")
    if combos:
        return p._act(lambda: _combo(p, combos[0]))
    return False


def _weakest(p: Player) -> WebElement:
    def life(seat: WebElement) -> int:
        return int(re.sub(r"\D", "", seat.find_element("css selector", ".hero-life, .hero-hp").text) or 0)

    return min(p.find("#seats button.seat.target"), key=life)


def _pick(choice: WebElement) -> None:
    """Select a card or a combo unless it is selected already: a click on the selection clears it,
    and a step the page redrew under (a stale target) leaves its selection standing for the next."""
    if choice.get_attribute("aria-pressed") != "true":
        choice.click()


def _aim(p: Player, card: WebElement) -> None:
    _pick(card)
    if p.find("#seats button.seat.target"):
        _weakest(p).click()


def _combo(p: Player, combo: WebElement) -> None:
    """The combo, then its bonus (+1 life), then its target or the discard pile's card when it asks."""
    _pick(combo)
    bonus = p.find('#combos [data-bonus="life"]')
    if bonus:
        bonus[0].click()
    if p.find("#seats button.seat.target"):
        _weakest(p).click()
    elif p.find("#take-from-discard [data-take]"):
        p.find("#take-from-discard [data-take]")[0].click()


def _end_turn(p: Player) -> None:
    """Choose cards from the left (each click redraws the hand) until the page allows the end."""
    while not p.find("#end-turn:enabled"):
        p.find('#arena-hand button.hand-card[aria-pressed="false"]')[0].click()
    p.click("#end-turn:enabled")
