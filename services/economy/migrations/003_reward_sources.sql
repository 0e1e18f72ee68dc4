-- What each progression reward pays for, as economy consumed it (QuestCompleted, StreakDayKept): a
-- RewardGranted is paid only when its reward id is here, for the same player and amounts (issue 34,
-- finding 3). Fed by the credits consumer, in the transaction of the event's inbox row.
CREATE TABLE IF NOT EXISTS {schema}.reward_sources (
    reward_id   TEXT        PRIMARY KEY,
    player_id   TEXT        NOT NULL,
    coins       INTEGER     NOT NULL,
    packs       INTEGER     NOT NULL,
    seen_at     TIMESTAMPTZ NOT NULL
);
