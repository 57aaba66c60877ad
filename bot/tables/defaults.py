"""The rules a new table starts with: its preset, plus this bot's mercy rule.

Under most presets a game with two sinking teams can go on for ever (seen: 12 hands, −1,701
to −2,355, and no end in sight), because the game ends only when a team *reaches* the target.
So a new table also gets ``lose_at``: a team whose score falls to minus the preset's target or
below loses (−500 in a 500-point game, −250 in the short game).  The host may change it or
switch it off (``/spades rule lose_at off``) before the start.

* ``new-york`` has none: its seed lists how its games end (a Boston, a team set twice in a
  row, 500 points), and set-twice already ends a sinking game.  Nor have Whist and Euchre:
  their scores never go down.
* The presets themselves (``bot.engine.rules``, the spec's table) keep ``lose_at`` off, and a
  table's record names ``lose_at`` explicitly as an override: records stored before this rule
  existed replay exactly as they were played.  See ``docs/rules.md`` ("Mercy rule").
"""

from __future__ import annotations

from typing import Any, Final

from bot.engine import Rules, entry_of

NO_MERCY: Final = frozenset({"new-york"})


def mercy_lose_at(preset: str) -> int | None:
    """The mercy rule's ``lose_at`` for a preset: minus its target (``None``: no mercy rule)."""
    rules = Rules.from_preset(preset)
    if preset in NO_MERCY or "lose_at" not in entry_of(rules.game).options:
        return None
    return -rules.target


def default_rules(preset: str, **overrides: Any) -> Rules:
    """A new table's rules: ``preset`` with the mercy rule, then ``overrides`` (checked like
    user input; raises :class:`~bot.engine.RulesError`)."""
    lose_at = mercy_lose_at(preset)
    base: dict[str, Any] = {} if lose_at is None else {"lose_at": lose_at}
    return Rules.from_preset(preset, **{**base, **overrides})
