-- Issue 32: where a session's message lives, past its channel: the
-- channel's parent (a thread's channel, a channel's category), so a
-- redraw reads the house rules of the game it was posted in. NULL on
-- sessions from before it (and outside threads and categories).
ALTER TABLE sessions ADD COLUMN parent_id BIGINT;
