"""``/hand``, ``/bid``, ``/play``, ``/discard`` and every button and select of the table and hand
messages.  ``/bid`` bids in Spades and calls in Euchre (order up, pass, call a suit, alone)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.command_input import excerpt, whole_number
from bot.engine import (
    BLIND_NIL,
    NIL,
    Action,
    Bid,
    Call,
    Card,
    Discard,
    Game,
    Look,
    Play,
    Seat,
    bid_choices,
    claim_targets,
    entry_of,
    public_claims,
)
from bot.errors import Refusal, StaleButton
from bot.i18n import N_, SOURCE, _, current
from bot.i18n.cards import (
    bid_word,
    bid_words,
    call_word,
    card_name,
    cards_matching,
    seat_word,
    typed_matches,
)
from bot.i18n.cards import parse_card as parse_local_card
from bot.i18n.lines import line_text
from bot.tables.moves import ActResult
from bot.tables.state import Table, TableStatus
from bot.ui.hand.hand_actions import hand_action
from bot.ui.hand.live_editor import answer_on_hand, send_hand
from bot.ui.table.components import ComponentRef, HandVerb, MenuVerb, TableVerb
from bot.ui.table.render import claim_components
from bot.ui.text.rules_text import rules_embed
from bot.ui.text.trump_text import parse_call
from cogs.choices import parse_seat
from cogs.common import Interaction, anywhere, display_name, guild_id, reply

if TYPE_CHECKING:
    from bot.app import SpadesBot

log = logging.getLogger(__name__)
# ``/bid look``: while the cards are face down (blind nil open), see them without bidding.
LOOK_WORDS = ("look", "look at my cards", "look at cards", "look at my hand")
LOOK_CHOICE = N_("look at my cards")
BLIND_NIL_TYPED = "blind nil"  # the value of blind nil's choice, as parse_bid reads it


def parse_bid(text: str, most: int = 13) -> tuple[int, bool]:
    """``"nil"``, ``"blind nil"``, ``"4"``, ``"blind 6"`` → (value, blind); a number from 1 to
    ``most`` (the tricks of a hand: 17 with three players, games.md G2)."""
    t = " ".join(bid_words(text).lower().replace("_", " ").split())  # nulo → nil
    if t in ("nil", "0", "null", "zero"):
        return NIL, False
    if t in ("blind nil", "blindnil", "bn"):
        return BLIND_NIL, False
    blind = t.startswith("blind")
    value = whole_number(t.removeprefix("blind").strip(), 2)
    if value is not None and 1 <= value <= most:
        return value, blind
    raise Refusal(
        _(
            "{text} is not a bid: bid 1 to {most}, {nil} or {blind_nil}.",
            text=excerpt(text),
            most=most,
            nil=bid_word(NIL),
            blind_nil=bid_word(BLIND_NIL),
        )
    )


def _done_text(result: ActResult) -> str:
    a = result.action
    if isinstance(a, Play):
        return _("You played {card}.", card=a.card)
    if isinstance(a, Bid):
        if a.seat != result.seat:
            return _("Bid made.")
        return _("You bid {bid}.", bid=bid_word(a.value, a.blind))
    if isinstance(a, Look):
        return _("Here are your cards.")
    if isinstance(a, Call):
        return _("You called: {call}.", call=call_word(a.call, a.alone))
    if isinstance(a, Discard):
        return _("You discarded the {card}.", card=a.card)
    return _("Cards passed.")


def _claim_text(result: ActResult) -> str:
    game = result.table.game
    claims = public_claims(game) if game is not None else ()
    mine = [c for c in claims if c.seat == result.seat]
    if mine:
        return _("Your claim: {claim}.", claim=line_text(mine[-1].text))
    return _("Your claim was judged: see the table message.")


def _bid_choice(a: Action) -> tuple[str, str]:
    """A choice of ``/bid``'s autocomplete: (its words, the value typed for it)."""
    if isinstance(a, Call):
        return call_word(a.call, a.alone), a.text
    if isinstance(a, Look):
        return _(LOOK_CHOICE), LOOK_WORDS[0]
    assert isinstance(a, Bid)
    return bid_word(a.value, a.blind), BLIND_NIL_TYPED if a.value == BLIND_NIL else a.text


