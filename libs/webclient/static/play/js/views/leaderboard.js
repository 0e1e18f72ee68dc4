// The leaderboard (public display names when the API gives them).
import { get, me } from "../api.js";
import { h, mount, short } from "../ui.js";

export const displayName = (p) => p.display_name || p.username || `player ${short(p.player_id)}`;

export async function render(root) {
  const tbody = h("tbody", {});
  const more = h("button", { type: "button", class: "secondary", id: "more", hidden: true }, "More");
  let next = null;
  async function load() {
    const page = await get(`/v1/leaderboard?limit=50${next ? `&after=${encodeURIComponent(next)}` : ""}`);
    for (const p of page.items)
      tbody.append(h("tr", { class: p.player_id === me() ? "me" : "" },
        h("td", {}, p.rank), h("th", { scope: "row" }, displayName(p)), h("td", {}, p.rating), h("td", {}, p.tier), h("td", {}, p.games)));
    next = page.next;
    more.hidden = !next;
    if (!tbody.children.length) tbody.append(h("tr", {}, h("td", { colspan: 5 }, "No ranked games yet this season.")));
  }
  more.addEventListener("click", load);
  mount(root, h("h1", { class: "page-title" }, "Leaderboard"),
    h("section", { class: "panel" },
      h("table", { class: "ranks", id: "leaderboard" },
        h("caption", { class: "sr-only" }, "Ranked players by rating"),
        h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Tier", "Games"].map((t) => h("th", { scope: "col" }, t)))),
        tbody),
      more));
  await load();
}
