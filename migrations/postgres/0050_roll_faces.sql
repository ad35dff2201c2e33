-- PostgreSQL twin of ../0050_roll_faces.sql.
-- Every die face thrown, normalised for the fairness statistics (/stats):
-- per roll-log entry, how many dice of `sides` sides showed `face`.
-- Faces are natural (before any modifier); every die thrown counts once,
-- kept or dropped, original or re-rolled (each throw is its own sample).
CREATE TABLE roll_faces (
    log_id  BIGINT NOT NULL REFERENCES roll_log (id) ON DELETE CASCADE,
    sides   BIGINT NOT NULL,
    face    BIGINT NOT NULL,
    n       BIGINT NOT NULL,
    PRIMARY KEY (log_id, sides, face)
);