# A table button's handler: (interaction, its table, the clicked component)
TableClick = Callable[[Interaction, Table, ComponentRef], Awaitable[None]]


def _card_choice(c: Card) -> str:
    """A card as autocomplete offers it: ``A♠``, with its name in a language other than the
    source's (``A♠ — as de picas``), where the symbols alone would not say what to type."""
    return str(c) if current() == SOURCE else f"{c} — {card_name(c)}"


class PlayCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        # One handler per table verb; hand verbs act through bot.ui.hand.hand_actions.
        self._table_clicks: dict[TableVerb, TableClick] = {
            TableVerb.JOIN: self._join,
            TableVerb.ADDBOT: self._add_bot,
            TableVerb.LEAVE: self._leave,
            TableVerb.START: self._start,
            TableVerb.RULES: self._rules,
            TableVerb.HAND: self._my_hand,
            TableVerb.AGREE: self._vote,
            TableVerb.KEEP: self._vote,
            TableVerb.CLAIM: self._claim_menu,
            TableVerb.CLAIMON: self._claim_on,
        }
        bot.clicks.on(self._table_clicks, self._table_click)
        bot.clicks.on([TableVerb.AGAIN], self._play_again)
        bot.clicks.on([*HandVerb, *MenuVerb], self._hand_click)

    # ------------------------------------------------------------------ slash commands
    @app_commands.command(name="hand")
    @anywhere
    async def hand(self, interaction: Interaction) -> None:
        """Your cards, with the actions that are yours now (only you see them)."""
        table = self.tables.registry.of_user(guild_id(interaction), interaction.user.id)
        if table.game is None:
            raise Refusal(_("The game has not started yet: your cards come with the deal."))
        await self._show_hand(interaction, table)

    @app_commands.command(name="bid")
    @anywhere
    @app_commands.describe(
        bid="1-13, nil or blind nil (New York: 4-10, or blind 4-10); Euchre: pass, order up, "
        "call ♥ (add alone to go alone)"
    )
    async def bid(self, interaction: Interaction, bid: app_commands.Range[str, 1, 20]) -> None:
        """Bid (or in Euchre, call) when it is your turn."""
        uid, iid = interaction.user.id, interaction.id
        table = self.tables.registry.of_user(guild_id(interaction), uid)
        moves = self.tables.moves
        entry = entry_of(table.rules.game)
        if entry.takes(Call):
            name, alone = parse_call(bid)
            await self._move(
                interaction, table, lambda: moves.call(table, uid, name, alone, interaction_id=iid)
            )
            return
        if not entry.takes(Bid):
            raise Refusal(
                _("There is no bidding in {game}: play your cards.", game=_(table.rules.title))
            )
        look = " ".join(bid_words(bid).lower().split()) in LOOK_WORDS  # see the cards first
        if look:
            await self._move(interaction, table, lambda: moves.look(table, uid, interaction_id=iid))
            return
        # The input is checked before anything else (the seat: by the move).
        value, blind = parse_bid(bid, table.game.tricks_per_hand if table.game else 13)
        await self._move(
            interaction,
            table,
            lambda: moves.bid(table, uid, value, blind, interaction_id=iid, look_first=True),
        )

    @bid.autocomplete("bid")
    async def bid_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        turn = self._my_turn(interaction)
        if turn is None:
            return []
        said = [_bid_choice(a) for a in bid_choices(*turn)]  # as the engine orders them
        return [
            app_commands.Choice(name=n, value=v) for n, v in said if typed_matches(current, n, v)
        ][:25]

    @app_commands.command(name="play")
    @anywhere
    @app_commands.describe(card="The card, e.g. AS, 10h, Q♦ or 'queen of hearts'")
    async def play(self, interaction: Interaction, card: app_commands.Range[str, 1, 30]) -> None:
        """Play a card when it is your turn."""
        await self._card_move(interaction, card, "play")

    @app_commands.command(name="claim")
    @anywhere
    @app_commands.describe(seat="The opponent who reneged this hand: N, E, S or W")
    async def claim(self, interaction: Interaction, seat: app_commands.Range[str, 1, 10]) -> None:
        """Claim that an opponent reneged this hand (tables with renege = claim)."""
        table = self.tables.registry.of_user(guild_id(interaction), interaction.user.id)
        against = parse_seat(seat)  # in the player's words, or N, E, S, W
        assert against is not None  # the option is required
        result = await self.tables.moves.claim(
            table, interaction.user.id, against, interaction_id=interaction.id
        )
        await interaction.response.send_message(_claim_text(result), ephemeral=True)

    @claim.autocomplete("seat")
    async def claim_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.tables.registry.find_of_user(guild_id(interaction), interaction.user.id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or table.game is None or seat is None:
            return []
        cur = current.lower().strip()
        out = []
        for s in claim_targets(table.game, seat):
            occ = table.seats.get(s)
            label = f"{seat_word(s)} ({occ.shown_name})" if occ else seat_word(s)
            if cur in label.lower():
                out.append(app_commands.Choice(name=label, value=s.name))
        return out

    @play.autocomplete("card")
    async def play_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._card_choices(interaction, current, Play)

    @app_commands.command(name="discard")
    @anywhere
    @app_commands.describe(card="Euchre, the dealer after taking the up-card: the card to discard")
    async def discard(self, interaction: Interaction, card: app_commands.Range[str, 1, 30]) -> None:
        """Euchre: discard a card face down after taking the up-card (the dealer)."""
        await self._card_move(interaction, card, "discard")

    @discard.autocomplete("card")
    async def discard_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._card_choices(interaction, current, Discard)

    async def _card_move(self, interaction: Interaction, card: str, verb: str) -> None:
        """``/play`` and ``/discard``: the caller's card, played or discarded, then their hand."""
        uid = interaction.user.id
        table = self.tables.registry.of_user(guild_id(interaction), uid)
        chosen = parse_local_card(card)  # English, or the words of the player's language
        move = self.tables.moves.play if verb == "play" else self.tables.moves.discard
        await self._move(
            interaction, table, lambda: move(table, uid, chosen, interaction_id=interaction.id)
        )

    def _card_choices(
        self, interaction: Interaction, current: str, kind: type[Play] | type[Discard]
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal cards of one kind (plays or the discard) matching ``current``."""
        turn = self._my_turn(interaction)
        if turn is None:
            return []
        game, seat = turn
        legal = [a.card for a in game.legal_actions(seat) if isinstance(a, kind)]
        return [
            app_commands.Choice(name=_card_choice(c), value=c.code)
            for c in cards_matching(legal, current)
        ][:25]

    def _my_turn(self, interaction: Interaction) -> tuple[Game, Seat] | None:
        """The caller's game and seat when it is their turn now (autocomplete offers nothing
        to anyone else)."""
        table = self.tables.registry.find_of_user(guild_id(interaction), interaction.user.id)
        if table is None or table.game is None or table.status != TableStatus.PLAYING:
            return None
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.game.to_act != seat:
            return None
        return table.game, seat

    # ------------------------------------------------------------------ answers with the hand
    async def _move(
        self, interaction: Interaction, table: Table, move: Callable[[], Awaitable[ActResult]]
    ) -> None:
        """A move by slash command, answered with the player's hand.  The table service
        checks their seat (once, in the move) and follows the answer live."""
        with self.tables.live.answering(table, interaction.user.id) as answer:
            result = await move()
            await send_hand(interaction, answer, table, result.seat, _done_text(result))

    async def _show_hand(self, interaction: Interaction, table: Table) -> None:
        """``/hand`` and **My hand**: seated, playing this seat (not left: its cards are no
        longer theirs), started."""
        uid = interaction.user.id
        seat = self.tables.moves.seat_for(table, uid)
        with self.tables.live.answering(table, uid) as answer:
            await send_hand(interaction, answer, table, seat)

    # ------------------------------------------------------------------ table buttons
    async def _table_click(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        assert isinstance(ref.verb, TableVerb)
        table = self.tables.registry.get(ref.table_id)
        await self._table_clicks[ref.verb](interaction, table, ref)

    async def _join(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        await _updating(interaction, table)
        uid = interaction.user.id
        taken = await self.tables.lobby.join(table, uid, display_name(interaction), ref.seat)
        await reply(interaction, _("You sit {seat}.", seat=seat_word(taken)))

    async def _add_bot(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        await _updating(interaction, table)
        filled = await self.tables.lobby.add_bot(table, interaction.user.id, None, "normal")
        await reply(
            interaction, _("A computer player (normal) plays {seat}.", seat=seat_word(filled))
        )

    async def _leave(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        await _updating(interaction, table)
        await reply(interaction, await self.tables.lobby.leave(table, interaction.user.id))

    async def _start(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        await self.tables.lobby.start(table, interaction.user.id)
        await interaction.response.defer()

    async def _rules(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        await interaction.response.send_message(embed=rules_embed(table.rules), ephemeral=True)

    async def _my_hand(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        await self._show_hand(interaction, table)

    async def _vote(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        agree = ref.verb is TableVerb.AGREE
        await _updating(interaction, table)
        await reply(interaction, await self.tables.endings.vote(table, interaction.user.id, agree))

    async def _claim_menu(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        targets = self.tables.moves.claim_targets(table, interaction.user.id)
        await interaction.response.send_message(
            _(
                "Which opponent reneged this hand? A wrong claim bars your side from claiming "
                "again this hand."
            ),
            view=claim_components(table, targets),
            ephemeral=True,
        )

    async def _claim_on(self, interaction: Interaction, table: Table, ref: ComponentRef) -> None:
        if ref.seat is None:
            raise Refusal(_("That button names no seat."))
        result = await self.tables.moves.claim(
            table, interaction.user.id, ref.seat, interaction_id=interaction.id
        )
        await reply(interaction, _claim_text(result))

    async def _play_again(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        """**Play again** on a game-over message: same seats and rules, a new table, started."""
        lobby, uid = self.tables.lobby, interaction.user.id
        old = lobby.check_play_again(ref.table_id, uid)
        if old.place.by_interaction:  # the new table is a public follow-up of this click
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        table = await lobby.play_again(ref.table_id, uid)
        message = await self.bot.publisher.post_table_message(table, via=interaction)
        await interaction.followup.send(
            _(
                "A new game has started with the same seats and rules: {link}",
                link=message.jump_url,
            ),
            ephemeral=True,
        )

    # ------------------------------------------------------------------ hand buttons
    async def _hand_click(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        """A button or select of a hand message: the move it asks for (the seat and hand
        number it carries checked once, by the move), answered by editing that message to the
        current hand — with what was done, or why not."""
        uid = interaction.user.id
        try:
            table = self.tables.registry.get(ref.table_id)
        except StaleButton:
            await interaction.response.edit_message(
                content=_("That game is over."), embed=None, view=None
            )
            return

        async def act() -> str | None:
            if ref.verb is HandVerb.REFRESH:  # from any hand: it asks for the current one
                self.tables.moves.seat_for(table, uid, ref.seat)
                return None
            result = await self.tables.moves.act(
                table,
                uid,
                lambda seat: hand_action(seat, ref, values),
                interaction_id=interaction.id,
                button_seat=ref.seat,
                button_hand=ref.hand,
            )
            return _done_text(result)

        await answer_on_hand(interaction, self.tables.live, table, ref.seat, act)


async def _updating(interaction: Interaction, table: Table) -> None:
    """A click that changes the table, outside servers: acknowledged as an update of the
    clicked message (the answer follows, ephemeral), so that — on the table message — its
    token can edit the table from now on, keeping it current without a re-post
    (bot/ui/discord/surfaces.py).  In a server the bot edits its own channel message: no need."""
    if table.place.by_interaction:
        await interaction.response.defer()


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(PlayCog(bot))
