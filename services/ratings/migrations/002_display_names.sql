-- Leaderboards show display names, never log-in names (issue 17, finding 11). Fed by accounts'
-- PlayerRegistered (the default name, libs.contracts.default_display_name) and DisplayNameChanged
-- (the chosen one); `version` is the accounts stream's: the newest wins. Players known so far get
-- the default. The old copy of usernames is no longer read or written; it is dropped by a later
-- release (expand, then contract: docs/upgrading.md).
CREATE TABLE IF NOT EXISTS {schema}.display_names (
    player_id       TEXT        PRIMARY KEY,
    display_name    TEXT        NOT NULL,
    version         INTEGER     NOT NULL
);

INSERT INTO {schema}.display_names (player_id, display_name, version)
    SELECT player_id, 'Player-' || substr(replace(player_id, '-', ''), 1, 12), 0 FROM {schema}.usernames
    ON CONFLICT (player_id) DO NOTHING;
