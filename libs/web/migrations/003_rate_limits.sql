-- Per-player rate limits of a service's write endpoints (libs/kit/limits.py): one fixed-window
-- counter per (action, player). Rows whose window ended are purged by the purge policy.
CREATE TABLE IF NOT EXISTS {schema}.rate_limits (
    action          TEXT        NOT NULL,              -- e.g. 'deck_write', 'queue'
    subject         TEXT        NOT NULL,              -- the player id
    window_start    TIMESTAMPTZ NOT NULL,
    attempts        INTEGER     NOT NULL,
    PRIMARY KEY (action, subject)
);

CREATE INDEX IF NOT EXISTS rate_limits_window_start_idx ON {schema}.rate_limits (window_start);
