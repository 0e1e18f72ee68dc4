-- Dead letters (libs/bus/consumer.py, libs/bus/deadletters.py): an event a consumer's handler
-- failed on `attempts` times in a row. The consumer recorded it here, published it to
-- arcana.<service>.dead-letters and went on with its partition; the inbox does NOT hold it (it was
-- never applied). `python -m libs.kit.deadletters retry` applies it later through the same
-- handler, with its inbox row, in one transaction, and sets status to 'retried'.
--   status 'dead':    waiting for an operator's retry
--   status 'retried': applied by a retry (or found already applied by a later delivery)
--   status 'expired': older than the consumer's inbox horizon when retried: never applied, since
--                     the inbox can no longer tell whether a later delivery applied it
CREATE TABLE IF NOT EXISTS {schema}.dead_letters (
    id              BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    consumer        TEXT        NOT NULL,
    event_id        UUID        NOT NULL,
    stream          TEXT        NOT NULL,
    type            TEXT        NOT NULL,
    envelope        JSONB       NOT NULL,               -- the event as delivered (RecordedEvent.to_dict())
    error           TEXT        NOT NULL,               -- the last failure
    attempts        INTEGER     NOT NULL CHECK (attempts > 0),
    first_failed_at TIMESTAMPTZ NOT NULL,
    last_failed_at  TIMESTAMPTZ NOT NULL,
    topic           TEXT        NOT NULL,
    kafka_partition INTEGER     NOT NULL,
    kafka_offset    BIGINT      NOT NULL,
    status          TEXT        NOT NULL DEFAULT 'dead' CHECK (status IN ('dead', 'retried', 'expired')),
    retried_at      TIMESTAMPTZ,
    UNIQUE (consumer, event_id)
);

CREATE INDEX IF NOT EXISTS dead_letters_waiting_idx ON {schema}.dead_letters (id) WHERE status = 'dead';
