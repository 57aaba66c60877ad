"""Tools that measure the bot and are not part of it: the arena (duplicate matches between
computer players, ``python -m tools.arena``), its journal and reports, the JSON-lines player
protocol with an example player, a server of any built-in level at any git revision, and
baselines as git worktrees.  Nothing in ``bot`` imports them; the wheel does not ship them."""
