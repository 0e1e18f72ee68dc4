// Packs: the commitment before, the opening with a reveal, dust for duplicates, the seed after, and
// a "verify" that re-derives the five cards in the browser.
import { get, post } from "../api.js";
import { card, cardFace, loadCatalog } from "../cards.js";
import { verifyPack } from "../fair.js";
import { announce, errorText, h, mount, section, stat } from "../ui.js";

function randomSeed() {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function render(root) {
  let wallet = await get("/v1/wallet");
  const seedInput = h("input", { id: "client-seed", value: randomSeed(), maxlength: 64, "aria-describedby": "seed-hint" });
  const before = h("div", { id: "before" });
  const result = h("div", { id: "pack-result", "aria-live": "polite" });

  function drawBefore() {
    mount(
      before,
      h("div", { class: "stats" },
        stat("Coins", wallet.coins, { id: "coins" }),
        stat("Free packs", wallet.free_packs, { id: "free-packs" }),
        stat("Pity", `${wallet.pity_counter} / 20`, { id: "pity" }),
        stat("Next pack", `#${wallet.next_pack.pack_number}`)),
      h("p", {}, "Commitment to the next pack's server seed (SHA-256):"),
      h("code", { class: "hash", id: "commitment" }, wallet.next_pack.commitment),
    );
  }

  async function open() {
    const commitmentBefore = wallet.next_pack.commitment;
    try {
      const pack = await post("/v1/packs", { client_seed: seedInput.value || randomSeed() });
      wallet = await get("/v1/wallet");
      drawBefore();
      showPack(pack, commitmentBefore);
      seedInput.value = randomSeed();
    } catch (err) {
      announce(errorText(err), "error");
    }
  }

  function showPack(pack, commitmentBefore) {
    const dust = pack.cards.reduce((n, c) => n + c.dust, 0);
    const verdict = h("div", { id: "verify-result", "aria-live": "polite" });
    const verify = async () => {
      const { list } = await loadCatalog();
      const v = await verifyPack(pack, commitmentBefore, list);
      mount(verdict,
        h("p", { class: v.commitment ? "ok" : "bad", id: "verify-commitment" },
          v.commitment ? "✓ SHA-256 of the revealed seed equals the commitment shown before the opening" : `✗ SHA-256 of the seed is ${v.hash}, not the commitment shown`),
        h("p", { class: v.cards ? "ok" : "bad", id: "verify-cards" },
          v.cards ? "✓ The five cards re-derived in this browser are the cards you got" : `✗ Re-derived: ${v.expected.map((id) => card(id).name).join(", ")}`));
    };
    mount(
      result,
      section(`Pack #${pack.pack_number}`,
        h("p", {}, `Paid with ${pack.paid_with === "free_pack" ? "a free pack" : "100 coins"}.`, dust ? ` Duplicates beyond the deck limit became ${dust} dust.` : ""),
        h("ol", { class: "reveal", id: "pack-cards" },
          pack.cards.map((c, i) =>
            h("li", { class: "flip", style: null, "data-slot": i, "data-card": c.card_id },
              cardFace(c.card_id),
              c.dust ? h("p", { class: "dust-note" }, `duplicate → +${c.dust} dust`) : h("p", { class: "dust-note new" }, "added")))),
        h("dl", { class: "proof" },
          h("dt", {}, "Commitment shown before"), h("dd", {}, h("code", { class: "hash" }, commitmentBefore)),
          h("dt", {}, "Server seed (revealed)"), h("dd", {}, h("code", { class: "hash", id: "server-seed" }, pack.server_seed)),
          h("dt", {}, "Client seed"), h("dd", {}, h("code", {}, pack.client_seed)),
          h("dt", {}, "Pack number · pity before"), h("dd", {}, `${pack.pack_number} · ${pack.pity_before}`),
          h("dt", {}, "Next commitment"), h("dd", {}, h("code", { class: "hash" }, pack.next_commitment))),
        h("button", { type: "button", id: "verify", onclick: verify }, "Verify this pack"),
        verdict),
    );
    result.querySelectorAll(".flip").forEach((el, i) => el.style.setProperty("--delay", `${i * 180}ms`));
    announce(`Pack #${pack.pack_number}: ${pack.cards.map((c) => card(c.card_id).name).join(", ")}.`);
  }

  drawBefore();
  mount(
    root,
    h("h1", { class: "page-title" }, "Packs"),
    h("div", { class: "grid two" },
      section("Open a pack",
        before,
        h("label", { for: "client-seed" }, "Your client seed"),
        seedInput,
        h("p", { class: "hint", id: "seed-hint" }, "Mixed into the draw with the server's committed seed, so neither side alone decides the cards. A free pack is used before coins (100)."),
        h("button", { type: "button", id: "open-pack", onclick: open }, "Open pack")),
      section("How to check a pack",
        h("p", {}, "Before the opening you see the SHA-256 of the server seed. The opening reveals the seed; the five cards are a pure function of (server seed, client seed, pack number, pity counter): HMAC-SHA256 draws for each slot's rarity (50/28/14/6/2 %), a rare-or-better guarantee, the pity legendary on the 20th pack, then a card of that rarity."),
        h("p", {}, "“Verify” re-runs that function here in your browser with the Web Crypto API."))),
    result,
  );
}
