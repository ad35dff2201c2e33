-- Interactive roll sessions: the state behind every button.
-- A button's custom_id carries the session id and its version, so every
-- button keeps working after a restart and a stale click is recognised.
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    owner_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    state       TEXT    NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0,
    status      TEXT    NOT NULL DEFAULT 'open',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    expires_at  INTEGER
);
CREATE INDEX sessions_by_guild ON sessions (guild_id, id);
CREATE INDEX sessions_open_expiry ON sessions (status, expires_at);

-- Every roll, reroll, spend and sheet change, for settling disputes.
CREATE TABLE roll_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    character_id INTEGER,
    session_id   INTEGER,
    system       TEXT    NOT NULL,
    action       TEXT    NOT NULL,
    inputs       TEXT    NOT NULL,
    dice         TEXT    NOT NULL,
    outcome      TEXT    NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX roll_log_by_user ON roll_log (guild_id, user_id, id);
CREATE INDEX roll_log_by_session ON roll_log (session_id);
