-- The inbox purge policy (libs/bus/purge.py, docs/operations.md). Inbox rows are deleted once
-- their event occurred before the consumer's horizon, and the consumer treats every event older
-- than its horizon as already applied: so an old event delivered again (a new, empty broker makes
-- the relays publish everything again) is never applied twice, though its inbox row is gone.

-- When the event occurred (its envelope's occurred_at). Rows written before this column existed
-- get their processed_at, which is later than the event: they are purged later, never too early.
ALTER TABLE {schema}.inbox ADD COLUMN IF NOT EXISTS occurred_at TIMESTAMPTZ;
UPDATE {schema}.inbox SET occurred_at = processed_at WHERE occurred_at IS NULL;
ALTER TABLE {schema}.inbox ALTER COLUMN occurred_at SET DEFAULT now();
ALTER TABLE {schema}.inbox ALTER COLUMN occurred_at SET NOT NULL;

CREATE INDEX IF NOT EXISTS inbox_occurred_at_idx ON {schema}.inbox (consumer, occurred_at);

-- One row per consumer: events that occurred before `horizon` count as applied. It only moves
-- forward (-infinity until the first purge).
CREATE TABLE IF NOT EXISTS {schema}.inbox_horizons (
    consumer    TEXT        PRIMARY KEY,
    horizon     TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
