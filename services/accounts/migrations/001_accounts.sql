-- Player accounts (the credentials write model). Each row is written in the same transaction as
-- the player's PlayerRegistered event (stream player-<id>).
CREATE TABLE IF NOT EXISTS {schema}.players (
    player_id       UUID        PRIMARY KEY,
    username        TEXT        NOT NULL CHECK (username ~ '^[a-z0-9_]{3,24}$'),
    password_hash   TEXT        NOT NULL,                  -- scrypt$N$r$p$salt$hash
    created_at      TIMESTAMPTZ NOT NULL
);

CREATE UNIQUE INDEX IF NOT EXISTS players_username_key ON {schema}.players (lower(username));

-- Log-in attempt counters for throttling, one fixed window per (scope, subject):
-- scope 'username' (subject = lower-case username) or 'ip' (subject = client address).
CREATE TABLE IF NOT EXISTS {schema}.login_attempts (
    scope           TEXT        NOT NULL,
    subject         TEXT        NOT NULL,
    window_start    TIMESTAMPTZ NOT NULL,
    attempts        INTEGER     NOT NULL,
    PRIMARY KEY (scope, subject)
);
