// The table: the match as the server shows it to you, the moves the server lists as legal (nothing
// else can be sent), timers from the server's deadlines, and the opponent's moves as they arrive
// on the match's stream (EventSource), or through the /events long-poll where a stream cannot
// open. A reload opens the same route and resumes from the server's state.
import { ApiError, get, me, post } from "../api.js";
import { arcanum, card, cardFace, describeArcanum } from "../cards.js";
import { Names, reasonText, tell, touched } from "../story.js";
import { announce, commandBody, errorText, h, mount, twoClickConcede } from "../ui.js";
import { matchHref } from "../games.js";
import { offlineBanner, watchMatch } from "../live.js";

const FORFEIT_AFTER = 120;

export async function render(root, matchId) {
  const my = me();
  const names = new Names();
  const s = { view: null, legal: [], version: 0, log: [], seen: new Set(), selected: null, mulligan: new Set(),
    fresh: new Set(), offline: false, stopped: false, conceding: false, disconnectedSince: {} };
  const controller = new AbortController();

  const board = h("div", { class: "table", id: "table" });
  const logList = h("ol", { class: "log", id: "log", "aria-label": "what happened" });
  const banner = h("div", { class: "banner", id: "connection", role: "status", "aria-live": "assertive" });
  const timer = h("p", { class: "timer", id: "timer" });
  const endPanel = h("div", { id: "end" });
  mount(root, h("h1", { class: "sr-only" }, "Match"), banner, timer, endPanel, board,
    h("details", { class: "log-box", open: true }, h("summary", {}, "Match log"), logList));

  function addEvents(events, animate) {
    for (const e of events) {
      if (s.seen.has(e.version)) continue;
      s.seen.add(e.version);
      names.learn(e);
      if (e.type === "PlayerDisconnected") s.disconnectedSince[e.data.player_id] = e.data.since;
      if (e.type === "PlayerReconnected") delete s.disconnectedSince[e.data.player_id];
      const theirs = e.data?.player_id && e.data.player_id !== my;
      if (animate && theirs) for (const id of touched(e)) s.fresh.add(id);
      const li = h("li", { class: animate ? (theirs ? "arrive theirs" : "arrive") : "", "data-type": e.type }, tell(e, my, names));
      logList.prepend(li);
      s.log.push(e);
    }
    while (logList.children.length > 80) logList.lastChild.remove();
  }

  async function read() {
    return Promise.all([
      get(`/v1/matches/${matchId}`, { signal: controller.signal }),
      get(`/v1/matches/${matchId}/legal-commands`, { signal: controller.signal }),
    ]);
  }

  async function refresh() {
    let [view, legal] = await read();
    // The two reads may straddle an event (a move, a presence notice): read again rather than show
    // "Your turn" with nothing to click until the next long-poll answers (up to WAIT seconds).
    for (let again = 0; again < 3 && legal.version !== view.version; again++) [view, legal] = await read();
    if (view.game && view.game !== "arcana") { // another game's match: its own screen
      s.stopped = true;
      location.replace(matchHref(view.game, matchId));
      return;
    }
    // Reads overlap (a move's own, the stream's): one answering after a newer one is not shown.
    if (s.view && view.version < s.view.version) return;
    s.view = view;
    s.version = Math.max(s.version, view.version);
    s.legal = legal.version === view.version ? legal.commands : [];
    names.learnView(view);
    draw();
    if (view.phase === "ended") showEnd();
  }

  async function send(command) {
    s.selected = null;
    try {
      const r = await post(`/v1/matches/${matchId}/commands`, commandBody(command, s.view.version));
      addEvents(r.events, false);
    } catch (err) {
      if (!(err instanceof ApiError)) setOffline(true);
      else if (err.code !== "version_conflict") announce(errorText(err), "error");
    }
    await refresh().catch(() => setOffline(true));
  }

  const watch = () => watchMatch({ matchId, s, controller, addEvents, refresh, setOffline });

  const setOffline = offlineBanner(banner, s, refresh);

  // -- legal moves --------------------------------------------------------------------------------

  const plays = () => s.legal.filter((c) => c.type === "play");
  const attacks = () => s.legal.filter((c) => c.type === "attack");
  const optionsFor = (sel) =>
    !sel ? [] : sel.kind === "hand" ? plays().filter((c) => c.card === sel.id) : attacks().filter((c) => c.attacker === sel.id);

  function select(kind, id) {
    if (s.selected?.id === id) {
      s.selected = null;
      return draw();
    }
    const options = optionsFor({ kind, id });
    if (options.length === 1 && options[0].position === undefined && options[0].target === undefined) return send(options[0]);
    s.selected = { kind, id };
    draw();
    const first = board.querySelector(".target, .slot");
    if (first) first.focus();
  }

  function targetButton(command, label, content, extra = {}) {
    return h("button", { type: "button", class: "target", "aria-label": label, onclick: () => send(command), ...extra }, content);
  }

  // -- drawing ------------------------------------------------------------------------------------

  function hero(side, mine) {
    const options = optionsFor(s.selected).filter((c) => c.target === "hero");
    const gone = s.view.connected && s.view.connected[side.id] === false;
    const label = mine ? "You" : s.view.bot === side.id ? "Bot" : "Opponent";
    const content = [
      h("span", { class: "hero-name" }, label, gone ? h("span", { class: "offline-tag" }, " · disconnected") : null),
      h("span", { class: "hero-hp", "aria-label": `${label} health ${side.hero_health}` }, `♥ ${side.hero_health}`),
      h("span", { class: "mana", "aria-label": `mana ${side.mana} of ${side.max_mana}` }, `◆ ${side.mana}/${side.max_mana}`),
      h("span", { class: "counts" }, `hand ${side.hand_count} · deck ${side.deck_count}${side.timeouts ? ` · timeouts ${side.timeouts}` : ""}`),
    ];
    const cls = `hero ${mine ? "mine" : "theirs"}${s.view.active_player === side.id ? " active" : ""}`;
    if (!mine && options.length) return targetButton(options[0], `attack the opponent's hero`, content, { class: `${cls} target`, id: "foe-hero" });
    return h("div", { class: cls, id: mine ? "my-hero" : "foe-hero" }, content);
  }

  function row(side, mine) {
    const options = optionsFor(s.selected);
    const slots = new Map(options.filter((c) => c.position !== undefined).map((c) => [c.position, c]));
    const targets = new Map(options.filter((c) => c.target !== undefined && c.target !== "hero").map((c) => [c.target, c]));
    const cells = [];
    const slot = (k) => {
      const c = mine && slots.get(k);
      return c ? h("li", { class: "slot-cell" }, h("button", { type: "button", class: "slot", "data-position": k, "aria-label": `place at position ${k + 1}`, onclick: () => send(c) }, "+")) : null;
    };
    side.board.forEach((u, k) => {
      cells.push(slot(k));
      const attacker = mine && attacks().some((c) => c.attacker === u.id);
      const target = targets.get(u.id);
      const cls = ["unit", s.fresh.has(u.id) ? "fresh" : "", attacker ? "legal" : "", s.selected?.id === u.id ? "selected" : "", target ? "target" : ""].join(" ");
      const label = `${card(u.card_id).name} ${u.attack}/${u.health}${attacker ? ", can attack" : ""}${target ? ", a legal target" : ""}`;
      const attrs = { class: cls, "data-unit": u.id, "data-position": k, "aria-label": label };
      cells.push(h("li", {},
        target ? targetButton(target, label, cardFace(u.card_id, { unit: u }), attrs)
          : attacker ? h("button", { type: "button", ...attrs, "aria-pressed": String(s.selected?.id === u.id), onclick: () => select("board", u.id) }, cardFace(u.card_id, { unit: u }))
          : h("div", attrs, cardFace(u.card_id, { unit: u }))));
    });
    cells.push(slot(side.board.length));
    return h("ol", { class: `board ${mine ? "mine" : "theirs"}`, "aria-label": mine ? "your board" : "the opponent's board" }, cells);
  }

  function hand() {
    const you = s.view.you;
    if (s.view.phase === "mulligan") {
      const decided = you.mulligan_done;
      return h("div", { class: "hand-area" },
        h("p", {}, decided ? "Waiting for the opponent's mulligan…" : "Mulligan: choose cards to replace, then confirm."),
        h("ol", { class: "hand", "aria-label": "your hand" },
          you.hand.map((c) => h("li", {},
            h("button", { type: "button", class: `hand-card ${s.mulligan.has(c.id) ? "selected" : ""} ${decided ? "" : "legal"}`, disabled: decided,
              "aria-pressed": String(s.mulligan.has(c.id)), "data-card": c.id,
              onclick: () => { s.mulligan.has(c.id) ? s.mulligan.delete(c.id) : s.mulligan.add(c.id); draw(); } },
              cardFace(c.card_id))))),
        decided ? null : h("button", { type: "button", id: "mulligan", onclick: mulligan }, s.mulligan.size ? `Replace ${s.mulligan.size} card${s.mulligan.size === 1 ? "" : "s"}` : "Keep this hand"));
    }
    return h("ol", { class: "hand", "aria-label": "your hand" },
      you.hand.map((c) => {
        const legal = plays().some((p) => p.card === c.id);
        const attrs = { class: `hand-card ${legal ? "legal" : ""} ${s.selected?.id === c.id ? "selected" : ""}`, "data-card": c.id,
          "aria-label": `${card(c.card_id).name}, costs ${c.cost}${legal ? ", playable" : ""}` };
        return h("li", {}, legal
          ? h("button", { type: "button", ...attrs, "aria-pressed": String(s.selected?.id === c.id), onclick: () => select("hand", c.id) }, cardFace(c.card_id, { cost: c.cost }))
          : h("div", attrs, cardFace(c.card_id, { cost: c.cost })));
      }));
  }

  function mulligan() {
    const wanted = [...s.mulligan].sort().join(",");
    const command = s.legal.find((c) => c.type === "mulligan" && [...c.cards].sort().join(",") === wanted);
    s.mulligan.clear();
    if (command) send(command);
    else announce("That mulligan is not allowed.", "error");
  }

  function spread() {
    const a = s.view.arcana;
    return h("div", { class: "spread", id: "spread", "aria-label": "the arcana spread" },
      a.revealed.map((id) => h("span", { class: id === a.current ? "arcanum current" : "arcanum", title: describeArcanum(arcanum(id)) }, arcanum(id).name)),
      h("span", { class: "rounds" }, a.rounds_left != null ? `${a.rounds_left} round${a.rounds_left === 1 ? "" : "s"} until the next` : ""),
      a.current ? h("span", { class: "effect" }, describeArcanum(arcanum(a.current))) : null);
  }

  function draw() {
    const v = s.view;
    if (!v) return;
    const myTurn = v.awaiting?.includes(my);
    const endTurn = s.legal.find((c) => c.type === "end_turn");
    board.dataset.version = String(v.version);
    const status = v.phase === "ended" ? "The match is over." : v.phase === "mulligan" ? "Mulligan" : myTurn ? "Your turn" : "Opponent's turn";
    mount(board,
      h("div", { class: "table-head" },
        h("span", { class: "mode" }, `${v.mode} · turn ${v.turn} · round ${v.round}`),
        h("strong", { id: "turn-status", "data-mine": String(Boolean(myTurn)) }, status)),
      hero(v.opponent, false),
      h("p", { class: "hint offline", hidden: !opponentGone() }, disconnectText()),
      row(v.opponent, false),
      spread(),
      row(v.you, true),
      hero(v.you, true),
      hand(),
      v.phase === "ended" ? null : h("div", { class: "actions" },
        s.selected ? h("button", { type: "button", class: "secondary", id: "cancel-selection", onclick: () => { s.selected = null; draw(); } }, "Cancel selection") : null,
        h("button", { type: "button", id: "end-turn", disabled: !endTurn, onclick: () => endTurn && send(endTurn) }, "End turn"),
        h("button", { type: "button", id: "concede", class: "danger", onclick: concede }, s.conceding ? "Confirm: concede" : "Concede")));
    tick();
  }

  const opponent = () => s.view.players.find((p) => p !== my);
  const opponentGone = () => s.view.connected && s.view.connected[opponent()] === false && s.view.phase !== "ended";
  function disconnectText() {
    const since = s.disconnectedSince[opponent()];
    if (!since) return "The opponent is disconnected.";
    const left = Math.max(0, Math.round((Date.parse(since) + FORFEIT_AFTER * 1000 - Date.now()) / 1000));
    return `The opponent is disconnected: they forfeit in ${left} s unless they come back.`;
  }

  const concede = twoClickConcede(s, () => draw(), () => send({ type: "concede" }));

  function tick() {
    const v = s.view;
    if (!v || v.phase === "ended" || !v.deadline) {
      timer.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((Date.parse(v.deadline) - Date.now()) / 1000));
    const whose = v.phase === "mulligan" ? "Mulligan" : v.awaiting?.includes(my) ? "Your turn" : "Opponent's turn";
    timer.textContent = `${whose}: ${left} s left`;
    timer.classList.toggle("urgent", left <= 10);
    const note = board.querySelector(".hint.offline");
    if (note && opponentGone()) note.textContent = disconnectText();
  }

  let endShown = false;
  async function showEnd() {
    if (endShown) return;
    endShown = true;
    s.stopped = true;
    s.source?.close();
    setOffline(false); // the stream the server closed at the end is no lost connection
    const v = s.view;
    const events = await get(`/v1/matches/${matchId}/events?after=0`);
    addEvents(events.events, false);
    const ended = events.events.find((e) => e.type === "MatchEnded")?.data || { winner: v.winner, reason: v.reason, mode: v.mode, turns: v.turn };
    const draw_ = ended.draw || ended.winner === "draw";
    const result = draw_ ? "Draw" : ended.winner === my ? "Victory" : "Defeat";
    const pay = h("div", { id: "payout", "aria-live": "polite" }, h("p", {}, "Checking what the match paid…"));
    mount(endPanel,
      h("section", { class: `panel end ${result.toLowerCase()}`, "aria-labelledby": "end-title" },
        h("h2", { id: "end-title", tabindex: -1 }, result),
        h("p", { id: "end-reason" }, `${reasonText(ended.reason)} · ${ended.turns ?? v.turn} turns · ${ended.mode || v.mode}`),
        pay,
        h("p", { class: "row" }, h("a", { href: "#/play", class: "button" }, "Play again"), " ", h("a", { href: `#/replay/${matchId}`, class: "button secondary" }, "Replay"), " ", h("a", { href: "#/home", class: "button secondary" }, "Home"))));
    endPanel.querySelector("h2").focus();
    await showPayout(pay, ended, draw_);
  }

  async function showPayout(el, ended, isDraw) {
    const verdict = ended.verdict?.[my];
    const why = explain(ended, verdict, isDraw);
    mount(el, h("p", { id: "payout-why" }, why));
    if (!why.startsWith("Counts")) return;
    for (let i = 0; i < 15 && endPanel.isConnected; i++) {
      const history = await get("/v1/wallet/history?limit=20");
      const credit = history.entries.filter((e) => e.source?.startsWith(`match:${matchId}`));
      if (credit.length) {
        el.append(h("p", { id: "payout-credit", class: "ok" }, "Credited: ", credit.map((c) => `+${c.amount} ${c.currency} (now ${c.balance_after})`).join(", ")));
        return;
      }
      await sleep(1000);
    }
    el.append(h("p", { class: "hint" }, "The credit has not arrived yet; your wallet will show it."));
  }

  function explain(ended, verdict, isDraw) {
    if (verdict) {
      const parts = [verdict.coins ? "coins" : null, verdict.xp ? "XP and quests" : null, verdict.rating ? "rating" : null].filter(Boolean);
      return parts.length ? `Counts for ${parts.join(", ")}.${verdict.message ? ` Not for the rest: ${verdict.message}.` : ""}` : `Pays nothing: ${verdict.message || "it does not count"}.`;
    }
    const mode = ended.mode;
    if (mode === "practice" || mode === "admin") return "Pays nothing: practice matches pay no coins or XP and move no rating.";
    if ((ended.turns ?? 0) < 4) return "Pays nothing: the match ended before turn 4.";
    const won = !isDraw && ended.winner === my;
    return `Counts: ${won ? "a win pays 60 coins and 60 XP" : "a loss or a draw pays 20 coins and 25 XP"}${mode === "ranked" ? ", and moves your rating" : ""}; quests move.`;
  }

  // The first read, again and again while the server cannot be reached (a restart, a lost network):
  // the table says so and comes back by itself, as it does once it is showing. False when there is
  // no such match, or when the player went elsewhere meanwhile.
  async function load() {
    let backoff = 1000;
    for (;;) {
      try {
        await refresh();
        if (s.stopped) return false;
        const past = await get(`/v1/matches/${matchId}/events?after=0`, { signal: controller.signal });
        addEvents(past.events, false);
        draw();
        if (s.offline) setOffline(false);
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          mount(root, h("p", { class: "error", role: "alert" }, "No such match (or it is not yours)."));
          return false;
        }
        if (err instanceof ApiError && err.status < 500 && err.status !== 429) throw err;
        if (!root.contains(board)) return false;
        setOffline(true);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 8000);
      }
    }
  }

  const clock = setInterval(tick, 1000);
  const keys = (e) => { if (e.key === "Escape" && s.selected) { s.selected = null; draw(); } };
  document.addEventListener("keydown", keys);
  if (!(await load())) return () => clearInterval(clock);
  if (s.view.phase !== "ended") watch();
  return () => {
    s.stopped = true;
    s.source?.close();
    controller.abort();
    clearInterval(clock);
    document.removeEventListener("keydown", keys);
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
