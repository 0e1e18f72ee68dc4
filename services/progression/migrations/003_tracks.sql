-- Each game's own track in line_progress, keyed by the track (a game's offer names it:
-- libs.games.offer.Progress.track; the stream is <track>-<player>), so a second game with a track
-- needs no migration. The rows so far are the line's.
ALTER TABLE {schema}.line_progress ADD COLUMN IF NOT EXISTS track TEXT NOT NULL DEFAULT 'line';
ALTER TABLE {schema}.line_progress DROP CONSTRAINT IF EXISTS line_progress_pkey;
ALTER TABLE {schema}.line_progress ADD PRIMARY KEY (track, player_id);
