-- Matches of several games (libs.games): each index row names its game; a running match is one
-- whose status is neither ended nor rejected (each game names its own phases).
ALTER TABLE {schema}.match_index ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';

DROP INDEX IF EXISTS {schema}.match_index_running_idx;
CREATE INDEX IF NOT EXISTS match_index_live_idx
    ON {schema}.match_index (deadline) WHERE status NOT IN ('ended', 'rejected');
