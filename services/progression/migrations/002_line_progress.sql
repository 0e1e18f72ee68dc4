-- The line's arena XP and training battles of each player: a projection of the line-<player>
-- streams (ArenaXpEarned, TrainingBattleFought), rebuilt with the service's projection like the others.
CREATE TABLE IF NOT EXISTS {schema}.line_progress (
    player_id        TEXT    PRIMARY KEY,
    arena_xp         INTEGER NOT NULL DEFAULT 0 CHECK (arena_xp >= 0),
    training_battles INTEGER NOT NULL DEFAULT 0 CHECK (training_battles >= 0)
);
