-- When the pairing pass last ran and when it last came back from an outage (a gap of over 10 s
-- between passes): a waiting ticket's silence counts from the later of its last poll and that
-- return, so a restart of matchmaking never cancels the queue as abandoned. One row per pass lock.
CREATE TABLE IF NOT EXISTS {schema}.pairing_runs (
    lock_key        TEXT        PRIMARY KEY,
    last_pass_at    TIMESTAMPTZ NOT NULL,
    resumed_at      TIMESTAMPTZ
);
