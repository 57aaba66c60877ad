"""A frozen copy of the Spades engine as it was before the shared trick-taking core (main at
215363d, ``bot/engine/{actions,cards,errors,game,rules,scoring}.py``, imports renamed).

Only ``benchmarks/engine.py`` uses it, to measure the old and the new engine in one run on one
machine (issue 11: the new engine must play Spades at no less than 0.9× the old speed).  Do
not change it.
"""
