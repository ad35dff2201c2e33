-- Issue 32: many games on one server. A game has a name (unique per guild,
-- any case: `name_key` is its lower-case form), a system, a pace (`live`
-- or `post`, with how many days a post-pace roll stays live), and is
-- archived when `ended_at` is set. Its channels (a channel, a category or
-- a thread's parent), its game masters (a member or a role) and its players
-- (with their active character in it) hang off it. Existing rows belong to
-- no game: `roll_log.game_id` is NULL for them and for every action taken
-- outside a game's channels.
CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    name_key   TEXT    NOT NULL,
    system     TEXT    NOT NULL,
    pace       TEXT    NOT NULL DEFAULT 'live',
    post_days  INTEGER NOT NULL DEFAULT 7,
    ended_at   INTEGER,
    created_at INTEGER NOT NULL,
    UNIQUE (guild_id, name_key)
);

CREATE TABLE game_channels (
    guild_id   INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, channel_id)
);
CREATE INDEX game_channels_by_channel ON game_channels (guild_id, channel_id);

-- `kind` is `member` (a user id) or `role` (a role id).
CREATE TABLE game_gms (
    guild_id  INTEGER NOT NULL,
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind      TEXT    NOT NULL,
    target_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind, target_id)
);

-- `character_id` is the player's active character in the game (NULL: the
-- server-wide active one).
CREATE TABLE game_players (
    guild_id     INTEGER NOT NULL,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    character_id INTEGER,
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

ALTER TABLE roll_log ADD COLUMN game_id INTEGER;
CREATE INDEX roll_log_by_game ON roll_log (guild_id, game_id, id);
