-- Issue 33: when the bot was removed from a guild (GUILD_DELETE without
-- `unavailable`: not an outage). A guild whose row is older than the grace
-- period (`data.removed_guild_grace_days`, default 30 days) has every row
-- of every guild-scoped table deleted, this one included; the bot coming
-- back (GUILD_CREATE) deletes the row and so cancels it.
CREATE TABLE guild_departures (
    guild_id INTEGER NOT NULL PRIMARY KEY,
    left_at  INTEGER NOT NULL
);
CREATE INDEX guild_departures_by_time ON guild_departures (left_at);
