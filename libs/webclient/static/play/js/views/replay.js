// A finished match, turn by turn, from your own point of view: the events the server lets you see
// (GET /v1/matches/{id}/events), folded into heroes, boards and your hand at the end of each turn.
import { get, me } from "../api.js";
import { card, cardFace } from "../cards.js";
import { Names, tell } from "../story.js";
import { h, mount } from "../ui.js";

const START_HEALTH = 30;

function fold(events, my) {
  const turns = [];
  const st = { heroes: {}, boards: {}, hand: [], turn: 0 };
  let current = { turn: 0, title: "Before the first turn", events: [] };
  const snapshot = () => structuredClone({ heroes: st.heroes, boards: st.boards, hand: st.hand });
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "TurnStarted") {
      current.state = snapshot();
      turns.push(current);
      current = { turn: d.turn, title: `Turn ${d.turn}: ${d.player_id === my ? "yours" : "the opponent's"}`, events: [] };
    }
    current.events.push(e);
    const board = (p) => (st.boards[p] ||= []);
    switch (e.type) {
      case "MatchStarted":
        for (const p of d.players) { st.heroes[p] = START_HEALTH; board(p); }
        break;
      case "CardDrawn":
        if (d.card_id) st.hand.push({ id: d.card, card_id: d.card_id });
        break;
      case "MulliganCompleted":
        if (d.returned) st.hand = st.hand.filter((c) => !d.returned.includes(c.id));
        break;
      case "CardPlayed":
        st.hand = st.hand.filter((c) => c.id !== d.card);
        break;
      case "UnitSummoned":
        board(d.player_id).splice(d.position ?? board(d.player_id).length, 0, { id: d.unit, card_id: d.card_id, attack: d.attack, health: d.health, max_health: d.health });
        break;
      case "UnitBuffed":
        for (const u of Object.values(st.boards).flat()) if (u.id === d.unit) { u.attack += d.attack || 0; u.health += d.health || 0; u.max_health += d.health || 0; }
        break;
      case "DamageDealt":
        if (d.target === "hero") st.heroes[d.player_id] -= d.amount;
        else for (const u of Object.values(st.boards).flat()) if (u.id === d.target) u.health -= d.amount;
        break;
      case "HeroHealed":
        st.heroes[d.player_id] = Math.min(START_HEALTH, st.heroes[d.player_id] + (d.amount || 0));
        break;
      case "HeroDrained":
        st.heroes[d.player_id] -= d.amount || 0;
        break;
      case "UnitDied":
        for (const p of Object.keys(st.boards)) st.boards[p] = st.boards[p].filter((u) => u.id !== d.unit);
        break;
    }
  }
  current.state = snapshot();
  turns.push(current);
  return turns;
}

export async function render(root, matchId) {
  const my = me();
  const [view, log] = await Promise.all([get(`/v1/matches/${matchId}`), get(`/v1/matches/${matchId}/events?after=0`)]);
  const names = new Names();
  log.events.forEach((e) => names.learn(e));
  const turns = fold(log.events, my);
  const foe = view.players.find((p) => p !== my);
  let at = 0;
  const stage = h("div", { id: "replay-stage", "aria-live": "polite" });
  const prev = h("button", { type: "button", id: "replay-prev", class: "secondary", onclick: () => go(at - 1) }, "← Previous turn");
  const next = h("button", { type: "button", id: "replay-next", onclick: () => go(at + 1) }, "Next turn →");

  function side(p, label) {
    return h("div", { class: "replay-side" },
      h("p", { class: "hero" }, h("span", { class: "hero-name" }, label), h("span", { class: "hero-hp" }, `♥ ${turns[at].state.heroes[p] ?? START_HEALTH}`)),
      h("ol", { class: "board" }, (turns[at].state.boards[p] || []).map((u) => h("li", {}, h("div", { class: "unit" }, cardFace(u.card_id, { unit: u }))))));
  }

  function go(i) {
    at = Math.max(0, Math.min(turns.length - 1, i));
    const t = turns[at];
    prev.disabled = at === 0;
    next.disabled = at === turns.length - 1;
    mount(stage,
      h("h2", { id: "replay-turn" }, t.title, h("span", { class: "hint" }, ` (${at + 1} of ${turns.length})`)),
      side(foe, view.bot === foe ? "Bot" : "Opponent"),
      side(my, "You"),
      h("p", {}, "Your hand: ", t.state.hand.map((c) => card(c.card_id).name).join(", ") || "empty"),
      h("ol", { class: "log" }, t.events.map((e) => h("li", { "data-type": e.type }, tell(e, my, names)))));
  }

  mount(root, h("h1", { class: "page-title" }, "Replay"),
    h("p", {}, `${view.mode} match · ${view.phase === "ended" ? (view.winner === my ? "you won" : view.winner === "draw" ? "draw" : "you lost") : "still running"}`),
    h("div", { class: "row" }, prev, next),
    h("section", { class: "panel replay" }, stage));
  go(0);
}
