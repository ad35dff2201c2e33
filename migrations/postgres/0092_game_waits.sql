-- PostgreSQL twin of ../0092_game_waits.sql.
-- Issue 32 item 3: whom a play-by-post game waits on. A row says that the
-- open session `session_id` (a roll, a prompt, a tracker, a request) waits
-- on the member `member_id` (0: the game's game masters) for `what`, since
-- `since` (ms); the member was pinged once when the row was written. The
-- pipeline writes and clears the rows; `/game waiting` lists the ones
-- whose session is still open, with a link to its message.
CREATE TABLE game_waits (
    guild_id   BIGINT NOT NULL,
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    session_id BIGINT NOT NULL,
    member_id  BIGINT NOT NULL,
    what       TEXT COLLATE "C" NOT NULL,
    since      BIGINT NOT NULL,
    PRIMARY KEY (session_id, member_id)
);
CREATE INDEX game_waits_by_game ON game_waits (guild_id, game_id, since);
