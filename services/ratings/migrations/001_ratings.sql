-- The ratings service's read models.
-- ratings and rating_history: a projection of the rating-<player> streams, written in the same
-- transaction as every append and rebuildable (python -m libs.bus.rebuild --schema ratings
-- --projection services.ratings.projections:projection). usernames: from accounts'
-- PlayerRegistered (consumer), so the leaderboard can show names.
CREATE TABLE IF NOT EXISTS {schema}.ratings (
    player_id       TEXT        PRIMARY KEY,
    rating          INTEGER     NOT NULL,
    tier            TEXT        NOT NULL,
    highest_tier    TEXT        NOT NULL,
    wins            INTEGER     NOT NULL DEFAULT 0,
    losses          INTEGER     NOT NULL DEFAULT 0,
    version         INTEGER     NOT NULL,                  -- stream version applied
    updated_at      TIMESTAMPTZ NOT NULL
);

-- The leaderboard's order: rating descending, player id ascending (stable under ties).
CREATE INDEX IF NOT EXISTS ratings_leaderboard_idx ON {schema}.ratings (rating DESC, player_id ASC);

CREATE TABLE IF NOT EXISTS {schema}.rating_history (
    player_id       TEXT        NOT NULL,
    version         INTEGER     NOT NULL,
    match_id        TEXT        NOT NULL,
    result          TEXT        NOT NULL,                  -- win | loss
    before          INTEGER     NOT NULL,
    after           INTEGER     NOT NULL,
    delta           INTEGER     NOT NULL,
    tier            TEXT        NOT NULL,
    highest_tier    TEXT        NOT NULL,
    at              TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player_id, version),
    CONSTRAINT rating_history_match_key UNIQUE (player_id, match_id)
);

CREATE TABLE IF NOT EXISTS {schema}.usernames (
    player_id       TEXT        PRIMARY KEY,
    username        TEXT        NOT NULL
);
