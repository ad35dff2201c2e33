-- Issue 32: a game's own GM channel for its secret rolls (NULL: the
-- server's GM channel, as before).
ALTER TABLE games ADD COLUMN gm_channel INTEGER;
