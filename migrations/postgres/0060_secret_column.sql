-- PostgreSQL twin of ../0060_secret_column.sql: secrecy is a column (0 or
-- 1, read as an integer like every flag). A PostgreSQL database starts
-- with this schema, so no old `secret` action prefix needs converting; the
-- conversion is kept for parity with SQLite.
ALTER TABLE roll_log ADD COLUMN secret BIGINT NOT NULL DEFAULT 0;
UPDATE roll_log
   SET secret = 1,
       action = CASE WHEN action LIKE 'secret %' THEN substr(action, 8) ELSE action END
 WHERE action LIKE 'secret%';

ALTER TABLE sessions ADD COLUMN secret BIGINT NOT NULL DEFAULT 0;
UPDATE sessions
   SET secret = 1
 WHERE EXISTS (
       SELECT 1 FROM channel_state c
        WHERE c.guild_id = sessions.guild_id
          AND c.channel_id = sessions.channel_id
          AND c.key = 'secret_session:' || sessions.id);
