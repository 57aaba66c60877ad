"""Which class plays a Spades rule set (games.md G1-G2): partnerships or solo, reneges
prevented or claimed.  ``Game(rules)`` asks :func:`variant_class`; the bid restrictions of
Suicide, Whiz and Mirror need no class of their own (:mod:`bot.engine.spades.bidrules`)."""

from __future__ import annotations

from bot.engine.spades.game import SpadesGame
from bot.engine.spades.renege import RenegeClaims
from bot.engine.spades.solo import SoloSpadesGame


class ClaimSpadesGame(RenegeClaims):
    """Partnership Spades with ``renege = claim``."""

    __slots__ = ()


class ClaimSoloSpadesGame(RenegeClaims, SoloSpadesGame):
    """Solo Spades with ``renege = claim``."""

    __slots__ = ()

    def _reset_hand(self) -> None:
        # Each base's part, spelled out: compiled by mypyc, a base's super() is SpadesGame's,
        # not the next class of this one's method order (SpadesGame's part then runs twice).
        RenegeClaims._reset_hand(self)
        SoloSpadesGame._reset_hand(self)


# (solo, renege claims) -> class; SpadesGame picks from here when a game is made.
SpadesGame.VARIANTS.update(
    {
        (True, False): SoloSpadesGame,
        (True, True): ClaimSoloSpadesGame,
        (False, True): ClaimSpadesGame,
    }
)
