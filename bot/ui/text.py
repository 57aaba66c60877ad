"""Words and small pieces of text shared by every message the bot renders."""

from __future__ import annotations

from bot.engine import Rules, Seat, Team, card
from bot.engine.rules import GAME_TITLES
from bot.tables.state import Table

TEAM_NAMES = ("North–South", "East–West")
PRESET_TITLES = {
    "standard": "Standard",
    "short": "Short game",
    "house": "House rules",
    "guide": "Guide rules",
    "tennessee": "Tennessee",
    "no-set": "No-set",
    "joker": "Joker Spades",
    "jjdd": "Joker-Joker-Deuce-Deuce",
    "new-york": "New York",
    "whist": "Whist",
    "short-whist": "Short whist",
    "euchre": "Euchre",
    "solo": "Solo (cutthroat)",
    "cutthroat-3": "Cutthroat for three",
    "suicide": "Suicide",
    "whiz": "Whiz",
    "mirror": "Mirror",
}


def signed(n: int) -> str:
    """``+70``, ``−50`` (a real minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def number(n: int) -> str:
    """A score: ``−1,250`` with a real minus sign."""
    return f"−{-n:,}" if n < 0 else f"{n:,}"


def preset_title(rules: Rules) -> str:
    return PRESET_TITLES.get(rules.preset, rules.preset)


def game_title(rules: Rules) -> str:
    """The table message's title: the game, the preset and the target the table plays to."""
    game = GAME_TITLES.get(rules.game, rules.game)
    return f"♠ {game} · {preset_title(rules)} · to {rules.target:,}"


def team_name(team: Team) -> str:
    return TEAM_NAMES[team]


def seat_names(table: Table) -> dict[Seat, str]:
    """Who sits where, as the table shows it."""
    out = {}
    for s in table.seat_order:  # N, E, S with three players
        occ = table.seats.get(s)
        if occ is None:
            out[s] = "*(empty)*"
        elif occ.left:
            out[s] = f"Computer ({occ.bot_level}) · {occ.name} left"
        elif occ.away:
            out[s] = f"{occ.name} (a computer plays)"
        else:
            out[s] = occ.name
    return out


def dealer_draw_text(draw: list[dict[str, str]], dealer: Seat) -> str:
    """``North 6♥ · East K♦ · South 2♣ · West 9♠ → East deals first`` (ties redraw)."""
    rounds = []
    for d in draw:
        rounds.append(" · ".join(f"{Seat[s].word} {card(code)}" for s, code in d.items()))
    return " · then ".join(rounds) + f" → **{dealer.word}** deals first"
