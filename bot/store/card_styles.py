"""Repository for each server's card colours: the two-colour faces (the default: no row) or
the four-colour deck."""

from __future__ import annotations

from bot.store.server_choices import ServerChoices


class CardStyleStore(ServerChoices):
    table, column, default = "card_styles", "scheme", "two"

    schemes = ServerChoices.chosen  # every server that chose the four-colour deck
    set_scheme = ServerChoices.choose
