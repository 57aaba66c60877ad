"""The UI's registry: each game's words (:class:`~bot.ui.text.game_text.GameText`), keyed by the
game's :class:`~bot.engine.GameKind` — the UI side of the game's registry entry (the engine
must not know how the bot words a game).

A game registered in the engine without a text of its own is worded by the base
:class:`~bot.ui.text.game_text.GameText`: trick play only, which every game has.
"""

from __future__ import annotations

from typing import Final

from bot.engine import GameKind, Rules, entry_of, preset
from bot.i18n import _, number
from bot.per_game import PerGame
from bot.ui.text.game_text import GameText
from bot.ui.text.spades_text import SpadesText
from bot.ui.text.trump_text import EuchreText, TrumpText

GENERIC: Final = GameText()
_TEXTS: Final = PerGame[GameText](
    GENERIC,
    {
        GameKind.SPADES: SpadesText(),
        GameKind.WHIST: TrumpText(),
        GameKind.EUCHRE: EuchreText(),
    },
)
text_of = _TEXTS.of  # how the bot words a game (the generic words if it has none of its own)
unregister_text = _TEXTS.unregister


def register_text(kind: GameKind, text: GameText) -> None:
    """Give a game its own words (a game added at run time: a test's)."""
    _TEXTS.register(kind, text)


def game_title(rules: Rules) -> str:
    """The table message's title: the game, the preset and the target the table plays to
    (``♠ Spades · Standard · to 500``; ``♥ Euchre · to 10``: its preset is its name)."""
    game = _(entry_of(rules.game).title)
    named = _(preset(rules.preset).title)
    title = game if named == game else f"{game} · {named}"
    return f"{text_of(rules.game).symbol} {title} · " + _(
        "to {target}", target=number(rules.target)
    )
