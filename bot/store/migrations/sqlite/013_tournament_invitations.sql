-- 013: partner invitations (issue 32; docs/tournaments.md "Signing up with a partner").  A
-- member who names a partner in `/tournament join partner:` is entered only once the partner
-- accepts: until then the pair waits here (a restart keeps it, and its expiry), and the
-- message that asks the partner is found again by its id.
CREATE TABLE tournament_invitations (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    inviter_id    INTEGER NOT NULL,
    inviter_name  TEXT    NOT NULL,
    partner_id    INTEGER NOT NULL,
    partner_name  TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    expires_at    REAL    NOT NULL,             -- ten minutes, or the start if sooner
    message_id    INTEGER,                      -- the message asking the partner (once posted)
    PRIMARY KEY (tournament_id, inviter_id)
);
-- A member is asked to partner one member of a tournament at a time.
CREATE UNIQUE INDEX tournament_invitations_partner
    ON tournament_invitations (tournament_id, partner_id);
