"""Tools that measure the bot or keep it, and are not part of it: the arena (duplicate matches
between computer players, ``python -m tools.arena``), its journal and reports, the JSON-lines
player protocol with an example player, a server of any built-in level at any git revision,
baselines as git worktrees, and the catalogs' tool (``python -m tools.catalogs``: every
message of the code into the languages' catalogs).  Nothing in ``bot`` imports them; the
wheel does not ship them."""
