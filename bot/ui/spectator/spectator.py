"""A spectator's view of a table: the trick in progress and the last trick, bids and
contracts, tricks won, scores, whose turn it is and the countdown — and, at a table whose host
chose ``spectators: hands after each hand``, the deal of the hand just finished.

Rendered from the **public view only** (:func:`bot.engine.seat_view` with no seat) and from a
:class:`Stage` — the table's public facts (names, status, countdown), which holds no game — so
no card that is still in a hand can reach a spectator.  A finished hand's deal comes from the
public view's results: a hand is in them only once it is over.

At a table whose options set a ``delay`` (a tournament's organiser chose it) the public view
is the game's as it stood that many completed tricks ago (:func:`bot.engine.rewind.rewound`):
no countdown, and until the table has played that many tricks — or once its game is over —
a short note instead (:func:`held_back_message`), never the live state.

:func:`spectator_message` is plain data (Discord JSON for the embed and components, and the
picture to attach), shared by the answer to a click and the live edits of every spectator of
the table (:mod:`bot.ui.spectator.spectator_editor`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot.engine import Game, HandResult, Seat, SeatView, Team, seat_view
from bot.engine.rewind import rewound
from bot.i18n import _
from bot.i18n.cards import seat_word
from bot.tables.state import Table, TableStatus
from bot.ui.images.deal import suit_lines
from bot.ui.table.components import ComponentRef, WatchVerb
from bot.ui.table.controls import Control, controls_json
from bot.ui.table.render import GOLD, final_text
from bot.ui.text.card_emojis import CARD_EMOJIS, CardFaces
from bot.ui.text.games import game_title, text_of
from bot.ui.text.seed_text import boards_withheld_note
from bot.ui.text.words import number, seat_names, team_name

BLUE: Final = 0x3F51B5
SUIT_ORDER: Final = "SHDC"


@dataclass(frozen=True, slots=True)
class Stage:
    """What a spectator may know of a table besides the public view: no game in here."""

    table_id: str
    guild_id: int
    names: dict[Seat, str]
    computers: frozenset[Seat]  # seats a computer plays now (no countdown is shown for them)
    status: TableStatus  # playing, finished or abandoned
    deadline: float | None
    shows_deals: bool  # ``spectators: hands after each hand``
    # a duplicate round's board other tables may still play: its deal is not shown
    boards_withheld: bool
    final: str  # the table message's end line, once the game is over ("" before)

    @classmethod
    def of(cls, table: Table, view: SeatView) -> Stage:
        return cls(
            table_id=table.id,
            guild_id=table.guild_id,
            names=seat_names(table),
            computers=frozenset(s for s, o in table.seats.items() if o.is_computer),
            status=table.status,
            deadline=None if table.options.delay else table.deadline,  # not the live turn's
            shows_deals=table.options.shows_deals,
            boards_withheld=table.boards_withheld,
            final="" if table.open else final_text(table, view),
        )


@dataclass(frozen=True, slots=True)
class DealPicture:
    """The deal picture of a finished hand, attached as ``filename``."""

    filename: str
    result: HandResult


@dataclass(frozen=True, slots=True)
class SpectatorMessage:
    embed: dict[str, Any]
    controls: tuple[Control, ...]
    picture: DealPicture | None

    def json(self) -> dict[str, Any]:
        """The message as Discord's JSON (``embeds``, ``components``)."""
        return {"embeds": [self.embed], "components": controls_json(list(self.controls))}


def game_behind(table: Table) -> Game | None:
    """The game of a table shown ``delay`` tricks behind, as it stood then (``None``: not
    that far yet)."""
    assert table.game is not None
    return rewound(table.game, table.options.delay)


def public_scene(
    table: Table, behind: Callable[[Table], Game | None] = game_behind
) -> tuple[Stage, SeatView] | None:
    """The two things a spectator's view is drawn from: the stage and the public view (of
    the game ``delay`` tricks ago at a table shown that far behind, by ``behind``; ``None``
    while it has not played that many, and once its game is over)."""
    assert table.game is not None
    game: Game | None = table.game
    if table.options.delay:
        game = behind(table) if table.open else None
    if game is None:
        return None
    view = seat_view(game, None)
    return Stage.of(table, view), view


def held_back_message(table: Table) -> SpectatorMessage:
    """What a spectator of a table shown ``delay`` tricks behind sees when there is nothing
    to show yet (or any more): why, and nothing of the game."""
    delay = table.options.delay
    if table.open:
        text = _(
            "The organiser shows this table's game {n} tricks behind: this view begins once "
            "the table has played them, and then follows the game {n} tricks behind.",
            n=delay,
        )
        controls: tuple[Control, ...] = (
            Control(ComponentRef(table.id, WatchVerb.REWATCH), _("Refresh"), 0, emoji="🔄"),
            Control(ComponentRef(table.id, WatchVerb.UNWATCH), _("Stop watching"), 0),
        )
    else:
        text = _("This game is over: the tournament's standings give its result.")
        controls = ()
    embed: dict[str, Any] = {
        "title": f"👁 {game_title(table.rules)}",
        "description": text,
        "color": BLUE,
        "footer": {"text": _("Watching table {table} · only you see this view", table=table.id)},
    }
    return SpectatorMessage(embed, controls, None)


