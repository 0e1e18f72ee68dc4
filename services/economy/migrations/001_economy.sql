-- The economy service. Its event store (wallet-<player>, decks-<player>) comes from libs/eventstore;
-- here: the secret seeds of the next packs (write model) and the read models (projection
-- "economy", services/economy/projections.py), which a rebuild empties and replays.

-- The server seed the player's next pack will use. Secret until that pack is opened: only its
-- SHA-256 (the commitment) is in the events. Replaced in the transaction that opens the pack.
CREATE TABLE IF NOT EXISTS {schema}.pack_seeds (
    player_id   TEXT        PRIMARY KEY,
    seed        TEXT        NOT NULL CHECK (seed ~ '^[0-9a-f]{64}$'),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Read models. Each stream's last applied version guards against applying an event twice.
CREATE TABLE IF NOT EXISTS {schema}.projected_streams (
    stream      TEXT        PRIMARY KEY,
    version     INTEGER     NOT NULL
);

CREATE TABLE IF NOT EXISTS {schema}.wallets (
    player_id     TEXT        PRIMARY KEY,
    coins         INTEGER     NOT NULL CHECK (coins >= 0),
    dust          INTEGER     NOT NULL CHECK (dust >= 0),
    free_packs    INTEGER     NOT NULL CHECK (free_packs >= 0),
    pity          INTEGER     NOT NULL CHECK (pity >= 0),
    packs_opened  INTEGER     NOT NULL CHECK (packs_opened >= 0),
    commitment    TEXT        NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

-- One row per currency an event moves: amount signed, balance after it.
CREATE TABLE IF NOT EXISTS {schema}.ledger (
    position       BIGINT      NOT NULL,
    event_id       UUID        NOT NULL,
    currency       TEXT        NOT NULL CHECK (currency IN ('coins', 'dust', 'free_packs')),
    player_id      TEXT        NOT NULL,
    amount         INTEGER     NOT NULL,
    balance_after  INTEGER     NOT NULL CHECK (balance_after >= 0),
    reason         TEXT        NOT NULL,
    source         TEXT        NOT NULL,
    occurred_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (event_id, currency)
);
CREATE INDEX IF NOT EXISTS ledger_player_newest ON {schema}.ledger (player_id, position DESC, currency);

CREATE TABLE IF NOT EXISTS {schema}.collection (
    player_id   TEXT    NOT NULL,
    card_id     TEXT    NOT NULL,
    copies      INTEGER NOT NULL CHECK (copies > 0),
    PRIMARY KEY (player_id, card_id)
);

CREATE TABLE IF NOT EXISTS {schema}.decks (
    player_id   TEXT        NOT NULL,
    deck_id     TEXT        NOT NULL,
    name        TEXT        NOT NULL,
    cards       JSONB       NOT NULL,
    active      BOOLEAN     NOT NULL DEFAULT false,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player_id, deck_id)
);

-- The active deck as last published (ActiveDeckChanged), with its legality.
CREATE TABLE IF NOT EXISTS {schema}.active_decks (
    player_id   TEXT        PRIMARY KEY,
    deck_id     TEXT        NOT NULL,
    legal       BOOLEAN     NOT NULL,
    problems    JSONB       NOT NULL
);
