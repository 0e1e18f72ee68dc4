// Match events told in words, from one player's point of view (the table's log and the replay).
import { arcanum, card } from "./cards.js";

export class Names {
  constructor() {
    this.units = new Map(); // instance id -> card id
  }
  learn(e) {
    const d = e.data || {};
    for (const key of ["card", "unit"]) if (d[key] && d.card_id) this.units.set(d[key], d.card_id);
  }
  learnView(view) {
    for (const side of [view.you, view.opponent])
      for (const u of [...(side.board || []), ...(side.hand || [])]) this.units.set(u.id, u.card_id);
  }
  of(instance) {
    if (instance === "hero") return "the hero";
    const id = this.units.get(instance);
    return id ? card(id).name : instance;
  }
}

const REASONS = {
  hero_killed: "a hero fell",
  concede: "a player conceded",
  timeouts: "three turns in a row ran out of time",
  disconnect: "a player stayed disconnected for 120 s",
  draw: "both heroes fell at once",
};
export const reasonText = (r) => REASONS[r] || r || "";

export function tell(e, me, names) {
  const d = e.data || {};
  const who = d.player_id === me ? "You" : "Opponent";
  const whose = d.player_id === me ? "your" : "the opponent's";
  switch (e.type) {
    case "MatchCreated": return `Match created (${d.mode}).`;
    case "MatchStarted": return `${d.first === me ? "You go" : "The opponent goes"} first.`;
    case "ArcanaRevealed": return `Arcana revealed: ${arcanum(d.arcana).name} (${d.phase}, round ${d.round}).`;
    case "CardDrawn": return d.card_id ? `You drew ${card(d.card_id).name}.` : `${who} drew a card.`;
    case "MulliganCompleted":
      return d.returned ? `You kept your hand${d.returned.length ? `, replacing ${d.returned.length}` : ""}.` : `Opponent replaced ${d.count} card${d.count === 1 ? "" : "s"}.`;
    case "TurnStarted": return `Turn ${d.turn} (round ${d.round}): ${d.player_id === me ? "your" : "the opponent's"} turn.`;
    case "ManaRefilled": return `${who} ${d.player_id === me ? "have" : "has"} ${d.mana}/${d.max_mana} mana.`;
    case "HeroDrained": return `${whose} hero is drained for ${d.amount ?? ""} (empty deck).`;
    case "CardPlayed": return `${who} played ${card(d.card_id).name}${d.position !== undefined ? ` at position ${d.position + 1}` : ""}.`;
    case "UnitSummoned": return `${card(d.card_id).name} enters ${whose} board (${d.attack}/${d.health}).`;
    case "UnitBuffed": return `${names.of(d.unit)} is buffed${d.attack ? ` +${d.attack}` : ""}${d.health ? `/+${d.health}` : ""}.`;
    case "SpellCast": return `${who} cast ${card(d.card_id).name}${d.target ? ` on ${names.of(d.target)}` : ""}.`;
    case "AttackResolved": return `${who === "You" ? "Your" : "The opponent's"} ${names.of(d.attacker)} attacks ${d.target === "hero" ? (d.player_id === me ? "the opponent's hero" : "your hero") : names.of(d.target)}.`;
    case "DamageDealt": return `${d.target === "hero" ? (d.player_id === me ? "Your hero" : "The opponent's hero") : names.of(d.target)} takes ${d.amount} damage.`;
    case "WardBroken": return `${names.of(d.unit)}'s ward breaks.`;
    case "HeroHealed": return `${d.player_id === me ? "Your" : "The opponent's"} hero heals ${d.amount}.`;
    case "UnitDied": return `${d.player_id === me ? "Your" : "The opponent's"} ${names.of(d.unit)} dies.`;
    case "TurnTimedOut": return `${who} ran out of time (${d.timeouts} in a row).`;
    case "TurnEnded": return `${who} ended the turn.`;
    case "PlayerDisconnected": return `${d.player_id === me ? "You were" : "The opponent was"} disconnected.`;
    case "PlayerReconnected": return `${d.player_id === me ? "You are" : "The opponent is"} back.`;
    case "MatchEnded":
      return d.draw || d.winner === "draw" ? `Draw: ${reasonText(d.reason)}.` : `${d.winner === me ? "You win" : "You lose"}: ${reasonText(d.reason)}.`;
    default: return e.type;
  }
}

// The instance ids an event touches (to animate them as they arrive).
export function touched(e) {
  const d = e.data || {};
  return [d.card, d.unit, d.attacker, d.target !== "hero" ? d.target : null, d.source].filter(Boolean);
}
