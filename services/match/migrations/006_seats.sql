-- Matches of 2 to 4 seats (the arena) and practice against several bots: every bot of a match, and
-- the humans still in it (a player who forfeited an arena match that goes on is no longer watched
-- for presence; NULL on rows written before: every player). One active deck per player and game
-- (ActiveDeckChanged.game: economy publishes line decks too; rows before are Arcana's).
ALTER TABLE {schema}.match_index ADD COLUMN IF NOT EXISTS bots TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE {schema}.match_index ADD COLUMN IF NOT EXISTS watched TEXT[];

ALTER TABLE {schema}.active_decks ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';
ALTER TABLE {schema}.active_decks DROP CONSTRAINT IF EXISTS active_decks_pkey;
ALTER TABLE {schema}.active_decks ADD PRIMARY KEY (player_id, game);
