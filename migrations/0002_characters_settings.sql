-- Character sheets of every system, as JSON owned by the system's rules.
CREATE TABLE characters (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    owner_id    INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    sheet       TEXT    NOT NULL,
    active      INTEGER NOT NULL DEFAULT 0,
    version     INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    UNIQUE (guild_id, system, owner_id, name_key)
);
CREATE INDEX characters_by_guild ON characters (guild_id, system, name_key);

-- Settings per guild: scope `guild` (shared), a system name, or `channel:<id>`.
CREATE TABLE guild_settings (
    guild_id    INTEGER NOT NULL,
    scope       TEXT    NOT NULL,
    settings    TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, scope)
);

-- Small per-channel state (e.g. Veracity's Convention list).
CREATE TABLE channel_state (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id, key)
);

-- Where a session's message is, so an expiry can disable its buttons.
ALTER TABLE sessions ADD COLUMN message_id INTEGER;
ALTER TABLE sessions ADD COLUMN token TEXT;
ALTER TABLE sessions ADD COLUMN token_at INTEGER;
