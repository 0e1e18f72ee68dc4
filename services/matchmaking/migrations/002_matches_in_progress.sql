-- The unfinished ranked and casual matches of each player, from match's lifecycle events
-- (MatchCreated adds, MatchEnded removes): a player listed here cannot queue (409 match_in_progress).
CREATE TABLE IF NOT EXISTS {schema}.matches_in_progress (
    player_id       TEXT        NOT NULL,
    match_id        TEXT        NOT NULL,
    PRIMARY KEY (player_id, match_id)
);
CREATE INDEX IF NOT EXISTS matches_in_progress_match_idx ON {schema}.matches_in_progress (match_id);
