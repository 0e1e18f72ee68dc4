// Following a match as it moves: its stream (Server-Sent Events through EventSource) while the browser
// can open it, the /events long-poll as the fallback. Shared by the Arcana table and the arena table:
// `ctx` holds the match id, the page's state `s` (version, legal, view, stopped, offline, source),
// its AbortController, and its addEvents, refresh and setOffline.
import { ApiError, get, post } from "./api.js";

const WAIT = 25;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Events arrive on the match's stream (Server-Sent Events) while the browser can open it; the
// long-poll stays the fallback: no EventSource, or a stream that never opened three times running.
export async function watchMatch(ctx) {
  if (typeof EventSource === "function" && await openStream(ctx)) return;
  if (!ctx.s.stopped) pollEvents(ctx);
}

// The connection banner: lost (reconnecting) or back (then the match is read again). Once the page
// has stopped following the match (it ended), a closing stream is no lost connection: `false` hides it.
export function offlineBanner(banner, s, refresh) {
  return (offline) => {
    if (s.stopped) {
      s.offline = false;
      banner.className = "banner";
      return;
    }
    s.offline = offline;
    if (offline) {
      banner.textContent = "Connection lost: reconnecting…";
      banner.className = "banner bad";
    } else {
      banner.textContent = "Reconnected.";
      banner.className = "banner ok";
      setTimeout(() => { if (!s.offline) banner.className = "banner"; }, 3000);
      refresh().catch(() => {});
    }
  };
}

// The stream: each visible event, then a "state" frame (version, awaiting, legal_commands). The
// browser resumes a dropped stream by itself (Last-Event-ID); a refused one (its ticket expired,
// the server restarting) is opened again here with a new ticket, after the version on screen.
// Resolves true once the match is over or the page left, false to fall back to the long-poll.
function openStream({ matchId, s, controller, addEvents, refresh, setOffline }) {
  return new Promise((resolve) => {
    let batch = [];
    let queue = Promise.resolve();
    let opened = false;
    let failures = 0;
    let backoff = 1000;
    const retry = () => {
      if (s.stopped) return resolve(true);
      setOffline(true);
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
    const onState = async (state) => {
      const events = batch;
      batch = [];
      const stale = !events.length && (state.version > s.version || (state.legal_commands.length > 0) !== (s.legal.length > 0));
      s.version = Math.max(s.version, state.version);
      if (events.length) addEvents(events, true);
      if (!events.length && !stale) return;
      await refresh().catch(() => {});
      if (events.length) setTimeout(() => { s.fresh.clear(); }, 1200);
    };
    async function connect() {
      if (s.stopped) return resolve(true);
      let ticket;
      try {
        ticket = (await post(`/v1/matches/${matchId}/stream-tickets`, undefined, { signal: controller.signal, idempotent: false })).ticket;
      } catch (err) {
        return retry();
      }
      const source = new EventSource(`/v1/matches/${matchId}/stream?after=${s.version}&ticket=${encodeURIComponent(ticket)}`);
      s.source = source;
      source.onopen = () => {
        opened = true;
        failures = 0;
        backoff = 1000;
        if (s.offline) setOffline(false);
      };
      source.onmessage = (m) => { batch.push(JSON.parse(m.data)); };
      source.addEventListener("state", (m) => {
        const state = JSON.parse(m.data);
        queue = queue.then(() => onState(state)).then(() => {
          if (s.view?.phase === "ended" || s.stopped) {
            source.close();
            resolve(true);
          }
        });
      });
      source.onerror = () => {
        if (s.stopped) {
          source.close();
          return resolve(true);
        }
        if (source.readyState === EventSource.CONNECTING) return setOffline(true); // the browser retries
        source.close();
        if (!opened && ++failures >= 3) return resolve(false);
        retry();
      };
    }
    connect();
  });
}

async function pollEvents({ matchId, s, controller, addEvents, refresh, setOffline }) {
  let backoff = 1000;
  while (!s.stopped) {
    try {
      const r = await get(`/v1/matches/${matchId}/events?after=${s.version}&wait=${WAIT}`, { signal: controller.signal });
      if (s.offline) setOffline(false);
      backoff = 1000;
      const stale = !r.events.length && (r.version > s.version || (r.legal_commands.length > 0) !== (s.legal.length > 0));
      if (stale) {
        // Nothing visible arrived, yet the match moved (a hidden event) or the server's legal moves
        // differ from the page's (a read that raced a move): read the match again.
        s.version = Math.max(s.version, r.version);
        await refresh();
        if (s.view.phase === "ended") return;
      }
      if (r.events.length) {
        s.version = Math.max(s.version, r.version);
        addEvents(r.events, true);
        await refresh();
        if (s.view.phase === "ended") return;
        setTimeout(() => { s.fresh.clear(); }, 1200);
      }
    } catch (err) {
      if (s.stopped) return;
      if (err instanceof ApiError && err.status === 429) await sleep(2000);
      else {
        setOffline(true);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 8000);
      }
    }
  }
}
