-- PostgreSQL twin of ../0080_veracity_revealed.sql.
-- Veracity (issue 14): the guild-wide record of revealed Secrets. Once a
-- Secret is revealed by anyone it is "just news" (seed 002, VR-5): it can
-- level nobody up again. Keyed by the Secret's normalised text.
CREATE TABLE IF NOT EXISTS veracity_revealed (
    guild_id     BIGINT NOT NULL,
    secret_key   TEXT COLLATE "C" NOT NULL,
    secret       TEXT COLLATE "C" NOT NULL,
    character_id BIGINT NOT NULL,
    revealed_by  BIGINT NOT NULL,
    target       TEXT COLLATE "C" NOT NULL,
    revealed_at  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, secret_key)
);
