-- PostgreSQL twin of ../0062_named_rolls.sql.
-- Named rolls (/rolls save|list|forget, /roll name:): a member's saved
-- expressions, per guild, at most 50 each (checked by the application).
-- `name` is stored as typed; `name_key` is its lower-case form, unique per
-- member so `Fireball` and `fireball` are the same roll.
CREATE TABLE named_rolls (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    name_key   TEXT COLLATE "C" NOT NULL,
    name       TEXT COLLATE "C" NOT NULL,
    expression TEXT COLLATE "C" NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, name_key)
);
