-- Each player's active deck as economy last published it (ActiveDeckChanged on
-- arcana.economy.events): practice matches use it. `version` is the economy stream's version of
-- that event, so a redelivered older one never replaces a newer one.
CREATE TABLE IF NOT EXISTS {schema}.active_decks (
    player_id   TEXT        PRIMARY KEY,
    deck_id     TEXT        NOT NULL,
    cards       JSONB       NOT NULL,
    legal       BOOLEAN     NOT NULL,
    problems    JSONB       NOT NULL,
    version     INTEGER     NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
