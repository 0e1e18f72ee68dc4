// The line (docs/line.md): the welcome set, the collection, the five-card editor (tap or drag a card to
// place it, positions left to right; the links light up with their tiers as cards are placed;
// Autofill, then swap by hand), the three training battles, the casual and ranked queues, the fights.
import { get, me, post, put } from "../api.js";
import { gamePicker, matchHref } from "../games.js";
import { LINKS, baked, lineCard, lineFace, lineLinks, loadLineCatalog } from "../linecards.js";
import { eventually, practice, queuer } from "../queue.js";
import { announce, errorText, h, mount, section, stat, when } from "../ui.js";

const SIZE = 5;
const TRAINING = 3; // training battles that open the ranked queue
const NOT_YET = ["invalid_deck", "no_active_deck"]; // the line economy published has not arrived yet

export async function render(root) {
  await loadLineCatalog();
  const [collection, decks, progress, matches] = await Promise.all([
    get("/v1/line/collection"),
    get("/v1/line/decks"),
    get("/v1/line/progress"),
    get("/v1/matches"),
  ]);
  const status = h("div", { id: "queue-status", "aria-live": "polite" });
  const q = queuer(status, (mode) => ({ mode, game: "line" }), { deckCodes: NOT_YET });
  const active = decks.decks.find((d) => d.active);
  const s = { line: active ? [...active.cards] : Array(SIZE).fill(null), selected: null, lit: new Set(), saved: active || null };
  const owned = collection.cards.map((c) => c.card_id).sort((a, b) => lineCard(a).name.localeCompare(lineCard(b).name));

  const editor = h("div", { id: "line-editor" });
  const grid = h("ul", { class: "card-grid line-grid", id: "line-collection", "aria-label": "your line cards" });
  const problems = h("ul", { class: "problems", id: "line-problems", "aria-live": "polite" });

  function place(id) {
    const at = s.selected ?? s.line.indexOf(null);
    if (at < 0) return announce("The line is full: tap a slot first to choose which card to swap.", "error");
    const was = s.line.indexOf(id);
    if (was >= 0) s.line[was] = s.line[at]; // a card already in the line changes place
    s.line[at] = id;
    s.selected = null;
    draw();
  }

  function tapSlot(i) {
    if (s.selected === i) s.selected = null;
    else if (s.selected !== null) {
      [s.line[s.selected], s.line[i]] = [s.line[i], s.line[s.selected]];
      s.selected = null;
    } else s.selected = i;
    draw();
  }

  // Dragging works as tapping does: a card dropped on a slot goes there, a slot dropped on another
  // swaps the two.
  const dragFrom = (what) => (e) => e.dataTransfer.setData("text/plain", what);
  const allowDrop = (e) => e.preventDefault();
  function dropOn(i) {
    return (e) => {
      e.preventDefault();
      const what = e.dataTransfer.getData("text/plain");
      if (what.startsWith("slot:")) {
        s.selected = Number(what.slice(5));
        return tapSlot(i);
      }
      if (lineCard(what) && owned.includes(what)) {
        s.selected = i;
        place(what);
      }
    };
  }

  function takeOut() {
    if (s.selected === null) return;
    s.line[s.selected] = null;
    s.selected = null;
    draw();
  }

  async function autofill() {
    try {
      const proposed = await post("/v1/line/decks/autofill", undefined, { idempotent: false });
      s.line = [...proposed.cards];
      s.selected = null;
      announce(`Autofill: ${proposed.links.length} link${proposed.links.length === 1 ? "" : "s"} lit. Swap cards by hand if you like, then save.`);
      draw();
    } catch (err) {
      announce(errorText(err), "error");
    }
  }

  // Economy's line writes go without an Idempotency-Key (docs/web-client.md, "A known server problem").
  async function save() {
    const body = { name: nameInput.value.trim() || "My line", cards: s.line };
    try {
      let deck = s.saved ? await put(`/v1/line/decks/${s.saved.deck_id}`, body) : await post("/v1/line/decks", body, { idempotent: false });
      if (!deck.active) deck = await post(`/v1/line/decks/${deck.deck_id}/activate`, undefined, { idempotent: false });
      s.saved = deck;
      mount(problems);
      problems.className = "problems none";
      problems.append(h("li", { id: "line-saved" }, `Saved and active: ${deck.links.map((l) => l.id).join(", ") || "no links"}.`));
      draw();
    } catch (err) {
      problems.className = "problems";
      mount(problems, (err.details?.problems || [errorText(err)]).map((p) => h("li", {}, p)));
    }
  }

  const nameInput = h("input", { id: "line-name", value: active?.name || "My line", maxlength: 40, "aria-label": "the line's name" });

  function slotButton(id, i, stats, lit) {
    const inLinks = lit.filter((l) => l.slots.includes(i)).map((l) => l.id);
    const label = id ? `position ${i + 1}: ${lineCard(id).name}${inLinks.length ? `, in ${inLinks.join(", ")}` : ""}` : `position ${i + 1}: empty`;
    return h("li", {}, h("button", {
      type: "button", class: `line-slot${s.selected === i ? " selected" : ""}${id ? "" : " empty"}`, "data-slot": i, "data-card": id || null, "data-stats": stats ? `${stats.atk}/${stats.arm}/${stats.hp}` : null,
      "aria-pressed": String(s.selected === i), "aria-label": label, onclick: () => tapSlot(i),
      draggable: id ? "true" : null, ondragstart: id ? dragFrom(`slot:${i}`) : null, ondragover: allowDrop, ondrop: dropOn(i),
    }, h("span", { class: "slot-number" }, i === 0 ? "1 · front" : String(i + 1)), id ? lineFace(id, { stats }) : h("span", { class: "slot-empty" }, "tap a card")));
  }

  function linkList(lit, count) {
    const byId = new Map(lit.map((l) => [l.id, l]));
    return h("ul", { class: "links", id: "line-links", "aria-label": "links" }, LINKS.map((def) => {
      const l = byId.get(def.id);
      const fresh = l && !s.lit.has(`${l.id}:${l.tier}`);
      const need = def.tiers[0];
      return h("li", { class: `link${l ? " lit" : ""}${fresh ? " lighting" : ""}`, "data-link": def.id, "data-tier": l ? String(l.tier) : null },
        h("strong", {}, def.name), " ",
        h("span", { class: "tier" }, l ? `tier ${l.tier}` : `${Math.min(count[def.id], need)}/${need}`),
        h("span", { class: "hint" }, ` ${def.needs}: ${def.effect}`));
    }));
  }

  function draw() {
    const { lit, count } = lineLinks(s.line);
    const stats = baked(s.line, lit);
    const full = s.line.every(Boolean);
    const changed = !s.saved || s.saved.cards.join() !== s.line.join();
    mount(editor,
      h("ol", { class: "line-slots", id: "line-slots", "aria-label": "your line, front (left) first" }, s.line.map((id, i) => slotButton(id, i, stats[i], lit))),
      h("p", { class: "hint" }, "⚔ ATK · ◆ ARM · ♥ HP, the links' bonuses included (green: raised). ", s.selected !== null ? "Tap a card to put it here, another slot to swap the two, or take the card out." : "Tap a card to place it in the first empty slot, or drag it to a slot; tap a slot to choose it."),
      linkList(lit, count),
      h("div", { class: "row" },
        h("button", { type: "button", id: "autofill", class: "secondary", onclick: autofill }, "Autofill"),
        s.selected !== null && s.line[s.selected] ? h("button", { type: "button", id: "take-out", class: "secondary", onclick: takeOut }, "Take out") : null,
        h("label", { class: "sr-only", for: "line-name" }, "Name"), nameInput,
        h("button", { type: "button", id: "save-line", disabled: !full || !changed, onclick: save }, s.saved && !changed ? "Saved and active" : "Save and activate")),
      problems);
    s.lit = new Set(lit.map((l) => `${l.id}:${l.tier}`));
    train.disabled = casual.disabled = !s.saved;
    ranked.disabled = !s.saved || left > 0;
    mount(grid, owned.map((id) => {
      const inLine = s.line.includes(id);
      return h("li", { class: inLine ? "placed" : "" }, h("button", {
        type: "button", class: "line-pick", "data-line-card": id, "aria-pressed": String(inLine),
        "aria-label": `${lineCard(id).name}${inLine ? `, at position ${s.line.indexOf(id) + 1}` : ""}`, onclick: () => place(id),
        draggable: "true", ondragstart: dragFrom(id),
      }, lineFace(id)));
    }));
  }

  async function claim() {
    try {
      await eventually(() => post("/v1/line/welcome"), ["wallet_not_found"], "Setting up your account…");
      announce("The welcome set is yours: eleven cards.");
      q.stop();
      render(root);
    } catch (err) {
      announce(errorText(err), "error");
    }
  }

  const train = h("button", { type: "button", id: "train", class: "secondary", disabled: true, onclick: () => practice({ game: "line" }, "line", NOT_YET) }, "Training battle");
  const casual = h("button", { type: "button", id: "queue-casual", disabled: true, onclick: () => q.queue("casual") }, "Queue casual");
  const ranked = h("button", { type: "button", id: "queue-ranked", class: "secondary", disabled: true, onclick: () => q.queue("ranked") }, "Queue ranked");
  const fights = matches.matches.filter((m) => m.game === "line").slice(0, 10);
  const left = Math.max(0, TRAINING - progress.training_battles);
  mount(root,
    h("h1", { class: "page-title" }, "The line"),
    gamePicker("line"),
    collection.welcome_claimed ? null : section("Welcome set",
      h("p", {}, "Eleven cards to start: three creeps, seven uncommon heroes and a support hero — enough for a first line."),
      h("button", { type: "button", id: "claim-welcome", onclick: claim }, "Claim the welcome set")),
    h("div", { class: "builder line-builder" },
      section("Your line", editor),
      section("Collection", h("p", { class: "hint" }, `${owned.length} cards`), grid)),
    h("div", { class: "grid" },
      section("Training",
        h("div", { class: "stats" },
          stat("Training battles", `${progress.training_battles} / ${TRAINING}`, { id: "training-count" }),
          stat("Arena XP", progress.arena_xp, { id: "arena-xp" })),
        h("p", {}, "A fight against the bot with your active line, at once. A win gives 20 arena XP; three battles open the ranked queue."),
        train),
      section("Queue",
        h("p", {}, "Casual: the next player waiting. Ranked: paired by MMR", left ? `, opens after ${left} more training battle${left === 1 ? "" : "s"}.` : "."),
        h("div", { class: "row" },
          casual, ranked),
        status)),
    section("Your fights", fights.length
      ? h("ul", { class: "fights", id: "line-fights" }, fights.map((m) =>
          h("li", {}, h("a", { href: matchHref("line", m.match_id) }, `${when(m.created_at)} · ${m.mode} · ${m.winner === me() ? "won" : "lost"}`))))
      : h("p", { class: "hint" }, "No fights yet.")),
  );
  if (collection.welcome_claimed) draw();
  q.resume();
  return q.stop;
}
