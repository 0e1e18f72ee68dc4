-- The line's MMR ladder (its own, apart from Arcana's rating): line_ratings and line_rating_history,
-- a projection of the line-rating-<player> streams, with the columns, keys and indexes of ratings and
-- rating_history (tier and highest_tier hold 'none': the line's ladder has no tiers), rebuilt by the
-- same projection (services.ratings.projections:projection).
CREATE TABLE IF NOT EXISTS {schema}.line_ratings (LIKE {schema}.ratings INCLUDING ALL);
CREATE TABLE IF NOT EXISTS {schema}.line_rating_history (LIKE {schema}.rating_history INCLUDING ALL);
