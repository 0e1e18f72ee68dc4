// Register and log in (POST /v1/accounts, POST /v1/sessions).
import { api, session } from "../api.js";
import { announce, errorText, h, mount } from "../ui.js";

export async function render(root) {
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 24, pattern: "[A-Za-z0-9_]+" });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 8, maxlength: 128 });
  const message = h("p", { class: "error", role: "alert" });

  async function submit(kind) {
    message.textContent = "";
    const body = { username: username.value.trim(), password: password.value };
    try {
      if (kind === "register") await api("POST", "/v1/accounts", body);
      const s = await api("POST", "/v1/sessions", body);
      session.set({ token: s.token, player_id: s.player_id, username: body.username, expires_at: s.expires_at });
      announce(kind === "register" ? `Welcome to Arcana, ${body.username}!` : `Welcome back, ${body.username}.`);
      location.hash = "#/home";
    } catch (err) {
      message.textContent = errorText(err);
    }
  }

  const form = h(
    "form",
    { class: "panel login", onsubmit: (e) => { e.preventDefault(); submit("login"); } },
    h("h1", {}, "Arcana"),
    h("p", { class: "lead" }, "A card game of units, spells and the twenty-two arcana. Log in or create a player."),
    h("label", { for: "username" }, "Username"),
    username,
    h("p", { class: "hint", id: "username-hint" }, "3–24 letters, digits or _"),
    h("label", { for: "password" }, "Password"),
    password,
    h("p", { class: "hint" }, "At least 8 characters"),
    message,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", id: "login" }, "Log in"),
      h("button", { type: "button", id: "register", class: "secondary", onclick: () => form.reportValidity() && submit("register") }, "Create player"),
    ),
  );
  username.setAttribute("aria-describedby", "username-hint");
  mount(root, form);
  username.focus();
}
