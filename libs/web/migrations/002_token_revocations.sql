-- Revoked sessions as every service but accounts knows them (libs/web/sessions.py): fed by the
-- kit's subscription to accounts' SessionRevoked / AllSessionsRevoked (libs/kit/sessions.py) and
-- read through the web app's RevocationCache. Accounts keeps its own (players, revoked_tokens).
CREATE TABLE IF NOT EXISTS {schema}.token_revocations (
    token_id        TEXT        PRIMARY KEY,           -- the logged-out token's jti
    player_id       UUID        NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL               -- then the token is refused anyway: purged
);

CREATE INDEX IF NOT EXISTS token_revocations_player_idx ON {schema}.token_revocations (player_id);
CREATE INDEX IF NOT EXISTS token_revocations_expires_idx ON {schema}.token_revocations (expires_at);

-- Log-out-everywhere: tokens whose `ver` is below a player's min_version are refused.
CREATE TABLE IF NOT EXISTS {schema}.token_versions (
    player_id       UUID        PRIMARY KEY,
    min_version     INTEGER     NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
