-- Account deletion (issue 34, point 6; docs/security.md): a deleted player's row in players goes
-- (username, password hash, display name: the person) and this tombstone stays, holding nothing
-- personal: the pseudonym others see instead of the name, and that the player's tokens are refused
-- (services.accounts.root reads it with players.token_version). The username is free again.
CREATE TABLE IF NOT EXISTS {schema}.deleted_players (
    player_id   UUID        PRIMARY KEY,
    pseudonym   TEXT        NOT NULL,                  -- 'deleted-' and 12 hex digits of sha256(player_id)
    deleted_at  TIMESTAMPTZ NOT NULL
);
