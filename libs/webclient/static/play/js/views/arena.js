// The arena table (`#/arena/<match>`): 2–4 seats (each one's life, cards in hand, rounds won, wards),
// your hand, the pile and the discard pile face up. Only what GET /v1/matches/{id}/legal-commands lists
// can be sent: in the action phase draw, a card (then its target) or a combo (its bonus, then its
// target or the discard pile's card); when someone attacks you, the reaction prompt with its 10 s
// countdown (a defence card, or let it through); in the discard phase a swap once and the end of
// the turn with the cards over 3. The match follows on its stream, as the Arcana table does.
import { ApiError, get, me, post } from "../api.js";
import { COMBOS, arenaFace, kindName, tellArena } from "../arenacards.js";
import { offlineBanner, watchMatch } from "../live.js";
import { announce, commandBody, errorText, h, mount, twoClickConcede } from "../ui.js";

const ORDINAL = ["1st", "2nd", "3rd", "4th"];

export async function render(root, matchId) {
  const my = me();
  const s = { view: null, legal: [], version: 0, seen: new Set(), fresh: new Set(), sel: null, discard: new Set(),
    offline: false, stopped: false, conceding: false };
  const controller = new AbortController();
  const table = h("div", { class: "table arena", id: "table" });
  const logList = h("ol", { class: "log", id: "log", "aria-label": "what happened" });
  const banner = h("div", { class: "banner", id: "connection", role: "status", "aria-live": "assertive" });
  const timer = h("p", { class: "timer", id: "timer" });
  const endPanel = h("div", { id: "end" });
  mount(root, h("h1", { class: "sr-only" }, "Arcane Arena"), banner, timer, endPanel, table,
    h("details", { class: "log-box", open: true }, h("summary", {}, "Match log"), logList));

  function name(id) {
    if (id === my) return "You";
    const seat = s.view ? s.view.players.indexOf(id) : -1;
    if (seat < 0) return "someone";
    return `Seat ${seat + 1}${s.view.mode === "practice" ? " (bot)" : ""}`;
  }

  function addEvents(events, animate) {
    for (const e of events) {
      if (s.seen.has(e.version)) continue;
      s.seen.add(e.version);
      const theirs = e.data?.player_id && e.data.player_id !== my;
      if (animate && e.data?.player_id) s.fresh.add(e.data.player_id);
      logList.prepend(h("li", { class: animate ? (theirs ? "arrive theirs" : "arrive") : "", "data-type": e.type }, tellArena(e, name)));
    }
    while (logList.children.length > 120) logList.lastChild.remove();
  }

  const read = () => Promise.all([
    get(`/v1/matches/${matchId}`, { signal: controller.signal }),
    get(`/v1/matches/${matchId}/legal-commands`, { signal: controller.signal }),
  ]);

  async function refresh() {
    let [view, legal] = await read();
    for (let again = 0; again < 3 && legal.version !== view.version; again++) [view, legal] = await read();
    if (view.game !== "arena") return location.replace(`#/match/${matchId}`);
    // Reads overlap (a move's own, the stream's): one answering after a newer one is not shown.
    if (s.view && view.version < s.view.version) return;
    if (view.version !== s.view?.version) { s.sel = null; s.discard.clear(); }
    s.view = view;
    s.version = Math.max(s.version, view.version);
    s.legal = legal.version === view.version ? legal.commands : [];
    draw();
    if (view.phase === "ended") showEnd();
  }

  async function send(command) {
    s.sel = null;
    s.discard.clear();
    try {
      const r = await post(`/v1/matches/${matchId}/commands`, commandBody(command, s.view.version));
      addEvents(r.events, false);
    } catch (err) {
      if (!(err instanceof ApiError)) setOffline(true);
      else if (err.code !== "version_conflict") announce(errorText(err), "error");
    }
    await refresh().catch(() => setOffline(true));
  }
  const setOffline = offlineBanner(banner, s, refresh);

  // -- the legal commands, by kind ------------------------------------------------------------------

  const of = (type) => s.legal.filter((c) => c.type === type);
  function options() {
    const sel = s.sel;
    if (!sel) return [];
    if (sel.type === "play") return of("play").filter((c) => c.card === sel.card);
    return of("combo").filter((c) => c.combo === sel.combo && (!sel.bonus || c.bonus === sel.bonus));
  }

  function choose(sel) {
    if (s.sel && JSON.stringify(s.sel) === JSON.stringify(sel)) { s.sel = null; return draw(); }
    s.sel = sel;
    const opts = options();
    const bonuses = new Set(opts.map((c) => c.bonus).filter(Boolean));
    if (opts.length === 1 && (sel.type === "play" || sel.bonus || bonuses.size <= 1)) return send(opts[0]);
    draw();
  }

  // -- drawing ------------------------------------------------------------------------------------

  function seat(p, index, targets) {
    const v = s.view;
    const target = targets.get(p.id);
    const attacked = v.attack?.target === p.id;
    const cls = ["seat", p.id === my ? "mine" : "", v.active === p.id ? "active" : "", attacked ? "attacked" : "",
      !p.in_round ? "out" : "", !p.in_match ? "left" : "", target ? "target" : "", s.fresh.has(p.id) ? "fresh" : ""].join(" ");
    const gone = v.connected && v.connected[p.id] === false && v.phase !== "ended";
    const wins = "★".repeat(p.wins) + "☆".repeat(Math.max(0, 3 - p.wins));
    const content = [
      h("span", { class: "seat-name" }, name(p.id), gone ? h("span", { class: "offline-tag" }, " · disconnected") : null),
      h("span", { class: "hero-hp", "data-life": p.life, "aria-label": `life ${p.life}` }, `♥ ${p.life}`),
      h("span", { class: "counts", "data-hand": p.hand_count }, `${p.hand_count} card${p.hand_count === 1 ? "" : "s"}`),
      h("span", { class: "wins", "data-wins": p.wins, "aria-label": `${p.wins} rounds won` }, wins),
      p.wards.length ? h("span", { class: "wards" }, p.wards.join(", ")) : null,
      !p.in_match ? h("span", { class: "tag" }, "left") : !p.in_round ? h("span", { class: "tag" }, "out") : null,
    ];
    const attrs = { class: cls, "data-seat": p.id, "data-index": index };
    return h("li", {}, target
      ? h("button", { type: "button", ...attrs, "aria-label": `target ${name(p.id)}, life ${p.life}`, onclick: () => send(target) }, content)
      : h("div", attrs, content));
  }

  function reaction() {
    const reacts = of("react");
    const pass = of("pass")[0];
    if (!pass) return null;
    const a = s.view.attack;
    return h("section", { class: "panel reaction", id: "reaction", role: "alertdialog", "aria-labelledby": "reaction-title" },
      h("h2", { id: "reaction-title" }, `${name(a.attacker)} attacks you: ${a.damage} damage (${a.source.replaceAll("_", " ")})`),
      h("p", {}, "Answer within ", h("strong", { id: "reaction-timer" }, countdown()), ", or the attack goes through."),
      h("div", { class: "row" },
        reacts.map((c) => h("button", { type: "button", "data-react": c.card, onclick: () => send(c) }, `React: ${kindName(c.card)}`)),
        h("button", { type: "button", id: "pass", class: "secondary", onclick: () => send(pass) }, "Let it through")));
  }

  function handRow() {
    const v = s.view;
    const discardPhase = of("end_turn").length > 0;
    return h("ol", { class: "hand", id: "arena-hand", "aria-label": "your hand" }, v.hand.map((c) => {
      const playable = of("play").some((p) => p.card === c.id);
      const picked = discardPhase ? s.discard.has(c.id) : s.sel?.card === c.id;
      const legal = discardPhase || playable;
      const attrs = { class: `hand-card ${legal ? "legal" : ""} ${picked ? "selected" : ""}`, "data-card": c.id };
      if (!legal) return h("li", {}, h("div", attrs, arenaFace(c.id)));
      const onclick = discardPhase
        ? () => { s.discard.has(c.id) ? s.discard.delete(c.id) : s.discard.add(c.id); draw(); }
        : () => choose({ type: "play", card: c.id });
      return h("li", {}, h("button", { type: "button", ...attrs, "aria-pressed": String(picked), "aria-label": `${kindName(c.id)}${playable ? ", playable" : ""}`, onclick }, arenaFace(c.id)));
    }));
  }

  function combos() {
    const names = [...new Set(of("combo").map((c) => c.combo))];
    if (!names.length) return null;
    const sel = s.sel?.type === "combo" ? s.sel : null;
    const bonuses = sel && !sel.bonus ? [...new Set(options().map((c) => c.bonus))] : [];
    return h("div", { class: "combos", id: "combos", "aria-label": "combos your hand holds" },
      names.map((n) => h("button", { type: "button", class: `combo ${sel?.combo === n ? "selected" : ""}`, "data-combo": n, "aria-pressed": String(sel?.combo === n),
        title: COMBOS[n]?.text, onclick: () => choose({ type: "combo", combo: n }) }, `Combo: ${COMBOS[n]?.name || n}`)),
      bonuses.length ? h("span", { class: "row tight" }, "Bonus: ",
        bonuses.map((b) => h("button", { type: "button", class: "small", "data-bonus": b, onclick: () => choose({ ...sel, bonus: b }) }, b === "draw" ? "draw 1" : "+1 life"))) : null);
  }

  function discardChoices(opts) {
    const cards = new Map(opts.filter((c) => c.card && !c.target).map((c) => [c.card, c]));
    return cards.size ? h("div", { class: "row", id: "take-from-discard" }, "Take from the discard pile: ",
      [...cards].map(([id, c]) => h("button", { type: "button", class: "small target", "data-take": id, onclick: () => send(c) }, kindName(id)))) : null;
  }

  function actions() {
    const v = s.view;
    const draw_ = of("draw")[0];
    const ends = of("end_turn");
    const swap = of("swap").find((c) => s.discard.size === 1 && s.discard.has(c.card));
    const wanted = [...s.discard].sort().join();
    const end = ends.find((c) => [...c.discard].sort().join() === wanted);
    const over = ends.length ? ends[0].discard.length : 0;
    const bits = [];
    if (draw_) bits.push(h("button", { type: "button", id: "draw", onclick: () => send(draw_) }, `Draw (${v.pile_count} in the pile)`));
    if (ends.length) {
      bits.push(h("span", { class: "hint", id: "discard-hint" }, over ? `Discard phase: choose ${over} card${over === 1 ? "" : "s"} to discard.` : "Discard phase: swap one card once, or end your turn."));
      if (of("swap").length) bits.push(h("button", { type: "button", id: "swap", class: "secondary", disabled: !swap, onclick: () => swap && send(swap) }, "Swap the card chosen"));
      bits.push(h("button", { type: "button", id: "end-turn", disabled: !end, onclick: () => end && send(end) }, over ? `Discard ${over} and end the turn` : "End turn"));
    }
    if (s.sel) bits.push(h("button", { type: "button", class: "secondary", id: "cancel-selection", onclick: () => { s.sel = null; draw(); } }, "Cancel selection"));
    if (v.phase !== "ended" && s.view.seats.find((p) => p.id === my)?.in_match)
      bits.push(h("button", { type: "button", id: "concede", class: "danger", onclick: concede }, s.conceding ? "Confirm: leave the match" : "Concede"));
    return h("div", { class: "actions" }, bits);
  }

  function status() {
    const v = s.view;
    if (v.phase === "ended") return "The match is over.";
    const waited = v.awaiting?.[0];
    if (waited === my) return v.phase === "reaction" ? "You are attacked: react" : v.phase === "discard" ? "Your discard phase" : "Your turn";
    return `${name(waited)}: ${v.phase === "reaction" ? "reacting" : v.phase === "discard" ? "discard phase" : "their turn"}`;
  }

  function draw() {
    const v = s.view;
    if (!v) return;
    const opts = options();
    const targets = new Map(opts.filter((c) => c.target).map((c) => [c.target, c]));
    table.dataset.version = String(v.version);
    table.dataset.phase = v.phase;
    const mine = v.awaiting?.includes(my);
    mount(table,
      h("div", { class: "table-head" },
        h("span", { class: "mode" }, `${v.mode} · round ${v.round} · turn ${v.turn}`),
        h("strong", { id: "turn-status", "data-mine": String(Boolean(mine)) }, status())),
      h("ol", { class: "seats", id: "seats", "aria-label": "the table" }, v.seats.map((p, i) => seat(p, i, targets))),
      s.sel && targets.size ? h("p", { class: "hint", id: "choose-target" }, "Choose an opponent.") : null,
      reaction(),
      h("div", { class: "spread", id: "pile" },
        h("span", {}, `Pile: ${v.pile_count}`),
        h("span", {}, `Discard pile: ${v.discard.length ? v.discard.map((c) => kindName(c.id)).join(", ") : "empty"}`),
        v.removed.length ? h("span", { class: "rounds" }, `Removed: ${v.removed.map((c) => kindName(c.id)).join(", ")}`) : null),
      combos(),
      s.sel?.type === "combo" && s.sel.bonus ? discardChoices(opts) : null,
      h("div", { class: "hand-area" }, handRow()),
      actions());
    tick();
  }

  function countdown() {
    const v = s.view;
    if (!v?.deadline) return "";
    return `${Math.max(0, Math.ceil((Date.parse(v.deadline) - Date.now()) / 1000))} s`;
  }

  function tick() {
    const v = s.view;
    if (!v || v.phase === "ended" || !v.deadline) {
      timer.textContent = "";
      return;
    }
    const left = countdown();
    const waited = v.awaiting?.[0];
    timer.textContent = `${waited === my ? "You" : name(waited)}: ${left} left`;
    timer.classList.toggle("urgent", parseInt(left, 10) <= (v.phase === "reaction" ? 5 : 10));
    const r = document.getElementById("reaction-timer");
    if (r) r.textContent = left;
  }

  const concede = twoClickConcede(s, () => draw(), () => send({ type: "concede" }));

  let endShown = false;
  async function showEnd() {
    if (endShown) return;
    endShown = true;
    s.stopped = true;
    s.source?.close();
    setOffline(false); // the stream the server closed at the end is no lost connection
    const v = s.view;
    const won = v.winner === my;
    mount(endPanel, h("section", { class: `panel end ${won ? "victory" : "defeat"}`, "aria-labelledby": "end-title" },
      h("h2", { id: "end-title", tabindex: -1 }, won ? "Victory" : "Defeat"),
      h("ol", { id: "placements", class: "placements" }, v.placements.map((group, i) =>
        h("li", { "data-place": i + 1 }, `${ORDINAL[i] || `${i + 1}th`}: ${group.map(name).join(", ")}`))),
      h("p", { id: "payout-why" }, v.mode === "practice" ? "Practice pays nothing." : "First place pays 60 coins and 60 XP, any other 20 coins and 25 XP."),
      h("p", { class: "row" }, h("a", { href: "#/play/arena", class: "button" }, "Play again"), " ", h("a", { href: "#/home", class: "button secondary" }, "Home"))));
    endPanel.querySelector("h2").focus();
  }

  async function load() {
    try {
      await refresh();
      if (!s.view) return false; // another game's match: sent to its own screen
      const past = await get(`/v1/matches/${matchId}/events?after=0`, { signal: controller.signal });
      addEvents(past.events, false);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        mount(root, h("p", { class: "error", role: "alert" }, "No such match (or it is not yours)."));
        return false;
      }
      throw err;
    }
  }

  const clock = setInterval(tick, 250);
  const keys = (e) => { if (e.key === "Escape" && s.sel) { s.sel = null; draw(); } };
  document.addEventListener("keydown", keys);
  if (!(await load())) return () => clearInterval(clock);
  if (s.view.phase !== "ended") watchMatch({ matchId, s, controller, addEvents, refresh, setOffline });
  return () => {
    s.stopped = true;
    s.source?.close();
    controller.abort();
    clearInterval(clock);
    document.removeEventListener("keydown", keys);
  };
}
