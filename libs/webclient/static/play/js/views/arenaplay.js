// Arcane Arena (docs/arena.md): practice against 1–3 bots at once, or the casual queue for a table of
// 2, 3 or 4 (the sizes you accept).
import { gamePicker } from "../games.js";
import { practice, queuer } from "../queue.js";
import { h, mount, section } from "../ui.js";

const SIZES = [2, 3, 4];

export async function render(root) {
  const status = h("div", { id: "queue-status", "aria-live": "polite" });
  const boxes = SIZES.map((n) => h("input", { type: "checkbox", id: `arena-size-${n}`, checked: true, value: String(n) }));
  const sizes = () => boxes.filter((b) => b.checked).map((b) => Number(b.value));
  const q = queuer(status, (mode) => ({ mode, game: "arena", sizes: sizes() }));
  const bots = h("select", { id: "arena-bots" }, [1, 2, 3].map((n) => h("option", { value: String(n), selected: n === 2 }, `${n} bot${n === 1 ? "" : "s"}`)));
  mount(root,
    h("h1", { class: "page-title" }, "Arcane Arena"),
    gamePicker("arena"),
    h("div", { class: "grid" },
      section("Practice",
        h("p", {}, "A table against bots, at once. Pays nothing."),
        h("label", { for: "arena-bots" }, "Opponents"), bots,
        h("p", {}, h("button", { type: "button", id: "arena-practice", onclick: () => practice({ game: "arena", bots: Number(bots.value) }, "arena") }, "Practice vs bots"))),
      section("Casual",
        h("p", {}, "Seated with players waiting: a table of 2 at once, of 3 or 4 once enough wait."),
        h("fieldset", { class: "sizes" }, h("legend", {}, "Table sizes you accept"),
          SIZES.map((n, i) => h("label", { class: "inline", for: `arena-size-${n}` }, boxes[i], ` ${n} players`))),
        h("button", { type: "button", id: "queue-casual", onclick: () => (sizes().length ? q.queue("casual") : null) }, "Queue casual")),
      section("How it plays",
        h("ul", { class: "rules" },
          h("li", {}, "9 life each; 16 spells shared. On your turn: draw, play a card, or a combo of two."),
          h("li", {}, "Attacked? You have 10 s to answer with a shield, a barrier or a mirror — or let it through."),
          h("li", {}, "Then the discard phase: swap one card once, and end the turn with at most 3 cards."),
          h("li", {}, "The last one standing wins the round; 3 rounds win the match.")))),
    section("Queue", status));
  q.resume();
  return q.stop;
}
