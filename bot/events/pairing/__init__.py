"""A tournament's values and its pairings, pure: settings, entries and the games of its rounds
(``model``); single elimination, Swiss and duplicate (``elimination``, ``swiss``,
``duplicate``); and what comes next, round by round, to the standings (``rounds``).  They
decide from what they are given and do no I/O: the store keeps the values, the running service
(:mod:`bot.events.service`) changes a tournament only by replacing them."""
