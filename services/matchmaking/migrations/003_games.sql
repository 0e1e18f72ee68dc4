-- The line and the arena: a ticket names its game and the table sizes it accepts (rows before
-- games are Arcana's, tables of 2); active decks and previous ranked opponents are per game; the
-- line's MMR and its finished training battles (from MatchEnded, game line, mode practice).
ALTER TABLE {schema}.tickets ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';
ALTER TABLE {schema}.tickets ADD COLUMN IF NOT EXISTS sizes INTEGER[] NOT NULL DEFAULT '{2}';

ALTER TABLE {schema}.active_decks ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';
ALTER TABLE {schema}.active_decks DROP CONSTRAINT IF EXISTS active_decks_pkey;
ALTER TABLE {schema}.active_decks ADD PRIMARY KEY (player_id, game);

ALTER TABLE {schema}.last_opponents ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT 'arcana';
ALTER TABLE {schema}.last_opponents DROP CONSTRAINT IF EXISTS last_opponents_pkey;
ALTER TABLE {schema}.last_opponents ADD PRIMARY KEY (player_id, game);

CREATE TABLE IF NOT EXISTS {schema}.line_ratings (  -- the line's MMR (RatingChanged, game line)
    player_id       TEXT        PRIMARY KEY,
    mmr             INTEGER     NOT NULL,
    version         INTEGER     NOT NULL                   -- the rating stream's version: newest wins
);

CREATE TABLE IF NOT EXISTS {schema}.line_training (  -- finished line practice matches, once each
    player_id       TEXT        NOT NULL,
    match_id        TEXT        NOT NULL,
    PRIMARY KEY (player_id, match_id)
);
