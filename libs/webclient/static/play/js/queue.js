// Queueing for a match of any game (POST /v1/queue, then GET /v1/queue/{ticket} each second): the
// ticket's status, the waited time, the window (ranked) or the tables waiting (arena). A ticket left
// open (a reload) is picked up again. A ticket failed because the match service had not yet heard of
// a player (a registration seconds old: `unknown_player`) is queued again at once (the players queue
// again, as the match service's rejection expects), a few times at most. A game whose deck economy
// has just published (`no_active_deck` while the news travels) is asked again a few times.
import { del, get, post } from "./api.js";
import { matchHref } from "./games.js";
import { announce, errorText, h, mount } from "./ui.js";

const TICKET = "arcana.ticket";
const REQUEUE_REASONS = new Set(["unknown_player"]); // news of a registration still on its way
const REQUEUES = 3;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// `call` until it stops failing with one of `codes` (news another service has not heard yet), at
// most `tries` times half a second apart; `waiting` tells the player once.
export async function eventually(call, codes, waiting, tries = 60) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!codes.includes(err.code) || attempt >= tries) throw err;
      if (attempt === 1 && waiting) announce(waiting);
      await sleep(500);
    }
  }
}

// The queue panel's logic: `status` is the element it writes into; `body(mode)` the request's body.
export function queuer(status, body, { deckCodes = [] } = {}) {
  let stopped = false;
  let requeues = 0;

  function showTicket(t) {
    const window = t.mode === "ranked" ? (t.window == null ? "any rating" : `±${t.window} around ${t.rating}`) : "first come, first served";
    const tables = t.waiting ? Object.entries(t.waiting).map(([n, k]) => `${k} waiting for a table of ${n}`).join(" · ") : null;
    mount(
      status,
      h("p", { class: "queue-line" }, h("strong", {}, `${t.mode} queue: `), h("span", { id: "ticket-status" }, t.status)),
      h("p", {}, "Waited ", h("strong", { id: "waited" }, `${Math.floor(t.waited_seconds)} s`), " · ", tables ? h("span", { id: "tables" }, tables) : ["window ", h("strong", { id: "window" }, window)]),
      t.status === "waiting"
        ? h("button", { type: "button", class: "secondary", id: "cancel-ticket", onclick: () => cancel(t) }, "Leave the queue")
        : null,
      t.status === "failed" ? h("p", { class: "error" }, t.message || t.reason, t.problems?.length ? `: ${t.problems.join("; ")}` : "") : null,
    );
  }

  async function follow(ticketId) {
    sessionStorage.setItem(TICKET, ticketId);
    while (!stopped) {
      let t;
      try {
        t = await get(`/v1/queue/${ticketId}`);
      } catch (err) {
        if (err.status === 404) break;
        announce(errorText(err), "error");
        await sleep(2000);
        continue;
      }
      showTicket(t);
      if (t.status === "matched" && t.match_id) {
        sessionStorage.removeItem(TICKET);
        location.hash = matchHref(t.game, t.match_id);
        return;
      }
      if (t.status === "failed" && REQUEUE_REASONS.has(t.reason) && requeues < REQUEUES) {
        requeues += 1;
        sessionStorage.removeItem(TICKET);
        announce("A player of that pairing was not yet known to the match service: queued again.");
        return queue(t.mode);
      }
      if (t.status === "failed" || t.status === "cancelled") break;
      await sleep(1000);
    }
    sessionStorage.removeItem(TICKET);
  }

  async function queue(mode) {
    try {
      const t = await eventually(() => post("/v1/queue", body(mode)), deckCodes, "Your deck is on its way to matchmaking…");
      showTicket(t);
      follow(t.ticket_id);
    } catch (err) {
      if (err.code === "ticket_already_open") return follow(err.details.ticket_id);
      mount(status, h("p", { class: "error", role: "alert" }, errorText(err), err.details?.problems ? `: ${err.details.problems.join("; ")}` : ""));
    }
  }

  async function cancel(t) {
    try {
      showTicket(await del(`/v1/queue/${t.ticket_id}`));
      sessionStorage.removeItem(TICKET);
    } catch (err) {
      announce(errorText(err), "error");
    }
  }

  function resume() {
    const open = sessionStorage.getItem(TICKET);
    if (open) follow(open);
    else mount(status, h("p", { class: "hint" }, "Not queued."));
  }

  return { queue, resume, stop: () => { stopped = true; } };
}

// Practice against the game's bots (`body`: the game and the bots' count); a practice match left
// unfinished is resumed. `deckCodes`: refusals that mean the deck economy published has not arrived.
export async function practice(body, game, deckCodes = []) {
  try {
    const m = await eventually(() => post("/v1/practice", body), deckCodes, "Your line is on its way to the match service…");
    location.hash = matchHref(game, m.match_id);
  } catch (err) {
    if (err.code === "practice_in_progress") {
      announce("You have a practice match in progress: resuming it.");
      location.hash = matchHref(game, err.details.match_id);
    } else announce(`${errorText(err)}${err.details?.problems ? `: ${err.details.problems.join("; ")}` : ""}`, "error");
  }
}
