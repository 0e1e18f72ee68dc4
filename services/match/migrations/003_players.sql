-- The players that exist, as accounts published them (PlayerRegistered on arcana.accounts.events):
-- a MatchRequested naming anyone else is rejected (reason unknown_player). Only ids are kept.
CREATE TABLE IF NOT EXISTS {schema}.players (
    player_id     TEXT        PRIMARY KEY,
    registered_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
