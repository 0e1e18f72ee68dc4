-- Every game's ladder in the same two read models, keyed by the game (its offer says whether it has a
-- ladder and by which system: libs.games.offer), so a new game needs no migration: ratings and
-- rating_history get a `game` column (rows so far: 'arcana'), and the line's rows are copied in from
-- line_ratings and line_rating_history, which are no longer read or written and are dropped by a later
-- release (expand, then contract: docs/upgrading.md).
ALTER TABLE {schema}.ratings ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';
ALTER TABLE {schema}.ratings DROP CONSTRAINT IF EXISTS ratings_pkey;
ALTER TABLE {schema}.ratings ADD PRIMARY KEY (game, player_id);
DROP INDEX IF EXISTS {schema}.ratings_leaderboard_idx;
CREATE INDEX IF NOT EXISTS ratings_game_leaderboard_idx ON {schema}.ratings (game, rating DESC, player_id ASC);

ALTER TABLE {schema}.rating_history ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';
ALTER TABLE {schema}.rating_history DROP CONSTRAINT IF EXISTS rating_history_pkey;
ALTER TABLE {schema}.rating_history ADD PRIMARY KEY (game, player_id, version);
ALTER TABLE {schema}.rating_history DROP CONSTRAINT IF EXISTS rating_history_match_key;
ALTER TABLE {schema}.rating_history ADD CONSTRAINT rating_history_match_key UNIQUE (game, player_id, match_id);

INSERT INTO {schema}.ratings (game, player_id, rating, tier, highest_tier, wins, losses, version, updated_at)
    SELECT 'line', player_id, rating, tier, highest_tier, wins, losses, version, updated_at
    FROM {schema}.line_ratings
    ON CONFLICT (game, player_id) DO NOTHING;
INSERT INTO {schema}.rating_history
    (game, player_id, version, match_id, result, before, after, delta, tier, highest_tier, at, reason)
    SELECT 'line', player_id, version, match_id, result, before, after, delta, tier, highest_tier, at, reason
    FROM {schema}.line_rating_history
    ON CONFLICT DO NOTHING;
