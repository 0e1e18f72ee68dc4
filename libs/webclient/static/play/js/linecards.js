// The line's cards (GET /v1/catalog?game=line) and its links, read as docs/line.md states them (rules
// version 2), so the editor lights them as cards are placed, before anything is saved. The server's
// own reading (the autofill's and a saved line's `links` and `stats`) is what the fight uses; the
// browser test checks that both agree.
import { get } from "./api.js";
import { h } from "./ui.js";

let catalog = null;

export async function loadLineCatalog() {
  if (!catalog) {
    const data = await get("/v1/catalog?game=line");
    catalog = { cards: new Map(data.cards.map((c) => [c.id, c])), welcome: data.welcome_set };
  }
  return catalog;
}

export function lineCard(id) {
  return catalog?.cards.get(id) || { id, name: id, rarity: "common", roles: [], tags: [], atk: 0, arm: 0, hp: 0 };
}

const words = (c) => new Set([...c.roles, ...c.tags]);
const GROUPS = {
  supportish: ["support", "healer"],
  frontish: ["tank", "initiator"],
  damageish: ["carry", "nuker"],
  control: ["disabler", "initiator"],
  nuker: ["nuker"],
  escape: ["escape"],
  pusher: ["pusher"],
};

export const LINKS = [
  { id: "anchor", name: "Anchor", needs: "a support or healer", effect: "everyone +1 ARM", tiers: [1] },
  { id: "classic", name: "Classic", needs: "a tank/initiator, a carry/nuker and a support/healer", effect: "everyone +1 HP", tiers: [1] },
  { id: "control_net", name: "Control net", needs: "2 disablers/initiators · 3", effect: "everyone +1 ARM · +1 ARM and +1 HP", tiers: [2, 3] },
  { id: "nuker_choir", name: "Nuker choir", needs: "2 nukers", effect: "everyone +1 ATK", tiers: [2] },
  { id: "slippery", name: "Slippery", needs: "2 escapes", effect: "the escape cards +1 ARM", tiers: [2] },
  { id: "push", name: "Push", needs: "2 pushers", effect: "carries +1 ATK, tanks −1 ARM", tiers: [2] },
];

// `line`: card ids by slot (null for an empty slot). The links lit: [{id, tier, slots, bonus(slot)}],
// in the order of LINKS, and `count` per link id: the cards that match it now.
export function lineLinks(line) {
  const placed = line.map((id, slot) => (id ? { slot, card: lineCard(id) } : null)).filter(Boolean);
  const slotsOf = (group) => placed.filter((p) => GROUPS[group].some((w) => words(p.card).has(w))).map((p) => p.slot);
  const g = Object.fromEntries(Object.keys(GROUPS).map((k) => [k, slotsOf(k)]));
  const all = (bonus) => () => bonus;
  const lit = [];
  if (g.supportish.length) lit.push({ id: "anchor", tier: 1, slots: g.supportish, bonus: all([0, 1, 0]) });
  const classic = classicSlots(g.frontish, g.damageish, g.supportish);
  if (classic) lit.push({ id: "classic", tier: 1, slots: classic, bonus: all([0, 0, 1]) });
  if (g.control.length >= 3) lit.push({ id: "control_net", tier: 3, slots: g.control, bonus: all([0, 1, 1]) });
  else if (g.control.length === 2) lit.push({ id: "control_net", tier: 2, slots: g.control, bonus: all([0, 1, 0]) });
  if (g.nuker.length >= 2) lit.push({ id: "nuker_choir", tier: 2, slots: g.nuker, bonus: all([1, 0, 0]) });
  if (g.escape.length >= 2) lit.push({ id: "slippery", tier: 2, slots: g.escape, bonus: (slot) => (g.escape.includes(slot) ? [0, 1, 0] : [0, 0, 0]) });
  if (g.pusher.length >= 2) {
    const push = (slot) => { const r = lineCard(line[slot]).roles; return [Number(r.includes("carry")), -Number(r.includes("tank")), 0]; };
    lit.push({ id: "push", tier: 2, slots: g.pusher, bonus: push });
  }
  const count = { anchor: g.supportish.length, classic: classic ? 1 : 0, control_net: g.control.length, nuker_choir: g.nuker.length, slippery: g.escape.length, push: g.pusher.length };
  return { lit, count };
}

// Three different cards when the line has them, else the fewest slots meeting the three (version 2).
function classicSlots(fronts, hitters, helpers) {
  let best = null;
  for (const a of fronts) for (const b of hitters) for (const c of helpers) {
    const slots = [...new Set([a, b, c])].sort((x, y) => x - y);
    if (slots.length === 3) return slots;
    if (!best || slots.length < best.length) best = slots;
  }
  return best;
}

// Each placed card's stats with every lit link's bonus (armour at least 0), by slot.
export function baked(line, lit) {
  return line.map((id, slot) => {
    if (!id) return null;
    const c = lineCard(id);
    let [atk, arm, hp] = [c.atk, c.arm, c.hp];
    for (const link of lit) {
      const [a, r, p] = link.bonus(slot);
      atk += a; arm += r; hp += p;
    }
    return { card_id: id, atk, arm: Math.max(0, arm), hp };
  });
}

// A line card's face: name, roles and tags, ATK / ARM / HP (`stats`: baked values, shown changed;
// `hp`: the current HP in a fight, with a bar).
export function lineFace(id, { stats, hp, attrs = {}, extra = [] } = {}) {
  const c = lineCard(id);
  const s = stats || c;
  const mark = (v, base) => (v > base ? "up" : v < base ? "down" : "");
  const max = s.hp;
  return h("div", { class: `card line-card rarity-${c.rarity}${hp === 0 ? " fallen" : ""}`, ...attrs },
    h("span", { class: "name" }, c.name),
    h("span", { class: "words" }, [...c.roles, ...c.tags].join(" · ")),
    hp !== undefined ? h("span", { class: "hpbar", "aria-hidden": "true" }, h("span", { class: "hpfill", "data-fill": String(Math.round((10 * hp) / Math.max(1, max))) })) : null,
    h("span", { class: "body" },
      h("span", { class: `atk ${mark(s.atk, c.atk)}`, title: "attack" }, `⚔${s.atk}`),
      h("span", { class: `arm ${mark(s.arm, c.arm)}`, title: "armour" }, `◆${s.arm}`),
      h("span", { class: `hp ${mark(s.hp, c.hp)}`, title: "health" }, hp !== undefined ? `♥${hp}/${max}` : `♥${s.hp}`)),
    ...extra);
}
