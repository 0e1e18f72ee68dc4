-- Growing delays for failed log-ins (scope 'pair': subject = '<username> <address>'): a failed
-- guess at a username already over its failure limit makes that address wait until
-- blocked_until before its next try at that username. The owner, from another address, is not
-- held back. Rows whose window has passed are purged by accounts.purge_login_attempts.
ALTER TABLE {schema}.login_attempts ADD COLUMN IF NOT EXISTS blocked_until TIMESTAMPTZ;

CREATE INDEX IF NOT EXISTS login_attempts_window_start_idx ON {schema}.login_attempts (window_start);

-- Log out everywhere: tokens carry the version current when they were issued ("ver"); raising
-- it makes every older token invalid.
ALTER TABLE {schema}.players ADD COLUMN IF NOT EXISTS token_version INTEGER NOT NULL DEFAULT 1;

-- Log out one token: its id (jti) until it would have expired anyway.
CREATE TABLE IF NOT EXISTS {schema}.revoked_tokens (
    token_id        TEXT        PRIMARY KEY,
    player_id       UUID        NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL
);

CREATE INDEX IF NOT EXISTS revoked_tokens_expires_at_idx ON {schema}.revoked_tokens (expires_at);
