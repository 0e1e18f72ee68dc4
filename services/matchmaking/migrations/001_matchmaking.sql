-- The matchmaking service's read models.
-- tickets and last_opponents: a projection of the ticket-<id> streams, written in the same
-- transaction as every append and rebuildable (python -m libs.bus.rebuild --schema matchmaking
-- --projection services.matchmaking.projections:projection). The partial unique index is what
-- enforces one open ticket per player, even for two requests at once.
CREATE TABLE IF NOT EXISTS {schema}.tickets (
    ticket_id       TEXT        PRIMARY KEY,
    player_id       TEXT        NOT NULL,
    mode            TEXT        NOT NULL,                  -- ranked | casual
    rating          INTEGER     NOT NULL,
    deck            TEXT[]      NOT NULL,
    status          TEXT        NOT NULL,                  -- waiting | paired | matched | cancelled | failed
    opened_at       TIMESTAMPTZ NOT NULL,
    paired_at       TIMESTAMPTZ,                           -- when the match was requested
    request_id      TEXT,
    match_id        TEXT,
    version         INTEGER     NOT NULL
);

CREATE UNIQUE INDEX IF NOT EXISTS tickets_one_open_per_player
    ON {schema}.tickets (player_id) WHERE status IN ('waiting', 'paired');
CREATE INDEX IF NOT EXISTS tickets_waiting_idx ON {schema}.tickets (mode, opened_at) WHERE status = 'waiting';
CREATE INDEX IF NOT EXISTS tickets_paired_idx ON {schema}.tickets (paired_at) WHERE status = 'paired';
CREATE INDEX IF NOT EXISTS tickets_request_idx ON {schema}.tickets (request_id) WHERE request_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS {schema}.last_opponents (  -- each player's previous ranked opponent
    player_id       TEXT        PRIMARY KEY,
    opponent_id     TEXT        NOT NULL
);

-- When a ticket's player last asked about it (polls are requests, not events; abandonment is).
CREATE TABLE IF NOT EXISTS {schema}.ticket_polls (
    ticket_id       TEXT        PRIMARY KEY,
    last_polled_at  TIMESTAMPTZ NOT NULL
);

-- Other services' facts matchmaking needs: economy's active decks, ratings' current ratings.
CREATE TABLE IF NOT EXISTS {schema}.active_decks (
    player_id       TEXT        PRIMARY KEY,
    deck_id         TEXT,
    cards           TEXT[]      NOT NULL,
    legal           BOOLEAN     NOT NULL,
    problems        TEXT[]      NOT NULL DEFAULT '{}',
    position        BIGINT      NOT NULL                   -- the economy event's position: newest wins
);

CREATE TABLE IF NOT EXISTS {schema}.player_ratings (
    player_id       TEXT        PRIMARY KEY,
    rating          INTEGER     NOT NULL,
    version         INTEGER     NOT NULL                   -- the rating stream's version: newest wins
);
