-- The event store of one service. Every state change of the service is a row here; this table is
-- also the outbox that the relay publishes from (see libs/bus).
CREATE TABLE IF NOT EXISTS {schema}.events (
    position        BIGINT      PRIMARY KEY,           -- global, gap-free, in commit order (see store.py)
    event_id        UUID        NOT NULL UNIQUE,
    stream          TEXT        NOT NULL,
    version         INTEGER     NOT NULL CHECK (version >= 1),
    type            TEXT        NOT NULL,
    schema_version  SMALLINT    NOT NULL DEFAULT 1,
    occurred_at     TIMESTAMPTZ NOT NULL,
    recorded_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    correlation_id  UUID,
    causation_id    UUID,
    data            JSONB       NOT NULL,
    CONSTRAINT events_stream_version_key UNIQUE (stream, version)
);

CREATE TABLE IF NOT EXISTS {schema}.snapshots (
    stream      TEXT        PRIMARY KEY,
    version     INTEGER     NOT NULL,
    state       JSONB       NOT NULL,
    taken_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
