"""How a hint reads on the player's hand: the hard player's choice, why, and the runner-up."""

from __future__ import annotations

from bot.ai.hints import Hint
from bot.engine import Action, Bid, Call, Discard, Look, PassCards, Play
from bot.i18n import _, _n
from bot.i18n.cards import bid_word, call_word


def action_words(action: Action) -> str:
    """``play K♥``, ``bid 4``, ``bid nil``, ``order up``, ``look at your cards`` …"""
    if isinstance(action, Play):
        return _("play **{card}**", card=action.card)
    if isinstance(action, Bid):
        return _("bid **{bid}**", bid=bid_word(action.value, action.blind))
    if isinstance(action, Look):
        return _("**look at your cards**")
    if isinstance(action, Call):
        return f"**{call_word(action.call, action.alone)}**"
    if isinstance(action, Discard):
        return _("discard the **{card}**", card=action.card)
    if isinstance(action, PassCards):
        return _("pass {cards}", cards=" ".join(f"**{c}**" for c in action.cards))
    return "?"


def hint_line(hint: Hint, taken: int) -> str:
    """``💡 Hint: play K♥ — it cashes a sure winner. Runner-up: play 4♥. (your 2nd hint)``"""
    line = _(
        "💡 Hint from the hard player: {what} — {why}.",
        what=action_words(hint.choice),
        why=str(hint.reason),  # the reason's words are the reader's (bot.ai.hint_reasons)
    )
    if hint.runner_up is not None:
        runner = action_words(hint.runner_up).replace("**", "")
        line += " " + _("Runner-up: {what}.", what=runner)
    return line + " " + _n("({n} hint taken this game.)", "({n} hints taken this game.)", taken)
