// The three games the client plays, the picker between them (Home and Play), and where a match of
// each game is shown.
import { h } from "./ui.js";

export const GAMES = [
  { id: "arcana", name: "Arcana", href: "#/play", blurb: "Units, spells and the twenty-two arcana: a duel of 20-card decks." },
  { id: "line", name: "The line", href: "#/play/line", blurb: "Five cards in a row; the fight resolves at once, round by round." },
  { id: "arena", name: "Arcane Arena", href: "#/play/arena", blurb: "2–4 wizards, one shared deck of spells: the last one standing wins the round." },
];

export function gamePicker(current) {
  return h("nav", { class: "game-picker", "aria-label": "Games", id: "game-picker" },
    GAMES.map((g) => h("a", { href: g.href, class: "game-pick", "data-game": g.id, "aria-current": g.id === current ? "page" : null },
      h("strong", {}, g.name), h("span", { class: "hint" }, g.blurb))));
}

export function matchHref(game, matchId) {
  if (game === "line") return `#/fight/${matchId}`;
  if (game === "arena") return `#/arena/${matchId}`;
  return `#/match/${matchId}`;
}
