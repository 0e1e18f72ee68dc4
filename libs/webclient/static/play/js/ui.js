// DOM helpers: elements are built with h(), never from HTML strings (no markup injection).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function mount(root, ...children) {
  root.replaceChildren();
  append(root, children);
}

let statusTimer = null;
export function announce(text, kind = "info") {
  const el = document.getElementById("status");
  el.textContent = text;
  el.dataset.kind = kind;
  el.classList.add("shown");
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => el.classList.remove("shown"), kind === "error" ? 8000 : 4000);
}

export function errorText(err) {
  if (err && err.code) return `${err.message} (${err.code})`;
  return "The server could not be reached. Check your connection and try again.";
}

export function section(title, ...children) {
  const id = "h-" + title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return h("section", { class: "panel", "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

// A labelled number; `id` names the value itself (tests and screen readers read it alone).
export function stat(label, value, { id, ...attrs } = {}) {
  return h("div", { class: "stat", ...attrs }, h("span", { class: "stat-label" }, label), h("strong", { id }, value));
}

export function when(iso) {
  return new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

export function short(id) {
  return String(id).slice(0, 8);
}

// What a table posts for `command`, chosen on the table at `version`: a move names that version, so a
// move chosen on a table that has changed since is refused (409) instead of played; a concede stands
// whatever the table shows and goes without it, so a move made at the same moment (the opponent's, a
// bot's, a timeout) cannot turn it into an unseen version conflict. Shared by both tables.
export function commandBody(command, version) {
  return command.type === "concede" ? command : { ...command, expected_version: version };
}

// Concede in two clicks: the first turns the button into its confirmation (`s.conceding`, for 4 s,
// `draw` redraws it), the second calls `act`. Shared by the Arcana and the arena tables.
export function twoClickConcede(s, draw, act) {
  return () => {
    if (!s.conceding) {
      s.conceding = true;
      draw();
      setTimeout(() => { s.conceding = false; if (!s.stopped) draw(); }, 4000);
      return;
    }
    s.conceding = false;
    act();
  };
}
