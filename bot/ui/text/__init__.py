"""The words of the games: each game's text and its registry, the rules in sentences, the words
shared by every message, verifiable deals in words, card emojis."""
