// Collection, crafting and disenchanting with the dust arithmetic, and the deck builder (five decks,
// legality shown as you build: 20 cards, copies, one legendary copy, owned).
import { get, post, put } from "../api.js";
import { CRAFT_COST, DUST_VALUE, RARITIES, card, cardFace, maxCopies } from "../cards.js";
import { announce, errorText, h, mount, section } from "../ui.js";

const DECK_SIZE = 20;
const MAX_DECKS = 5;

export function deckProblems(cards, owned) {
  const problems = [];
  if (cards.length !== DECK_SIZE) problems.push(`a deck has exactly ${DECK_SIZE} cards, not ${cards.length}`);
  const counts = count(cards);
  for (const [id, n] of counts) {
    if (n > maxCopies(id)) problems.push(`${n} copies of ${card(id).name} (at most ${maxCopies(id)})`);
    else if (n > (owned.get(id) || 0)) problems.push(`${n} copies of ${card(id).name}, ${owned.get(id) || 0} owned`);
  }
  return problems;
}

function count(cards) {
  const m = new Map();
  for (const id of cards) m.set(id, (m.get(id) || 0) + 1);
  return m;
}

export async function render(root) {
  const state = { owned: new Map(), decks: [], dust: 0, editing: null, filter: "", rarity: "", math: "" };
  async function reload() {
    const [collection, decks, wallet] = await Promise.all([get("/v1/collection"), get("/v1/decks"), get("/v1/wallet")]);
    state.owned = new Map(collection.cards.map((c) => [c.card_id, c.copies]));
    state.decks = decks.decks;
    state.dust = wallet.dust;
    if (state.editing?.deck_id) {
      const fresh = state.decks.find((d) => d.deck_id === state.editing.deck_id);
      if (fresh) state.editing = { ...fresh, cards: state.editing.cards, name: state.editing.name };
    }
  }
  await reload();
  const active = state.decks.find((d) => d.active) || state.decks[0];
  state.editing = active ? { ...active, cards: [...active.cards] } : { name: "New deck", cards: [] };

  const deckPanel = h("div", { id: "deck-panel" });
  const cardsPanel = h("div", { id: "cards-panel" });

  function draw() {
    drawDeck();
    drawCards();
  }

  function drawDeck() {
    const e = state.editing;
    const problems = deckProblems(e.cards, state.owned);
    const name = h("input", { id: "deck-name", value: e.name, maxlength: 40, oninput: (ev) => (e.name = ev.target.value) });
    const list = [...count(e.cards)].sort(([a], [b]) => card(a).cost - card(b).cost || card(a).name.localeCompare(card(b).name));
    mount(
      deckPanel,
      section("Decks",
        h("div", { class: "deck-tabs", role: "group", "aria-label": "your decks" },
          state.decks.map((d) =>
            h("button", { type: "button", class: d.deck_id === e.deck_id ? "tab current" : "tab", "aria-pressed": String(d.deck_id === e.deck_id),
              onclick: () => { state.editing = { ...d, cards: [...d.cards] }; draw(); } },
              d.name, d.active ? " ★" : "", d.legal ? "" : " ⚠")),
          state.decks.length < MAX_DECKS
            ? h("button", { type: "button", class: "tab new", id: "new-deck", onclick: () => { state.editing = { name: `Deck ${state.decks.length + 1}`, cards: [] }; draw(); } }, "+ New deck")
            : null),
        h("label", { for: "deck-name" }, "Deck name"), name,
        h("p", { id: "deck-count", class: e.cards.length === DECK_SIZE ? "ok" : "" }, `${e.cards.length} / ${DECK_SIZE} cards`, e.active ? " · active" : ""),
        h("ul", { class: problems.length ? "problems" : "problems none", id: "deck-problems", "aria-live": "polite" },
          problems.length ? problems.map((p) => h("li", {}, p)) : h("li", {}, "✓ Legal: ready to activate")),
        h("ul", { class: "deck-list", "aria-label": "cards in this deck" },
          list.map(([id, n]) =>
            h("li", {},
              h("span", { class: `pip rarity-${card(id).rarity}` }, card(id).cost),
              h("span", { class: "grow" }, `${card(id).name} ×${n}`),
              h("button", { type: "button", class: "small secondary", "aria-label": `remove one ${card(id).name}`, "data-remove": id,
                onclick: () => { e.cards.splice(e.cards.lastIndexOf(id), 1); draw(); } }, "−")))),
        h("div", { class: "row" },
          h("button", { type: "button", id: "save-deck", onclick: save }, "Save"),
          h("button", { type: "button", id: "activate-deck", class: "secondary", disabled: !e.deck_id || e.active, onclick: activate }, e.active ? "Active" : "Activate"))),
    );
  }

  function drawCards() {
    const e = state.editing;
    const inDeck = count(e.cards);
    const shown = [...card.catalogList()].filter((c) =>
      (!state.rarity || c.rarity === state.rarity) && (!state.filter || c.name.toLowerCase().includes(state.filter)));
    mount(
      cardsPanel,
      section("Collection",
        h("p", { class: "dust-line" }, "Dust: ", h("strong", { id: "dust" }, state.dust),
          h("span", { class: "hint" }, " · craft costs ", RARITIES.map((r) => `${r} ${CRAFT_COST[r]}`).join(", "))),
        h("p", { id: "dust-math", class: "ok", "aria-live": "polite" }, state.math),
        h("div", { class: "row filters" },
          h("label", { for: "search" }, "Search"),
          h("input", { id: "search", type: "search", value: state.filter, oninput: (ev) => { state.filter = ev.target.value.toLowerCase(); drawCards(); document.getElementById("search").focus(); } }),
          h("label", { for: "rarity" }, "Rarity"),
          h("select", { id: "rarity", onchange: (ev) => { state.rarity = ev.target.value; drawCards(); } },
            h("option", { value: "" }, "all"),
            RARITIES.map((r) => h("option", { value: r, selected: r === state.rarity }, r)))),
        h("ul", { class: "card-grid" },
          shown.map((c) => {
            const owned = state.owned.get(c.id) || 0;
            const used = inDeck.get(c.id) || 0;
            const craftable = owned < maxCopies(c.id);
            return h("li", { class: owned ? "owned" : "unowned", "data-card": c.id },
              cardFace(c.id),
              h("p", { class: "owned-line" }, `owned ${owned} · in deck ${used}`),
              h("div", { class: "row tight" },
                h("button", { type: "button", class: "small", "data-add": c.id, "aria-label": `add ${c.name} to the deck`,
                  onclick: () => { e.cards.push(c.id); draw(); } }, "+ Deck"),
                h("button", { type: "button", class: "small secondary", "data-craft": c.id, disabled: !craftable || state.dust < CRAFT_COST[c.rarity],
                  title: `dust ${state.dust} − ${CRAFT_COST[c.rarity]} = ${state.dust - CRAFT_COST[c.rarity]}`,
                  onclick: () => change("crafts", c) }, `Craft −${CRAFT_COST[c.rarity]}`),
                h("button", { type: "button", class: "small secondary", "data-disenchant": c.id, disabled: owned === 0,
                  title: `dust ${state.dust} + ${DUST_VALUE[c.rarity]} = ${state.dust + DUST_VALUE[c.rarity]}`,
                  onclick: () => change("disenchants", c) }, `Dust +${DUST_VALUE[c.rarity]}`)));
          }))),
    );
  }

  async function change(kind, c) {
    const before = state.dust;
    try {
      const r = await post(`/v1/${kind}`, { card_id: c.id }, { idempotent: false }); // see save()
      await reload();
      const sign = r.dust_change >= 0 ? "+" : "−";
      state.math = `${kind === "crafts" ? "Crafted" : "Disenchanted"} ${c.name}: dust ${before} ${sign} ${Math.abs(r.dust_change)} = ${r.dust}; you own ${r.copies}.`;
      announce(state.math);
      draw();
    } catch (err) {
      announce(errorText(err), "error");
    }
  }

  async function save() {
    const e = state.editing;
    try {
      // Economy's writes go without an Idempotency-Key: with one, economy reads its answer outside
      // the request's transaction (POST /v1/decks: 404 deck_not_found; PUT and activate: the old
      // deck; crafts and disenchants: the old copies).
      const saved = e.deck_id
        ? await put(`/v1/decks/${e.deck_id}`, { name: e.name, cards: e.cards })
        : await post("/v1/decks", { name: e.name, cards: e.cards }, { idempotent: false });
      state.editing = { ...saved, cards: [...saved.cards] };
      await reload();
      announce(saved.legal ? `Saved "${saved.name}": legal.` : `Saved "${saved.name}" (not legal yet: ${saved.problems.join("; ")}).`);
      draw();
    } catch (err) {
      announce(errorText(err) + (err.details?.problems ? `: ${err.details.problems.join("; ")}` : ""), "error");
    }
  }

  async function activate() {
    try {
      const deck = await post(`/v1/decks/${state.editing.deck_id}/activate`, undefined, { idempotent: false });
      state.editing = { ...deck, cards: [...deck.cards] };
      await reload();
      announce(`"${deck.name}" is your active deck.`);
      draw();
    } catch (err) {
      announce(errorText(err) + (err.details?.problems ? `: ${err.details.problems.join("; ")}` : ""), "error");
    }
  }

  mount(root, h("h1", { class: "page-title" }, "Collection and decks"), h("div", { class: "builder" }, deckPanel, cardsPanel));
  draw();
}
