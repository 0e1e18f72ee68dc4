// The provably fair pack, re-derived in the browser from the documented function
// (services/economy/README.md, "Provably fair packs"): HMAC-SHA256 keyed with the revealed server
// seed over "<client_seed>:<pack_number>:<slot>:<purpose>", the first 8 bytes big-endian, modulo n.
import { RARITIES } from "./cards.js";

const ODDS = { common: 50, uncommon: 28, rare: 14, epic: 6, legendary: 2 };
const RARE_OR_BETTER = ["rare", "epic", "legendary"];
const PACK_SIZE = 5;
const PITY_PACKS = 20;
const encoder = new TextEncoder();

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

export async function sha256Hex(text) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

async function drawer(serverSeed, clientSeed, packNumber) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (slot, purpose, n) => {
    const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${clientSeed}:${packNumber}:${slot}:${purpose}`));
    const first8 = new DataView(mac).getBigUint64(0, false);
    return Number(first8 % BigInt(n));
  };
}

function pick(roll, order) {
  let bound = 0;
  for (const rarity of order) {
    bound += ODDS[rarity];
    if (roll < bound) return rarity;
  }
  throw new Error(`roll ${roll} beyond the odds`);
}

// The five card ids of the pack; `catalog` is the list of cards from GET /v1/catalog.
export async function openPack(serverSeed, clientSeed, packNumber, pityCounter, catalog) {
  const draw = await drawer(serverSeed, clientSeed, packNumber);
  const rarities = [];
  for (let slot = 0; slot < PACK_SIZE; slot++) rarities.push(pick(await draw(slot, "rarity", 100), RARITIES));
  if (!rarities.some((r) => RARE_OR_BETTER.includes(r))) {
    const total = RARE_OR_BETTER.reduce((n, r) => n + ODDS[r], 0);
    rarities[PACK_SIZE - 1] = pick(await draw(PACK_SIZE - 1, "guarantee", total), RARE_OR_BETTER);
  }
  if (pityCounter >= PITY_PACKS - 1 && !rarities.includes("legendary")) rarities[PACK_SIZE - 1] = "legendary";
  const byRarity = (r) => catalog.filter((c) => c.rarity === r).map((c) => c.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const cards = [];
  for (const [slot, rarity] of rarities.entries()) {
    const ids = byRarity(rarity);
    cards.push(ids[await draw(slot, "card", ids.length)]);
  }
  return cards;
}

// Every check of one opening: the commitment shown before is the hash of the revealed seed, and
// the cards are the function's output.
export async function verifyPack(pack, commitmentBefore, catalog) {
  const hash = await sha256Hex(pack.server_seed);
  const expected = await openPack(pack.server_seed, pack.client_seed, pack.pack_number, pack.pity_before, catalog);
  const got = pack.cards.map((c) => c.card_id);
  return {
    commitment: hash === commitmentBefore,
    hash,
    cards: expected.length === got.length && expected.every((id, i) => id === got[i]),
    expected,
  };
}
