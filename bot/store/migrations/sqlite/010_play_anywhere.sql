-- 010: play anywhere (issue 27, docs/user-installs.md).  A table is shown either as a channel
-- message the bot posts and edits ('channel': a server that added the bot), or as the public
-- answer to an interaction, kept current through the freshest interaction token of that table
-- ('interaction': a group DM, a DM, a server that has not added the bot).  surface_token is
-- that token (a secret: stored only while it is valid, cleared when it expires or the table
-- ends) and surface_token_expires its end (unix seconds).
-- league: which league the table's game counts in: the server's ('server', keyed by the
-- server), the group DM's ('group', keyed by its channel: bot/league/scope.py) or none.
ALTER TABLE tables ADD COLUMN surface TEXT NOT NULL DEFAULT 'channel'
    CHECK (surface IN ('channel', 'interaction'));
ALTER TABLE tables ADD COLUMN surface_token TEXT;
ALTER TABLE tables ADD COLUMN surface_token_expires REAL;
ALTER TABLE tables ADD COLUMN league TEXT NOT NULL DEFAULT 'server'
    CHECK (league IN ('server', 'group', 'none'));
