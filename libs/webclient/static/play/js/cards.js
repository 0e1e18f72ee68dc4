// The card catalog (GET /v1/catalog, public and cacheable) and how a card is drawn.
import { get } from "./api.js";
import { h } from "./ui.js";

let catalog = null;

export async function loadCatalog() {
  if (!catalog) {
    const data = await get("/v1/catalog");
    catalog = {
      cards: new Map(data.cards.map((c) => [c.id, c])),
      arcana: new Map(data.arcana.map((a) => [a.id, a])),
      list: data.cards,
    };
  }
  return catalog;
}

export function card(id) {
  return catalog?.cards.get(id) || { id, name: id, rarity: "common", type: "unit", cost: "?" };
}

export function arcanum(id) {
  return catalog?.arcana.get(id) || { id, name: id };
}

export const RARITIES = ["common", "uncommon", "rare", "epic", "legendary"];
export const CRAFT_COST = { common: 20, uncommon: 80, rare: 200, epic: 600, legendary: 1600 };
export const DUST_VALUE = { common: 5, uncommon: 20, rare: 50, epic: 150, legendary: 400 };
export const maxCopies = (id) => (card(id).rarity === "legendary" ? 1 : 2);

export function describeArcanum(a) {
  const e = a.effect || {};
  if (e.kind === "stat_bonus")
    return `${e.tribe ? e.tribe + " units" : "Units"} get +${e.attack}/+${e.health}`;
  if (e.kind === "cost_change") return `${e.card_type || "card"}s cost ${e.amount > 0 ? "+" : ""}${e.amount}`;
  return Object.entries(e)
    .filter(([k]) => k !== "kind")
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || e.kind || "";
}

// A card face. `unit` (a board unit from the view) overrides attack and health with the current
// values, `cost` (a hand card's, arcana included) the printed cost.
export function cardFace(id, { unit, cost, extra = [], tag = "div", attrs = {} } = {}) {
  const c = card(id);
  const attack = unit ? unit.attack : c.attack;
  const health = unit ? unit.health : c.health;
  const words = [c.keyword, unit?.ward ? "ward" : null, c.tribe].filter(Boolean).join(" · ");
  return h(
    tag,
    { class: `card rarity-${c.rarity} type-${c.type}`, ...attrs },
    h("span", { class: cost !== undefined && cost !== c.cost ? "cost changed" : "cost", title: "mana cost" }, String(cost ?? c.cost ?? "")),
    h("span", { class: "name" }, c.name),
    words ? h("span", { class: "words" }, words) : null,
    c.type === "unit"
      ? h(
          "span",
          { class: "body" },
          h("span", { class: "atk", title: "attack" }, `⚔ ${attack}`),
          h("span", { class: unit && unit.health < unit.max_health ? "hp hurt" : "hp", title: "health" }, `♥ ${health}`),
        )
      : h("span", { class: "body spell" }, (c.effect || "spell").replaceAll("_", " ")),
    ...extra,
  );
}

card.catalogList = () =>
  [...(catalog?.list || [])].sort((a, b) => a.cost - b.cost || a.name.localeCompare(b.name));
