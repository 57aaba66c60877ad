"""How a hint reads on the player's hand: the hard player's choice, why, and the runner-up."""

from __future__ import annotations

from bot.ai.hints import Hint
from bot.engine import Action, Bid, Call, Discard, Look, PassCards, Play, bid_text
from bot.ui.text import plural


def action_words(action: Action) -> str:
    """``play K♥``, ``bid 4``, ``bid nil``, ``order up``, ``look at your cards`` …"""
    if isinstance(action, Play):
        return f"play **{action.card}**"
    if isinstance(action, Bid):
        return f"bid **{bid_text(action.value, action.blind)}**"
    if isinstance(action, Look):
        return "**look at your cards**"
    if isinstance(action, Call):
        return f"**{action.text}**"
    if isinstance(action, Discard):
        return f"discard the **{action.card}**"
    if isinstance(action, PassCards):
        return "pass " + " ".join(f"**{c}**" for c in action.cards)
    return "?"


def hint_line(hint: Hint, taken: int) -> str:
    """``💡 Hint: play K♥ — it cashes a sure winner. Runner-up: play 4♥. (your 2nd hint)``"""
    what = action_words(hint.choice)
    line = f"💡 Hint from the hard player: {what} — {hint.reason}."
    if hint.runner_up is not None:
        line += f" Runner-up: {action_words(hint.runner_up).replace('**', '')}."
    return f"{line} ({plural(taken, 'hint')} taken this game.)"
