-- Every game's ladder rating and training battles in one table each, keyed by the game (its offer
-- says whether it has a ladder or training battles: libs.games.offer), so a new game needs no
-- migration. The rows of player_ratings (Arcana's), line_ratings (the line's MMR) and line_training
-- are copied in; those tables are no longer read or written and are dropped by a later release
-- (expand, then contract: docs/upgrading.md).
CREATE TABLE IF NOT EXISTS {schema}.ladder_ratings (
    player_id       TEXT        NOT NULL,
    game            TEXT        NOT NULL,
    rating          INTEGER     NOT NULL,
    version         INTEGER     NOT NULL,                  -- the rating stream's version: newest wins
    PRIMARY KEY (player_id, game)
);

INSERT INTO {schema}.ladder_ratings (player_id, game, rating, version)
    SELECT player_id, 'arcana', rating, version FROM {schema}.player_ratings
    ON CONFLICT (player_id, game) DO NOTHING;
INSERT INTO {schema}.ladder_ratings (player_id, game, rating, version)
    SELECT player_id, 'line', mmr, version FROM {schema}.line_ratings
    ON CONFLICT (player_id, game) DO NOTHING;

CREATE TABLE IF NOT EXISTS {schema}.training_battles (  -- finished practice matches, once each
    player_id       TEXT        NOT NULL,
    game            TEXT        NOT NULL,
    match_id        TEXT        NOT NULL,
    PRIMARY KEY (player_id, game, match_id)
);

INSERT INTO {schema}.training_battles (player_id, game, match_id)
    SELECT player_id, 'line', match_id FROM {schema}.line_training
    ON CONFLICT DO NOTHING;
