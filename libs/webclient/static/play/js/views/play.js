// Play: queue for ranked or casual (status, waited time, the widening rating window), or practice
// against the bot. A ticket left open (a reload) is picked up again. A ticket failed because the match
// service had not yet heard of a player (a registration seconds old: `unknown_player`) is queued
// again at once (the players queue again, as the match service's rejection expects), a few times at
// most.
import { del, get, post } from "../api.js";
import { announce, errorText, h, mount, section } from "../ui.js";

const TICKET = "arcana.ticket";
const REQUEUE_REASONS = new Set(["unknown_player"]); // news of a registration still on its way
const REQUEUES = 3;

export async function render(root) {
  let timer = null;
  let stopped = false;
  let requeues = 0;
  const status = h("div", { id: "queue-status", "aria-live": "polite" });

  function showTicket(t) {
    const window = t.mode === "ranked" ? (t.window == null ? "any rating" : `±${t.window} around ${t.rating}`) : "first come, first served";
    mount(
      status,
      h("p", { class: "queue-line" }, h("strong", {}, `${t.mode} queue: `), h("span", { id: "ticket-status" }, t.status)),
      h("p", {}, "Waited ", h("strong", { id: "waited" }, `${Math.floor(t.waited_seconds)} s`), " · window ", h("strong", { id: "window" }, window)),
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
        location.hash = `#/match/${t.match_id}`;
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
      const t = await post("/v1/queue", { mode });
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

  async function practice() {
    try {
      const m = await post("/v1/practice", {});
      location.hash = `#/match/${m.match_id}`;
    } catch (err) {
      if (err.code === "practice_in_progress") {
        announce("You have a practice match in progress: resuming it.");
        location.hash = `#/match/${err.details.match_id}`;
      } else announce(errorText(err), "error");
    }
  }

  mount(
    root,
    h("h1", { class: "page-title" }, "Play"),
    h("div", { class: "grid" },
      section("Ranked",
        h("p", {}, "Paired by rating: ±50 at first, widening by 25 a second you wait. Wins and losses move your rating."),
        h("button", { type: "button", id: "queue-ranked", onclick: () => queue("ranked") }, "Queue ranked")),
      section("Casual",
        h("p", {}, "Paired with the next player waiting. Pays coins and XP, no rating."),
        h("button", { type: "button", id: "queue-casual", onclick: () => queue("casual") }, "Queue casual")),
      section("Practice",
        h("p", {}, "Against the bot, at once. Pays nothing; good for learning the cards."),
        h("button", { type: "button", id: "practice", class: "secondary", onclick: practice }, "Practice vs bot"))),
    section("Queue", status),
  );
  const open = sessionStorage.getItem(TICKET);
  if (open) follow(open);
  else mount(status, h("p", { class: "hint" }, "Not queued."));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
