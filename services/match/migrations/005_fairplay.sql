-- What each UTC day has counted (libs.fairplay.DayTally), kept as matches end: counting matches per
-- pair of players (key 'pair:<a>|<b>') and coin-paying matches per player (key 'coins:<player>').
-- A projection of the verdicts in the stored MatchEnded events (services/match/fairplay.py).
CREATE TABLE IF NOT EXISTS {schema}.fairplay_tally (
    day     DATE    NOT NULL,
    key     TEXT    NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (day, key)
);
