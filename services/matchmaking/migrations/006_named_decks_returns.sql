-- Tickets name their deck (TicketOpened version 2: deck_id, deck_version) instead of listing its
-- cards, and the read models keep no deck list: the old columns stay (NOT NULL, written empty) for
-- the previous release's pods during a rollout or a rollback, which read them; nothing else does.
UPDATE {schema}.tickets SET deck = '{}' WHERE deck <> '{}';
ALTER TABLE {schema}.tickets ADD COLUMN IF NOT EXISTS deck_id TEXT;
ALTER TABLE {schema}.tickets ADD COLUMN IF NOT EXISTS deck_version INTEGER NOT NULL DEFAULT 0;
UPDATE {schema}.active_decks SET cards = '{}' WHERE cards <> '{}';
-- The version of economy's deck stream whose ActiveDeckChanged made a player's deck active.
ALTER TABLE {schema}.active_decks ADD COLUMN IF NOT EXISTS version INTEGER NOT NULL DEFAULT 0;
-- A paired ticket's first opponent: the previous ranked opponent once the match was created
-- (TicketMatched), not merely requested (a request refused and its tickets returned to waiting).
ALTER TABLE {schema}.tickets ADD COLUMN IF NOT EXISTS opponent_id TEXT;
-- A ticket returned to waiting (TicketReturned) is not paired again before this.
ALTER TABLE {schema}.tickets ADD COLUMN IF NOT EXISTS pair_after TIMESTAMPTZ;
