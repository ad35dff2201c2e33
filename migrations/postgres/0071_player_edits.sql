-- PostgreSQL twin of ../0071_player_edits.sql (the house rule
-- `player_edits`): a guild that already used Kismet before this migration
-- keeps `free`. The settings are JSON text; PostgreSQL edits them as jsonb.
INSERT INTO guild_settings (guild_id, scope, settings, updated_at)
SELECT g, 'guild', '{"player_edits":"free"}', 0
  FROM (SELECT guild_id AS g FROM guild_settings
        UNION SELECT guild_id FROM characters
        UNION SELECT guild_id FROM sessions
        UNION SELECT guild_id FROM roll_log) AS used
 WHERE true
ON CONFLICT (guild_id, scope)
DO UPDATE SET settings = jsonb_set(guild_settings.settings::jsonb, '{player_edits}', '"free"')::text;
