-- Idempotency-Key records of one service (libs/web/idempotency.py). A row is inserted first, in
-- the same transaction as the request's writes, so the unique key makes concurrent retries wait
-- and then replay the stored response; a failed request rolls its row back with everything else.
CREATE TABLE IF NOT EXISTS {schema}.idempotency (
    scope           TEXT        NOT NULL,              -- the player id, or 'anonymous'
    key             TEXT        NOT NULL,              -- the client's Idempotency-Key
    fingerprint     TEXT        NOT NULL,              -- sha256 of method, path and canonical body
    status          SMALLINT,                          -- NULL until the response is stored
    content_type    TEXT,
    body            BYTEA,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);

CREATE INDEX IF NOT EXISTS idempotency_created_at_idx ON {schema}.idempotency (created_at);
