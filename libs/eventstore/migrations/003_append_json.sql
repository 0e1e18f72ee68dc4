-- append_events takes the batch as one JSONB array instead of nine parallel arrays: the client
-- serialises a batch with one json.dumps, and the server unpacks it. Same locking as 002.
-- Each element: {"event_id", "type", "schema_version", "occurred_at", "correlation_id",
-- "causation_id", "data"}.
DROP FUNCTION IF EXISTS {schema}.append_events(TEXT, INTEGER, UUID[], TEXT[], INTEGER[], TIMESTAMPTZ[],
                                               UUID[], UUID[], JSONB[]);

CREATE OR REPLACE FUNCTION {schema}.append_events(p_stream TEXT, p_expected INTEGER, p_events JSONB)
RETURNS TABLE (out_position BIGINT, out_version INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
    table_key        BIGINT  := '{schema}.events'::regclass::oid::bigint;
    namespace        INTEGER := ('{schema}.events'::regclass::oid::bigint % 2147483647)::int;
    current_version  INTEGER;
    positions        BIGINT[];
    n                INTEGER := jsonb_array_length(p_events);
BEGIN
    SELECT coalesce(max(e.version), 0) INTO current_version
        FROM {schema}.events e WHERE e.stream = p_stream;
    IF (p_expected >= 0 AND current_version <> p_expected)
       OR (p_expected = -2 AND current_version = 0) THEN
        RAISE EXCEPTION 'stream % is at version %, expected %', p_stream, current_version, p_expected
            USING ERRCODE = 'AR409', DETAIL = current_version::text;
    END IF;

    -- Allocation: n positions (concurrent appends may interleave theirs) and the in-flight lock
    -- on the first, under the shared allocation lock (see 002 for why followers can then never
    -- pass this append).
    PERFORM pg_advisory_lock_shared(table_key);
    IF n = 1 THEN
        positions := ARRAY[nextval('{schema}.events_position_seq')];
    ELSE
        SELECT array_agg(nextval('{schema}.events_position_seq') ORDER BY g)
            INTO positions FROM generate_series(1, n) AS g;
    END IF;
    PERFORM pg_advisory_xact_lock(namespace, (positions[1] % 2147483647)::int);
    PERFORM pg_advisory_unlock_shared(table_key);

    RETURN QUERY
    INSERT INTO {schema}.events AS ev (position, event_id, stream, version, type, schema_version,
                                       occurred_at, correlation_id, causation_id, data)
    SELECT positions[u.n], (u.x->>'event_id')::uuid, p_stream, current_version + u.n::int,
           u.x->>'type', (u.x->>'schema_version')::smallint, (u.x->>'occurred_at')::timestamptz,
           (u.x->>'correlation_id')::uuid, (u.x->>'causation_id')::uuid, u.x->'data'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS u(x, n)
    ORDER BY u.n
    RETURNING ev.position, ev.version;
END
$$;
