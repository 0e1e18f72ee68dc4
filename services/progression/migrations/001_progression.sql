-- The progression service's read models. All of them are a projection of the service's own
-- streams (quests-<player>-<day>, streak-<player>, pass-<player>-<season>), written in the same
-- transaction as the events and rebuilt from zero with
--   python -m libs.bus.rebuild --schema progression --projection services.progression.projections:projection

-- The last version of each stream applied: applying an event twice changes nothing.
CREATE TABLE IF NOT EXISTS {schema}.projected_streams (
    stream      TEXT    PRIMARY KEY,
    version     INTEGER NOT NULL
);

-- A player's quests of one UTC day (the quest currently offered for each difficulty).
CREATE TABLE IF NOT EXISTS {schema}.quest_days (
    player_id   TEXT    NOT NULL,
    day         DATE    NOT NULL,
    swapped     BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (player_id, day)
);

CREATE TABLE IF NOT EXISTS {schema}.quest_progress (
    player_id   TEXT    NOT NULL,
    day         DATE    NOT NULL,
    quest_id    TEXT    NOT NULL,
    difficulty  TEXT    NOT NULL,
    progress    INTEGER NOT NULL DEFAULT 0 CHECK (progress >= 0),
    target      INTEGER NOT NULL,
    completed   BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (player_id, day, quest_id),
    UNIQUE (player_id, day, difficulty)
);

-- One row per day a player's streak was kept (the day's reward recorded).
CREATE TABLE IF NOT EXISTS {schema}.streak_days (
    player_id   TEXT    NOT NULL,
    day         DATE    NOT NULL,
    streak_day  INTEGER NOT NULL CHECK (streak_day BETWEEN 1 AND 7),
    forgiven    BOOLEAN NOT NULL,
    coins       INTEGER NOT NULL,
    packs       INTEGER NOT NULL,
    PRIMARY KEY (player_id, day)
);

CREATE TABLE IF NOT EXISTS {schema}.streaks (
    player_id        TEXT    PRIMARY KEY,
    last_day         DATE    NOT NULL,
    streak_day       INTEGER NOT NULL,
    forgiveness_from DATE                   -- NULL: a forgiveness is held
);

CREATE TABLE IF NOT EXISTS {schema}.pass_progress (
    player_id   TEXT    NOT NULL,
    season_id   TEXT    NOT NULL,
    xp          INTEGER NOT NULL CHECK (xp >= 0),
    level       INTEGER NOT NULL CHECK (level BETWEEN 0 AND 30),
    PRIMARY KEY (player_id, season_id)
);

-- Every reward granted, once per reward id (quest:<player>:<day>:<quest> | streak:<player>:<day>).
CREATE TABLE IF NOT EXISTS {schema}.rewards (
    reward_id   TEXT        PRIMARY KEY,
    player_id   TEXT        NOT NULL,
    coins       INTEGER     NOT NULL,
    packs       INTEGER     NOT NULL,
    reason      TEXT        NOT NULL,
    source      JSONB       NOT NULL,
    granted_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS rewards_player_idx ON {schema}.rewards (player_id);
