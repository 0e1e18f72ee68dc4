// Home: wallet, streak and what it paid today, quests with the swap, the day's arcana, the pass, rating.
import { get, post } from "../api.js";
import { describeArcanum } from "../cards.js";
import { gamePicker, matchHref } from "../games.js";
import { announce, errorText, h, mount, section, stat } from "../ui.js";

const today = () => new Date().toISOString().slice(0, 10);

// A new player's wallet, streak and rating are opened by the services as they hear of the
// registration (a moment later): until then those reads answer 404, and home waits.
async function settled(read, root) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (err.status !== 404 || attempt >= 40) throw err;
      if (attempt === 2) mount(root, h("p", { class: "loading" }, "Setting up your account…"));
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export async function render(root) {
  const [wallet, history, streak, quests, arcana, pass, rating, active] = await settled(() => Promise.all([
    get("/v1/wallet"),
    get("/v1/wallet/history?limit=50"),
    get("/v1/streak"),
    get("/v1/quests"),
    get("/v1/arcana/today"),
    get("/v1/pass"),
    get("/v1/ratings/me"),
    get("/v1/matches?active=true"),
  ]), root);
  const paidToday = history.entries.filter((e) => e.reason === "streak" && e.occurred_at.startsWith(streak.day || today()));
  const streakPaid = paidToday.reduce((n, e) => n + e.amount, 0);
  const a = arcana.arcana;

  const questList = h("ul", { class: "quests", id: "quests" });
  function showQuests(q) {
    mount(
      questList,
      q.quests.map((quest) =>
        h(
          "li",
          { class: quest.completed ? "quest done" : "quest", "data-quest": quest.id },
          h("div", { class: "quest-head" }, h("strong", {}, quest.title), h("span", { class: `tag ${quest.difficulty}` }, quest.difficulty)),
          h("progress", { max: quest.target, value: quest.progress, "aria-label": `${quest.title}: ${quest.progress} of ${quest.target}` }),
          h("div", { class: "quest-foot" },
            h("span", {}, `${quest.progress} / ${quest.target} · ${quest.coins} coins, ${quest.xp} XP`),
            q.swap_available && !quest.completed
              ? h("button", { type: "button", class: "small secondary", onclick: () => swap(quest) }, "Swap")
              : quest.completed ? h("span", { class: "ok" }, "✓ done") : null),
        ),
      ),
    );
  }
  async function swap(quest) {
    try {
      showQuests(await post(`/v1/quests/${quest.id}/swap`));
      announce(`"${quest.title}" swapped for another ${quest.difficulty} quest. No more swaps today.`);
    } catch (err) {
      announce(errorText(err), "error");
    }
  }
  showQuests(quests);

  const resume = active.matches.length
    ? h("p", { class: "callout" }, "A match is waiting for you: ",
        h("a", { href: matchHref(active.matches[0].game, active.matches[0].match_id), id: "resume" }, `resume your ${active.matches[0].mode} match`))
    : null;

  mount(
    root,
    h("h1", { class: "page-title" }, "Home"),
    resume,
    gamePicker(null),
    h("div", { class: "grid" },
      section("Wallet",
        h("div", { class: "stats" },
          stat("Coins", wallet.coins, { id: "coins" }),
          stat("Dust", wallet.dust, { id: "dust" }),
          stat("Free packs", wallet.free_packs, { id: "free-packs" }),
          stat("Pity", `${wallet.pity_counter} / 20`, { id: "pity", title: "packs since your last legendary; the 20th has one" })),
        h("p", {}, h("a", { href: "#/packs" }, "Open a pack →"))),
      section("Streak",
        h("div", { class: "stats" },
          stat("Day", streak.streak_day ?? 0, { id: "streak-day" }),
          stat("Today", streak.kept_today ? "kept" : "not yet"),
          stat("Paid today", streakPaid || !streak.kept_today ? `${streakPaid} coins` : "on its way", { id: "streak-paid" })),
        h("p", { class: "hint" }, streak.forgiveness?.available
          ? "One missed day can be forgiven."
          : `Forgiveness again on ${streak.forgiveness?.next_available_on ?? "—"}.`),
        h("ol", { class: "streak-days", "aria-label": "the last 14 days" },
          streak.history.slice(-14).map((d) =>
            h("li", { class: d.kept ? "kept" : d.forgiven ? "forgiven" : "missed", title: `${d.day}: ${d.kept ? "kept" : d.forgiven ? "forgiven" : "missed"}` },
              h("span", { class: "sr-only" }, `${d.day} ${d.kept ? "kept" : "missed"}`))))),
      section("Today's quests", questList,
        h("p", { class: "hint" }, quests.swap_available ? "You may swap one quest today." : "Today's swap is used.")),
      section("Ascendant arcana",
        h("p", { class: "arcana-today", id: "arcana-today" },
          h("span", { class: "arcana-number" }, a.number), " ", h("strong", {}, a.name)),
        h("p", {}, `${a.phase} arcana · ${describeArcanum(a)}`)),
      section("Season pass",
        h("p", {}, pass.season.name),
        h("div", { class: "stats" }, stat("Level", pass.level, { id: "pass-level" }), stat("XP", `${pass.xp_into_level} / ${pass.xp_per_level}`)),
        h("progress", { max: pass.xp_per_level, value: pass.xp_into_level, "aria-label": "XP into this level" })),
      section("Rating",
        h("div", { class: "stats" },
          stat("Rating", rating.rating, { id: "rating" }),
          stat("Tier", rating.tier, { id: "tier" }),
          stat("Highest", rating.highest_tier),
          stat("Record", `${rating.wins}–${rating.losses}`)),
        h("p", {}, h("a", { href: "#/play" }, "Play a match →")))),
  );
}
