"""The table service, split by concern (see :mod:`bot.tables.service`).

Import from the submodules; this package module imports nothing, so that importing any part
does not import them all.
"""
