// Arcane Arena's cards and combos in words (docs/arena.md), and its events told from one seat.
import { h } from "./ui.js";

export const KINDS = {
  fireball: { name: "Fireball", family: "attack", text: "1 damage to one opponent" },
  explosion: { name: "Explosion", family: "attack", text: "2 damage to one opponent; you take 1" },
  lightning: { name: "Lightning", family: "attack", text: "1 damage to every opponent" },
  shield: { name: "Shield", family: "defence", text: "blocks 1 of an attack" },
  arcane_barrier: { name: "Arcane barrier", family: "defence", text: "blocks 2 of an attack" },
  mirror: { name: "Mirror", family: "defence", text: "the attack goes back to its attacker" },
  healing_light: { name: "Healing light", family: "support", text: "+1 life" },
  hand_of_shadows: { name: "Hand of shadows", family: "support", text: "take a random card from an opponent" },
  shadow_veil: { name: "Shadow veil", family: "support", text: "immune to damage until your next turn" },
  mana_focus: { name: "Mana focus", family: "support", text: "draw 1" },
};

export const COMBOS = {
  flame_burst: { name: "Flame burst", text: "fireball + explosion: 3 damage to one opponent, no recoil" },
  magic_fortress: { name: "Magic fortress", text: "shield + barrier: no damage until your next turn, +1 life" },
  supreme_counter: { name: "Supreme counter", text: "mirror + veil: attacks on you go back +1 until your next turn" },
  desecration: { name: "Desecration", text: "hand of shadows + mana focus: take a card from the discard pile" },
  mystic_regeneration: { name: "Mystic regeneration", text: "healing light × 2: +3 life" },
};

export const kindOf = (id) => String(id).replace(/-\d+$/, "");
export const kindName = (id) => KINDS[kindOf(id)]?.name || id;

export function arenaFace(id, attrs = {}) {
  const k = KINDS[kindOf(id)] || { name: id, family: "support", text: "" };
  return h("div", { class: `card arena-card family-${k.family}`, ...attrs },
    h("span", { class: "name" }, k.name),
    h("span", { class: "words" }, k.family),
    h("span", { class: "body spell" }, k.text));
}

const WARDS = { veil: "a shadow veil", fortress: "a magic fortress", counter: "a supreme counter" };
const HOW = { last_standing: "the last one standing", most_life: "the most life when the magic ran out" };

// `name(id)`: "You", "Seat 2 (bot)"…; the sentence agrees with it ("You lose", "Seat 2 loses").
export function tellArena(e, name) {
  const d = e.data || {};
  const you = (id) => name(id) === "You";
  const obj = (id) => (you(id) ? "you" : name(id));
  const says = (id, base, third, rest) => `${name(id)} ${you(id) ? base : third}${rest}`;
  const p = d.player_id;
  const drawn = d.reason !== "draw" ? ` (${d.reason})` : "";
  switch (e.type) {
    case "MatchCreated": return `Match created (${d.mode}).`;
    case "MatchStarted": return says(d.first, "begin", "begins", ".");
    case "RoundStarted": return `Round ${d.round}: ${obj(d.first)} ${you(d.first) ? "begin" : "begins"}; ${d.pile_count ?? ""} cards in the pile.`;
    case "TurnStarted": return `Turn ${d.turn}: ${name(p)}.`;
    case "CardDrawn": return says(p, "drew", "drew", ` ${d.card ? kindName(d.card) : "a card"}${drawn}.`);
    case "NothingDrawn": return says(p, "found", "found", " nothing to draw.");
    case "PileRebuilt": return `The pile is rebuilt; removed: ${d.removed.map(kindName).join(", ")}.`;
    case "CardPlayed": return says(p, "played", "played", ` ${kindName(d.card)}${d.target ? ` on ${obj(d.target)}` : ""}.`);
    case "ComboPlayed": return says(p, "played", "played", ` the combo ${COMBOS[d.combo]?.name || d.combo}${d.target ? ` on ${obj(d.target)}` : ""}.`);
    case "CardStolen": return says(p, "took", "took", ` ${d.card ? kindName(d.card) : "a card"} from ${obj(d.victim)}.`);
    case "CardTaken": return says(p, "took", "took", ` ${kindName(d.card)} from the discard pile.`);
    case "AttackDeclared": return says(d.attacker, "attack", "attacks", ` ${obj(d.target)}: ${d.damage} damage (${d.source.replaceAll("_", " ")}).`);
    case "ReactionWindowOpened": return says(p, "may", "may", " react.");
    case "ReactionPlayed": return says(p, "reacted", "reacted", ` with ${kindName(d.card)}.`);
    case "ReactionPassed": return d.timed_out ? says(p, "did", "did", " not answer in time: the attack goes through.") : says(p, "let", "lets", " the attack through.");
    case "AttackResolved": return says(d.target, "take", "takes", ` ${d.to_target}${d.to_attacker ? `; ${obj(d.attacker)} ${you(d.attacker) ? "take" : "takes"} ${d.to_attacker}` : ""}.`);
    case "AttackCancelled": return "The attack is cancelled.";
    case "LifeLost": return says(p, "lose", "loses", ` ${d.amount} (life ${d.life}).`);
    case "LifeGained": return says(p, "gain", "gains", ` ${d.amount} (life ${d.life}).`);
    case "WardRaised": return says(p, "raised", "raised", ` ${WARDS[d.ward] || d.ward}.`);
    case "BonusTaken": return says(p, "took", "took", ` the bonus: ${d.bonus}.`);
    case "ActionEnded": return d.skipped ? says(p, "had", "had", " nothing playable.") : `${name(p)}: discard phase.`;
    case "CardDiscarded": return says(p, "discarded", "discarded", ` ${kindName(d.card)} (${d.reason === "swap" ? "a swap" : "over 3 cards"}).`);
    case "TurnTimedOut": return says(p, "ran", "ran", " out of time.");
    case "TurnEnded": return says(p, "ended", "ended", " the turn.");
    case "PlayerOut": return says(p, "are", "is", " out of the round.");
    case "PlayerLeft": return says(p, "left", "left", ` the match (${d.reason}).`);
    case "RoundWon": return says(p, "won", "won", ` round ${d.round} as ${HOW[d.how] || d.how} (${d.wins} won).`);
    case "RoundReplayed": return `Round ${d.round} is replayed (a tie).`;
    case "PlayerDisconnected": return says(p, "are", "is", " disconnected.");
    case "PlayerReconnected": return says(p, "are", "is", " back.");
    case "MatchEnded": return says(d.winner, "won", "won", " the match.");
    default: return e.type;
  }
}
