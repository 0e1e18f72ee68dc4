-- The Kafka bus (libs/bus): how far the outbox relay got, which events each consumer applied,
-- and how far each local projection got.

-- One row per relay (its topic): every event with position <= position has been published to the
-- Kafka cluster whose id is cluster_id. A different cluster id seen now means a new broker: the
-- relay starts again from position 0.
CREATE TABLE IF NOT EXISTS {schema}.relay_progress (
    relay       TEXT        PRIMARY KEY,
    position    BIGINT      NOT NULL DEFAULT 0 CHECK (position >= 0),
    cluster_id  TEXT,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The inbox: one row per (consumer, event) applied, written in the handler's transaction, so a
-- redelivered or republished event is recognised and skipped.
CREATE TABLE IF NOT EXISTS {schema}.inbox (
    consumer        TEXT        NOT NULL,
    event_id        UUID        NOT NULL,
    stream          TEXT        NOT NULL,
    type            TEXT        NOT NULL,
    topic           TEXT        NOT NULL,
    kafka_partition INTEGER     NOT NULL,
    kafka_offset    BIGINT      NOT NULL,
    processed_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

-- One row per projection of the service's own event store: events with position <= position are
-- applied to its tables (updated in the same transaction as the tables).
CREATE TABLE IF NOT EXISTS {schema}.projection_checkpoints (
    projection  TEXT        PRIMARY KEY,
    position    BIGINT      NOT NULL DEFAULT 0 CHECK (position >= 0),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
