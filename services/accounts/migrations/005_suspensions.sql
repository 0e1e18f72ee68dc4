-- Operator suspensions (issue 34, point 5; docs/operations.md, "Operator actions"): a row while the
-- account is suspended (no log-in; its tokens were revoked by raising players.token_version). The
-- events (AccountSuspended / AccountRestored, with the OperatorActed of the `audit` stream) are the
-- record; this row is what a log-in reads. It goes with the account when the account is deleted.
CREATE TABLE IF NOT EXISTS {schema}.suspensions (
    player_id     UUID        PRIMARY KEY REFERENCES {schema}.players (player_id) ON DELETE CASCADE,
    suspended_at  TIMESTAMPTZ NOT NULL
);
