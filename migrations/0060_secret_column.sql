-- Secrecy is a column, not a name. A secret roll-log entry is hidden from
-- every member but its author and the FC (/history, /stats, the export);
-- a secret session's clicks stay secret.
--
-- Before this migration a secret entry was recognised by its action's
-- `secret` prefix (`secret roll`, `secret reroll`), and a secret session by
-- a `secret_session:<id>` row in channel_state. Both are read here, once,
-- to fill the new columns; nothing reads the prefix afterwards.
ALTER TABLE roll_log ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
UPDATE roll_log
   SET secret = 1,
       action = CASE WHEN action LIKE 'secret %' THEN substr(action, 8) ELSE action END
 WHERE action LIKE 'secret%';

ALTER TABLE sessions ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
UPDATE sessions
   SET secret = 1
 WHERE EXISTS (
       SELECT 1 FROM channel_state c
        WHERE c.guild_id = sessions.guild_id
          AND c.channel_id = sessions.channel_id
          AND c.key = 'secret_session:' || sessions.id);
