"""Search over the deals a seat may face, for any trick-taking game the engine offers.

* :mod:`~bot.ai.search.layout` – cards renumbered so bit order is trick order;
* :mod:`~bot.ai.search.sim` – the play of a hand with every card known, and a fast policy;
* :mod:`~bot.ai.search.solver` – exact values of the last tricks (alpha-beta, table);
* :mod:`~bot.ai.search.worlds` – deals consistent with what a seat has seen;
* :mod:`~bot.ai.search.pimc` – choosing a card over sampled worlds within a clock budget;
* :mod:`~bot.ai.search.utility` – what a hand's result is worth in the game;
* :mod:`~bot.ai.search.spades` – Spades plugged in (the model for other games);
* :mod:`~bot.ai.search.bidding` – bids from the tricks the play-outs give.

docs/ai.md describes the method and how to plug in a game.
"""
