-- Named rolls (/rolls save|list|forget, /roll name:): a member's saved
-- expressions, per guild, at most 50 each (checked by the application).
-- `name` is stored as typed; `name_key` is its lower-case form, unique per
-- member so `Fireball` and `fireball` are the same roll.
CREATE TABLE named_rolls (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name_key   TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    expression TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, name_key)
);
