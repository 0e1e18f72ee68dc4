-- The line's tournament (docs/line.md, "Tournament"): one row per bracket (stream tournament-<id>),
-- written from the bracket folded after each of its appends, in that append's transaction. The
-- filling bracket of a game takes the next entry; the sweep takes those whose due_at has passed.
CREATE TABLE IF NOT EXISTS {schema}.tournaments (
    tournament_id UUID PRIMARY KEY,
    game TEXT NOT NULL,
    opened_at TIMESTAMPTZ NOT NULL,
    filling BOOLEAN NOT NULL,
    ended BOOLEAN NOT NULL,
    due_at TIMESTAMPTZ,
    players TEXT[] NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS tournaments_filling ON {schema}.tournaments (game, opened_at) WHERE filling;
CREATE INDEX IF NOT EXISTS tournaments_due ON {schema}.tournaments (due_at) WHERE NOT ended;
CREATE INDEX IF NOT EXISTS tournaments_players ON {schema}.tournaments USING GIN (players);
