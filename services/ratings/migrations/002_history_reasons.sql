-- A ranked match that moved nothing for a player (RatingUnchanged) is a history row too, with why:
-- repeat_opponent, early_concede, too_short or draw (null for a RatingChanged).
ALTER TABLE {schema}.rating_history ADD COLUMN IF NOT EXISTS reason TEXT;
