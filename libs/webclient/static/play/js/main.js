// The router: one view per hash route; a view may return a function that stops it (a long-poll).
import { del, session, whenUnauthorized } from "./api.js";
import { loadCatalog } from "./cards.js";
import { announce, errorText, h, mount } from "./ui.js";
import * as login from "./views/login.js";
import * as home from "./views/home.js";
import * as collection from "./views/collection.js";
import * as packs from "./views/packs.js";
import * as play from "./views/play.js";
import * as table from "./views/table.js";
import * as leaderboard from "./views/leaderboard.js";
import * as history from "./views/history.js";
import * as replay from "./views/replay.js";
import * as fight from "./views/fight.js";
import * as arena from "./views/arena.js";

const ROUTES = { home, collection, packs, play, match: table, fight, arena, leaderboard, history, replay };
const TITLES = {
  home: "Home", collection: "Collection", packs: "Packs", play: "Play", match: "Match",
  leaderboard: "Leaderboard", history: "History", replay: "Replay", login: "Log in", fight: "Line fight",
  arena: "Arcane Arena",
};
let stop = null;
let routed = 0; // the latest route: a slower, older view that finishes loading is stopped, not kept

async function route() {
  const mine = ++routed;
  if (stop) {
    stop();
    stop = null;
  }
  const [name, ...params] = location.hash.replace(/^#\/?/, "").split("/");
  const signedIn = Boolean(session.get());
  document.getElementById("nav").hidden = !signedIn;
  const view = signedIn ? ROUTES[name] || home : login;
  const key = signedIn ? (ROUTES[name] ? name : "home") : "login";
  document.title = `${TITLES[key]} · Arcana`;
  document.body.dataset.view = key;
  for (const a of document.querySelectorAll("#nav a"))
    a.toggleAttribute("aria-current", a.getAttribute("href") === `#/${key}`);
  const main = document.getElementById("main");
  mount(main, h("p", { class: "loading" }, "Loading…"));
  try {
    await loadCatalog();
    const stopper = (await view.render(main, ...params)) || null;
    if (mine === routed) stop = stopper;
    else if (stopper) stopper();
  } catch (err) {
    mount(main, h("p", { class: "error", role: "alert" }, errorText(err)));
  }
  main.focus({ preventScroll: true });
}

whenUnauthorized(() => {
  session.clear();
  announce("Your session ended: log in again.", "error");
  location.hash = "#/login";
  route();
});

document.getElementById("logout").addEventListener("click", async () => {
  try {
    await del("/v1/sessions/current");
  } catch {
    // logged out locally either way
  }
  session.clear();
  location.hash = "#/login";
});

window.addEventListener("hashchange", route);
route();
