// The fight viewer (`#/fight/<match>/<step>`): a line fight played back from its combat log (the
// match view's `log`, GET /v1/matches/{id}), round by round, one hit or heal a step — who hits whom,
// for how much, the HP left, who falls, the heals, then the end reason and the tie-break. Step, play,
// speed; the URL follows the step on screen, so it can be shared (with the fight's other player:
// only a match's players may read it).
import { get } from "../api.js";
import { lineCard, lineFace, loadLineCatalog } from "../linecards.js";
import { h, mount } from "../ui.js";

const SPEEDS = [1, 2, 4, 16];
const STEP_MS = 900;
const REASONS = {
  line_fell: "a whole line fell",
  frozen: "a round changed nothing (every hit healed back): the tie-break decides",
  round_limit: "round 40 ended: the tie-break decides",
};
const TIE_BREAKS = {
  living_cards: "more cards standing",
  living_atk: "more ATK among the cards standing",
  current_hp: "more HP left",
  armour: "more armour among the cards standing",
  technical: "all equal: the side that acted first in round 1 loses",
};
const HIT = { front: "hits", carry_front: "hits (a carry in front: half)", back: "strikes the back row (a nuker: half)" };

// The log as steps: the lines facing off, each round's start, each action, the end.
export function steps(log) {
  const out = [{ kind: "start" }];
  for (const round of log.rounds) {
    out.push({ kind: "round", round });
    for (const action of round.actions) out.push({ kind: "act", round, action });
  }
  out.push({ kind: "end" });
  return out;
}

// Each side's HP by slot once the first `upto` steps have been played.
function hpAt(log, all, upto) {
  const hp = { you: log.lines.you.map((f) => f.hp), opponent: log.lines.opponent.map((f) => f.hp) };
  for (const st of all.slice(0, upto + 1)) {
    if (st.kind !== "act") continue;
    const a = st.action;
    const side = a.action === "hit" ? other(a.by) : a.by;
    hp[side][a.target] = a.hp;
  }
  return hp;
}

const other = (side) => (side === "you" ? "opponent" : "you");
const whose = (side) => (side === "you" ? "Your" : "The opponent's");

function tell(log, st) {
  const name = (side, slot) => lineCard(log.lines[side][slot].card_id).name;
  if (st.kind === "start") return `${log.first === "you" ? "You act" : "The opponent acts"} first in round 1.`;
  if (st.kind === "round") {
    const r = st.round;
    return `Round ${r.round}: ${r.first === "you" ? "you begin" : "the opponent begins"}${r.ramp ? `, every hit +${r.ramp} ATK` : ""}${r.heal ? `, supports heal ${r.heal}` : ", no heals"}.`;
  }
  if (st.kind === "act") {
    const a = st.action;
    if (a.action === "heal")
      return `${whose(a.by)} ${name(a.by, a.slot)} heals ${name(a.by, a.target)} +${a.amount} (${a.hp} HP).`;
    const foe = other(a.by);
    return `${whose(a.by)} ${name(a.by, a.slot)} ${HIT[a.hit] || "hits"} ${whose(foe).toLowerCase()} ${name(foe, a.target)} for ${a.damage}: ${a.fell ? "it falls." : `${a.hp} HP left.`}`;
  }
  const e = log.end;
  return `${e.winner === "you" ? "You win" : "You lose"} in round ${e.round}: ${REASONS[e.reason] || e.reason}${e.tie_break ? ` (${TIE_BREAKS[e.tie_break] || e.tie_break})` : ""}.`;
}

