-- Veracity (issue 14): the guild-wide record of revealed Secrets. Once a
-- Secret is revealed by anyone it is "just news" (seed 002, VR-5): it can
-- level nobody up again. Keyed by the Secret's normalised text.
CREATE TABLE IF NOT EXISTS veracity_revealed (
    guild_id     INTEGER NOT NULL,
    secret_key   TEXT    NOT NULL,
    secret       TEXT    NOT NULL,
    character_id INTEGER NOT NULL,
    revealed_by  INTEGER NOT NULL,
    target       TEXT    NOT NULL,
    revealed_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, secret_key)
);
