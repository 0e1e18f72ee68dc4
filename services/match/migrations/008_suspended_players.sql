-- Players an operator suspended (accounts' AccountSuspended; AccountRestored removes the row): their
-- running matches were forfeited and a match request naming one is refused as `unknown_player`
-- (matchmaking returns the tickets to waiting). Only ids are kept.
CREATE TABLE IF NOT EXISTS {schema}.suspended_players (
    player_id     TEXT        PRIMARY KEY,
    suspended_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
