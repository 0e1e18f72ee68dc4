-- The match service's read models. Both are derived data: match_index is a projection of the
-- match streams (rebuildable: python -m libs.bus.rebuild --schema match
-- --projection services.match.projections:projection); match_presence records when each player
-- last made a request to a match (requests are not events; presence changes become events).
CREATE TABLE IF NOT EXISTS {schema}.match_index (
    match_id        UUID        PRIMARY KEY,
    mode            TEXT        NOT NULL,                  -- ranked | casual | practice | admin
    players         TEXT[]      NOT NULL,
    bot             TEXT,                                  -- the bot's player id (practice)
    status          TEXT        NOT NULL,                  -- created | mulligan | playing | ended | rejected
    version         INTEGER     NOT NULL,                  -- stream version applied
    turn            INTEGER     NOT NULL DEFAULT 0,
    active_player   TEXT,
    awaiting        TEXT[]      NOT NULL DEFAULT '{}',     -- players the timer waits for
    deadline        TIMESTAMPTZ,                           -- mulligan / turn deadline
    disconnected    JSONB       NOT NULL DEFAULT '{}',     -- player id -> disconnected since (ISO)
    winner          TEXT,
    reason          TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);

CREATE INDEX IF NOT EXISTS match_index_running_idx
    ON {schema}.match_index (deadline) WHERE status IN ('created', 'mulligan', 'playing');
CREATE INDEX IF NOT EXISTS match_index_players_idx ON {schema}.match_index USING gin (players);

CREATE TABLE IF NOT EXISTS {schema}.match_presence (
    match_id        UUID        NOT NULL,
    player_id       TEXT        NOT NULL,
    last_seen       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (match_id, player_id)
);
