-- Public display names (issue 17, finding 11): what other players see (leaderboards), separate
-- from the log-in name. Older accounts get the default of libs.contracts.default_display_name
-- ('Player-' and the first 12 hex digits of the player id). Unique case-insensitively, so no one
-- can take another player's name. Nullable (expand only: the previous release inserts players
-- without it); a NULL reads as the default (store._COLUMNS).
ALTER TABLE {schema}.players ADD COLUMN IF NOT EXISTS display_name TEXT;
UPDATE {schema}.players SET display_name = 'Player-' || substr(replace(player_id::text, '-', ''), 1, 12)
    WHERE display_name IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS players_display_name_key ON {schema}.players (lower(display_name));
