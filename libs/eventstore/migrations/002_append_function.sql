-- Appending and following without serialising writers.
--
-- Positions come from a sequence, so concurrent appends commit in parallel (group commit) and may
-- commit out of position order. Followers must never pass a position whose transaction is still
-- open, so each append makes its positions visible as "in flight" until it ends:
--   * allocation is a tiny critical section under a SHARED session advisory lock (the allocation
--     lock, key = the table's oid): nextval for every event, then a transaction-scoped advisory
--     lock (namespace, first position mod 2^31) that stays held until the append's transaction
--     commits or rolls back; then the allocation lock is released;
--   * a follower takes the allocation lock EXCLUSIVELY for an instant (waiting only for
--     allocations in progress, never for commits), reads the sequence's last value S and the
--     in-flight position locks from pg_locks, and releases it. Every position below the lowest
--     in-flight one and <= S is final (committed or rolled back): that is the safe watermark.
-- Positions are unique and strictly increasing in what a follower delivers; a rolled-back append
-- leaves a gap. Stream versions are gap-free, enforced by UNIQUE (stream, version).

CREATE SEQUENCE IF NOT EXISTS {schema}.events_position_seq AS BIGINT;

-- p_expected: a version >= 0 (0 = the stream must be new), -1 = any, -2 = the stream must exist.
-- A wrong expected version raises SQLSTATE AR409 with the stream's current version as DETAIL.
CREATE OR REPLACE FUNCTION {schema}.append_events(
    p_stream   TEXT,
    p_expected INTEGER,
    p_ids      UUID[],
    p_types    TEXT[],
    p_svs      INTEGER[],
    p_ats      TIMESTAMPTZ[],
    p_corr     UUID[],
    p_caus     UUID[],
    p_data     JSONB[]
) RETURNS TABLE (out_position BIGINT, out_version INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
    table_key        BIGINT  := '{schema}.events'::regclass::oid::bigint;
    namespace        INTEGER := ('{schema}.events'::regclass::oid::bigint % 2147483647)::int;
    current_version  INTEGER;
    positions        BIGINT[];
BEGIN
    SELECT coalesce(max(e.version), 0) INTO current_version
        FROM {schema}.events e WHERE e.stream = p_stream;
    IF (p_expected >= 0 AND current_version <> p_expected)
       OR (p_expected = -2 AND current_version = 0) THEN
        RAISE EXCEPTION 'stream % is at version %, expected %', p_stream, current_version, p_expected
            USING ERRCODE = 'AR409', DETAIL = current_version::text;
    END IF;

    PERFORM pg_advisory_lock_shared(table_key);
    SELECT array_agg(nextval('{schema}.events_position_seq') ORDER BY g)
        INTO positions FROM generate_series(1, cardinality(p_ids)) AS g;
    PERFORM pg_advisory_xact_lock(namespace, (positions[1] % 2147483647)::int);
    PERFORM pg_advisory_unlock_shared(table_key);

    RETURN QUERY
    INSERT INTO {schema}.events AS ev (position, event_id, stream, version, type, schema_version,
                                       occurred_at, correlation_id, causation_id, data)
    SELECT positions[u.n], u.event_id, p_stream, current_version + u.n::int, u.type, u.sv,
           u.at, u.corr, u.caus, u.data
    FROM unnest(p_ids, p_types, p_svs, p_ats, p_corr, p_caus, p_data)
             WITH ORDINALITY AS u(event_id, type, sv, at, corr, caus, data, n)
    ORDER BY u.n
    RETURNING ev.position, ev.version;
END
$$;

-- The highest position below which every append has ended: followers read up to it.
CREATE OR REPLACE FUNCTION {schema}.safe_position() RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
    table_key  BIGINT  := '{schema}.events'::regclass::oid::bigint;
    namespace  INTEGER := ('{schema}.events'::regclass::oid::bigint % 2147483647)::int;
    allocated  BIGINT;
    lowest     BIGINT;
BEGIN
    PERFORM pg_advisory_lock(table_key);
    SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO allocated
        FROM {schema}.events_position_seq;
    -- In-flight first positions, mapped back from mod 2^31 into the window just below `allocated`.
    SELECT min(allocated - ((allocated % 2147483647 - l.objid::bigint + 2147483647) % 2147483647))
        INTO lowest
        FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database
                                                        WHERE datname = current_database())
          AND l.classid = namespace::oid AND l.objsubid = 2 AND l.granted;
    PERFORM pg_advisory_unlock(table_key);
    RETURN coalesce(lowest - 1, allocated);
END
$$;
