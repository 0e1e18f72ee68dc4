-- The line (the second game): shards in the wallet and the ledger, the line's collection and lines
-- (read models of the stream line-<player>; projection "economy", services/economy/projections.py).
-- Additive only: the previous release's code still reads and writes every table.

ALTER TABLE {schema}.wallets ADD COLUMN IF NOT EXISTS shards INTEGER NOT NULL DEFAULT 0 CHECK (shards >= 0);

ALTER TABLE {schema}.ledger DROP CONSTRAINT IF EXISTS ledger_currency_check;
ALTER TABLE {schema}.ledger ADD CONSTRAINT ledger_currency_check
    CHECK (currency IN ('coins', 'dust', 'free_packs', 'shards'));

-- The line's collection and saved lines (at most five per player, the active one that of the last
-- ActiveDeckChanged of game "line"): the same columns and keys as Arcana's.
CREATE TABLE IF NOT EXISTS {schema}.line_collection (LIKE {schema}.collection INCLUDING ALL);
CREATE TABLE IF NOT EXISTS {schema}.line_decks (LIKE {schema}.decks INCLUDING ALL);