export async function render(root, matchId, at) {
  await loadLineCatalog();
  const view = await get(`/v1/matches/${matchId}`);
  if (view.game !== "line") {
    location.replace(`#/match/${matchId}`);
    return;
  }
  const log = view.log;
  const all = steps(log);
  const s = { step: Math.min(Math.max(0, Number(at) || 0), all.length - 1), playing: null, speed: 1 };
  const rows = h("div", { class: "fight", id: "fight", "data-step": "0" });
  const text = h("p", { class: "fight-text", id: "fight-text", "aria-live": "polite" });
  const counter = h("span", { id: "fight-step" });
  const roundLabel = h("span", { id: "fight-round" });
  const told = h("ol", { class: "log", id: "fight-log", "aria-label": "the fight so far" });
  const end = h("div", { id: "fight-end" });
  const url = h("input", { id: "fight-url", readonly: true, "aria-label": "a link to this moment of the fight" });
  const play = h("button", { type: "button", id: "fight-play", onclick: () => (s.playing ? pause() : start()) }, "▶ Play");
  const speed = h("select", { id: "fight-speed", "aria-label": "speed", onchange: () => { s.speed = Number(speed.value); if (s.playing) { pause(); start(); } } },
    SPEEDS.map((x) => h("option", { value: String(x) }, `${x}×`)));

  function row(side, hp, st) {
    const a = st.kind === "act" ? st.action : null;
    const actor = a && a.by === side ? a.slot : -1;
    const target = a && (a.action === "hit" ? other(a.by) : a.by) === side ? a.target : -1;
    return h("ol", { class: `fight-row ${side}`, id: `fight-${side}`, "aria-label": side === "you" ? "your line" : "the opponent's line" },
      log.lines[side].map((f, slot) => {
        const cls = ["fighter", slot === actor ? "acting" : "", slot === target ? (a.action === "hit" ? "struck" : "healed") : ""].join(" ");
        const pop = slot === target ? h("span", { class: `pop ${a.action}` }, a.action === "hit" ? `−${a.damage}` : `+${a.amount}`) : null;
        return h("li", { class: cls, "data-slot": slot, "data-hp": hp[side][slot] }, lineFace(f.card_id, { stats: f, hp: hp[side][slot], extra: [pop] }));
      }));
  }

  function show() {
    const st = all[s.step];
    const hp = hpAt(log, all, s.step);
    rows.dataset.step = String(s.step);
    const round = st.round || (st.kind === "end" ? { round: log.end.round } : null);
    roundLabel.textContent = round ? `Round ${round.round}` : "Before the fight";
    counter.textContent = `Step ${s.step} / ${all.length - 1}`;
    mount(rows,
      h("p", { class: "fight-side" }, "Opponent", log.links.opponent.length ? ` · links: ${log.links.opponent.join(", ")}` : ""),
      row("opponent", hp, st),
      row("you", hp, st),
      h("p", { class: "fight-side" }, "You", log.links.you.length ? ` · links: ${log.links.you.join(", ")}` : ""));
    text.textContent = tell(log, st);
    mount(told, all.slice(1, s.step + 1).reverse().slice(0, 60).map((x) => h("li", {}, tell(log, x))));
    const last = s.step === all.length - 1;
    if (last) {
      const won = log.end.winner === "you";
      mount(end, h("section", { class: `panel end ${won ? "victory" : "defeat"}`, "aria-labelledby": "fight-result" },
        h("h2", { id: "fight-result" }, won ? "Victory" : "Defeat"),
        h("p", { id: "fight-reason" }, `${REASONS[log.end.reason] || log.end.reason}.`),
        log.end.tie_break ? h("p", { id: "fight-tie-break" }, `Tie-break: ${TIE_BREAKS[log.end.tie_break] || log.end.tie_break}.`) : null,
        h("p", {}, `Round ${log.end.round} · score ${log.end.score} (the winner's HP left) · ${view.mode}`),
        h("p", { class: "row" }, h("a", { href: "#/play/line", class: "button" }, "Back to the line"))));
    } else mount(end);
    const here = `#/fight/${matchId}/${s.step}`;
    history.replaceState(null, "", here);
    url.value = `${location.origin}${location.pathname}${here}`;
    for (const [id, off] of [["fight-first", s.step === 0], ["fight-prev", s.step === 0], ["fight-next", last], ["fight-last", last]])
      document.getElementById(id).disabled = off;
    if (last) pause();
  }

  const go = (step) => { s.step = Math.min(Math.max(0, step), all.length - 1); show(); };
  function start() {
    if (s.step === all.length - 1) s.step = 0;
    play.textContent = "⏸ Pause";
    play.setAttribute("aria-pressed", "true");
    s.playing = setInterval(() => go(s.step + 1), STEP_MS / s.speed);
  }
  function pause() {
    clearInterval(s.playing);
    s.playing = null;
    play.textContent = "▶ Play";
    play.setAttribute("aria-pressed", "false");
  }

  const opponentName = view.bot === log.opponent ? "the bot" : "an opponent";
  mount(root,
    h("h1", { class: "page-title" }, `A line fight: you against ${opponentName}`),
    h("div", { class: "fight-head" }, roundLabel, " · ", counter, h("span", { class: "hint" }, " · ⚔ ATK · ◆ ARM · ♥ HP")),
    rows,
    text,
    h("div", { class: "row fight-controls", role: "group", "aria-label": "playback" },
      h("button", { type: "button", id: "fight-first", class: "secondary", "aria-label": "to the start", onclick: () => go(0) }, "|◀"),
      h("button", { type: "button", id: "fight-prev", class: "secondary", "aria-label": "one step back", onclick: () => go(s.step - 1) }, "◀ Step"),
      play,
      h("button", { type: "button", id: "fight-next", class: "secondary", "aria-label": "one step on", onclick: () => go(s.step + 1) }, "Step ▶"),
      h("button", { type: "button", id: "fight-last", class: "secondary", "aria-label": "to the end", onclick: () => go(all.length - 1) }, "▶|"),
      h("label", { for: "fight-speed", class: "inline" }, "Speed"), speed),
    end,
    h("p", { class: "row share" }, h("label", { for: "fight-url", class: "inline" }, "Share this moment"), url),
    h("details", { class: "log-box", open: true }, h("summary", {}, "The fight so far"), told));
  show();
  return pause;
}
