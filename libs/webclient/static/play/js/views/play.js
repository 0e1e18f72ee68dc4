// Play: the game picker, then the chosen game's ways to play. Arcana (here): queue for ranked or casual
// (status, waited time, the widening rating window), or practice against the bot. The line and the
// arena have screens of their own (views/line.js, views/arenaplay.js).
import { gamePicker } from "../games.js";
import { practice, queuer } from "../queue.js";
import { h, mount, section } from "../ui.js";
import * as line from "./line.js";
import * as arena from "./arenaplay.js";

export async function render(root, game) {
  if (game === "line") return line.render(root);
  if (game === "arena") return arena.render(root);
  const status = h("div", { id: "queue-status", "aria-live": "polite" });
  const q = queuer(status, (mode) => ({ mode }));
  mount(
    root,
    h("h1", { class: "page-title" }, "Play"),
    gamePicker("arcana"),
    h("div", { class: "grid" },
      section("Ranked",
        h("p", {}, "Paired by rating: ±50 at first, widening by 25 a second you wait. Wins and losses move your rating."),
        h("button", { type: "button", id: "queue-ranked", onclick: () => q.queue("ranked") }, "Queue ranked")),
      section("Casual",
        h("p", {}, "Paired with the next player waiting. Pays coins and XP, no rating."),
        h("button", { type: "button", id: "queue-casual", onclick: () => q.queue("casual") }, "Queue casual")),
      section("Practice",
        h("p", {}, "Against the bot, at once. Pays nothing; good for learning the cards."),
        h("button", { type: "button", id: "practice", class: "secondary", onclick: () => practice({}, "arcana") }, "Practice vs bot"))),
    section("Queue", status),
  );
  q.resume();
  return q.stop;
}
