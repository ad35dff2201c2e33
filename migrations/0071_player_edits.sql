-- The house rule `player_edits` (issue 13): new guilds ask the game master
-- to approve a player's change to what the rules leave to the game master;
-- a guild that already used Kismet before this migration keeps today's
-- behaviour (`free`) until its FC changes it. A guild "already used Kismet"
-- when any row of it exists: settings, characters, sessions or the roll log.
INSERT INTO guild_settings (guild_id, scope, settings, updated_at)
SELECT g, 'guild', '{"player_edits":"free"}', 0
  FROM (SELECT guild_id AS g FROM guild_settings
        UNION SELECT guild_id FROM characters
        UNION SELECT guild_id FROM sessions
        UNION SELECT guild_id FROM roll_log)
 WHERE true
ON CONFLICT (guild_id, scope)
DO UPDATE SET settings = json_set(settings, '$.player_edits', 'free');
