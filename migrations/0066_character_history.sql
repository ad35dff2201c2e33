-- Every change of a character's sheet, for `/fc undo`: the sheet before and
-- after, who made it and which log entry tells what it was. Written by the
-- storage layer whenever a sheet is saved (storage::characters::update), in
-- the same transaction; an undo is itself a row (`undoes` names the row it
-- reverted, whose `undone_by` names it back).
CREATE TABLE character_history (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    log_id       INTEGER,
    user_id      INTEGER NOT NULL DEFAULT 0,
    action       TEXT    NOT NULL DEFAULT '',
    before       TEXT    NOT NULL,
    after        TEXT    NOT NULL,
    undoes       INTEGER,
    undone_by    INTEGER,
    created_at   INTEGER NOT NULL
);
CREATE INDEX character_history_by_character ON character_history (guild_id, character_id, id);
