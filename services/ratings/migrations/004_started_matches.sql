-- The ranked matches ratings saw start (match's MatchCreated on arcana.match.lifecycle): a MatchEnded
-- is rated only when its match is here with the same players (issue 34, finding 3: a forged result
-- for a match that never started is a dead letter, never rated).
CREATE TABLE IF NOT EXISTS {schema}.started_matches (
    match_id    TEXT        PRIMARY KEY,
    players     TEXT[]      NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
