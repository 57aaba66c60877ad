-- 011: a server's language for public messages (the table, hand summaries, game over, boards),
-- set with /spades-admin language.  No row: the server's preferred locale in Discord.  The
-- language is one the bot ships (bot/i18n: en, es, pt_BR, fr, de).
CREATE TABLE server_languages (
    guild_id BIGINT PRIMARY KEY,
    language TEXT NOT NULL CHECK (language IN ('en', 'es', 'pt_BR', 'fr', 'de'))
);