def spectator_message(stage: Stage, view: SeatView) -> SpectatorMessage:
    """The spectator's view of the table (``view`` must be the public one)."""
    if view.seat is not None:
        raise ValueError("a spectator's view is drawn from the public view only")
    faces = CARD_EMOJIS.for_guild(stage.guild_id)
    playing = stage.status == TableStatus.PLAYING
    fields: list[dict[str, Any]] = []
    if view.rules.partnerships:
        for team in Team:
            fields.extend(_seat_field(stage, view, s) for s in team.seats)
            fields.append(_field(team_name(team), _team_lines(view, team)))
    else:
        for s in view.seats:
            fields.append(_seat_field(stage, view, s, score=True))
    trump = text_of(view.rules.game).trump_line(view)
    if trump is not None:
        fields.append(_field(_("Trump"), trump, inline=False))
    if view.current_trick:
        fields.append(_field(_("Trick"), _cards(view.current_trick, faces), inline=False))
    if view.completed_tricks:
        last = view.completed_tricks[-1]
        text = (
            f"{_cards(last.cards, faces)}  → {stage.names[last.winner]} ({seat_word(last.winner)})"
        )
        fields.append(_field(_("Last trick"), text, inline=False))
    picture = None
    if stage.shows_deals and view.results:
        result = view.results[-1]
        dealt = _("Hand {number} as dealt", number=number(result.number))
        if stage.boards_withheld:
            fields.append(_field(dealt, boards_withheld_note(result.number), inline=False))
        else:
            fields.append(_field(dealt, _deal_text(stage, view, result)))
            picture = DealPicture(f"deal-{stage.table_id}-{result.number}.png", result)
    embed: dict[str, Any] = {
        "title": f"👁 {game_title(view.rules)}",
        "description": _status(stage, view) if playing else stage.final,
        "color": BLUE if playing else GOLD.value,
        "fields": fields,
        "footer": {
            "text": _(
                "Watching table {table} · hand {number} · "
                "only you see this view; it follows the game",
                table=stage.table_id,
                number=number(view.hand_number),
            )
        },
    }
    if picture is not None:
        embed["image"] = {"url": f"attachment://{picture.filename}"}
    controls: tuple[Control, ...] = ()
    if playing:
        controls = (
            Control(ComponentRef(stage.table_id, WatchVerb.REWATCH), _("Refresh"), 0, emoji="🔄"),
            Control(ComponentRef(stage.table_id, WatchVerb.UNWATCH), _("Stop watching"), 0),
        )
    return SpectatorMessage(embed, controls, picture)


def _field(name: str, value: str, *, inline: bool = True) -> dict[str, Any]:
    return {"name": name, "value": value or "—", "inline": inline}


def _cards(cards: tuple[tuple[Seat, Any], ...], faces: CardFaces) -> str:
    return "  ".join(f"{seat_word(s)} {faces.inline(c)}" for s, c in cards)


def _seat_field(stage: Stage, view: SeatView, seat: Seat, *, score: bool = False) -> dict[str, Any]:
    on_turn = view.to_act == seat and stage.status == TableStatus.PLAYING
    dealer = " · " + _("dealer") if seat == view.dealer else ""
    head = ("▶ " if on_turn else "") + seat_word(seat) + dealer
    name = f"**{stage.names[seat]}**" if on_turn else stage.names[seat]
    action = text_of(view.rules.game).seat_action(view, seat)
    lines = [name, action + _("won {n}", n=number(view.tricks_won[seat]))]
    if seat == view.sitting_out:
        lines[1] = _("sits this hand out")
    if score:
        lines.append(_("**{points}** points", points=number(view.scores[seat])))
    if on_turn and stage.deadline is not None and seat not in stage.computers:
        lines.append(f"⏱ <t:{int(stage.deadline)}:R>")
    return _field(head, "\n".join(lines))


def _team_lines(view: SeatView, team: Team) -> str:
    lines = [_("**{points}** points", points=number(view.scores[team]))]
    lines += text_of(view.rules.game).team_lines(view, team)
    return "\n".join(lines)


def _status(stage: Stage, view: SeatView) -> str:
    seat = view.to_act
    if seat is None:
        return _("Hand {number}", number=number(view.hand_number)) + " · " + _("dealing…")
    what = text_of(view.rules.game).doing(view)
    if what is None:
        what = _("to play") if view.current_trick else _("to lead")
    hand = _("Hand {number}", number=number(view.hand_number))
    line = f"{hand} · ▶ **{stage.names[seat]}** ({seat_word(seat)}) {what}"
    if stage.deadline is not None and seat not in stage.computers:
        line += " · " + _("time runs out {when}", when=f"<t:{int(stage.deadline)}:R>")
    return line + "."


def _deal_text(stage: Stage, view: SeatView, result: HandResult) -> str:
    """Each seat's cards as dealt in the finished hand ``result``, by suit."""
    lines = []
    about = text_of(view.rules.game).result_line(result, stage.names)
    if about:
        lines.append(about)
    for s in view.seats:
        suits = suit_lines(result.deal[s], view.rules, result.trump)
        cards = " · ".join(" ".join(str(c) for c in line.cards) for line in suits)
        lines.append(f"**{seat_word(s)}** {stage.names[s]}: {cards}")
    return "\n".join(lines)


def watch_choices(tables: list[Table], current: str) -> list[tuple[str, str]]:
    """``/spades watch``'s autocomplete: the games of the server that may be watched, as
    (label, table id) — names, the game and the hand; never a card."""
    cur = current.lower().strip()
    out = []
    for t in tables:
        if t.status != TableStatus.PLAYING or t.game is None or not t.options.watchable:
            continue
        names = seat_names(t, markdown=False)  # autocomplete is plain text
        who = ", ".join(f"{seat_word(s)} {names[s]}" for s in t.seat_order)
        if t.options.delay:  # shown behind the game: not where it is now
            hand = _("{n} tricks behind", n=t.options.delay)
        else:
            hand = _("hand {number}", number=number(t.game.hand_number))
        label = f"{game_title(t.rules)} · {hand} · {who}"[:100]
        if cur in label.lower() or cur in t.id:
            out.append((label, t.id))
    return out[:25]
