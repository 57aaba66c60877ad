"""The channel-write budget of one process: the order and average rate in which the tables'
channel writes (table-message edits, hand summaries, notices) are taken, below the pace of all
the bot's requests (:mod:`bot.ui.discord.pace`, which keeps what *arrives* at Discord within its 50
requests a second)."""

from __future__ import annotations

from bot.token_bucket import TokenBucket


def write_budget(writes_per_second: float) -> TokenBucket:
    """The channel-write budget of one process: ``writes_per_second`` on average, bursts of an
    eighth.  It orders the tables' writes, below the pace of all the bot's requests
    (:mod:`bot.ui.discord.pace`: what *arrives* stays within Discord's 50 a second), leaving the
    rest to its other requests (tournaments, threads, replays); hand summaries and notices
    (``take(urgent=True)``) go before the table-message edits queued ahead of them."""
    return TokenBucket(writes_per_second, max(1, int(writes_per_second) // 8))
