// Your matches, newest first: resume an unfinished one, replay a finished one.
import { get, me } from "../api.js";
import { matchHref } from "../games.js";
import { reasonText } from "../story.js";
import { h, mount, when } from "../ui.js";

export async function render(root) {
  const { matches } = await get("/v1/matches");
  const my = me();
  const result = (m) => (m.status !== "ended" ? "in progress" : m.winner === my ? "won" : m.winner === "draw" || !m.winner ? "draw" : "lost");
  mount(root, h("h1", { class: "page-title" }, "Match history"),
    h("section", { class: "panel" },
      matches.length
        ? h("table", { class: "ranks", id: "history" },
            h("thead", {}, h("tr", {}, ["When", "Game", "Mode", "Result", "Turns", ""].map((t) => h("th", { scope: "col" }, t)))),
            h("tbody", {}, matches.map((m) =>
              h("tr", { "data-match": m.match_id },
                h("td", {}, when(m.created_at)), h("td", {}, m.game), h("td", {}, m.mode),
                h("td", { class: `result ${result(m)}` }, result(m), m.reason ? ` (${reasonText(m.reason)})` : ""),
                h("td", {}, m.turn),
                h("td", {}, m.game !== "arcana"
                  ? h("a", { href: matchHref(m.game, m.match_id) }, m.status === "ended" ? "View" : "Resume")
                  : m.status === "ended"
                    ? h("a", { href: `#/replay/${m.match_id}`, class: "replay-link" }, "Replay")
                    : h("a", { href: `#/match/${m.match_id}` }, "Resume"))))))
        : h("p", {}, "No matches yet. ", h("a", { href: "#/play" }, "Play one →"))));
}
