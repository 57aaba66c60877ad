"""``/hand``, ``/bid``, ``/play``, ``/discard`` and every button and select of the table and hand
messages.  ``/bid`` bids in Spades and calls in Euchre (order up, pass, call a suit, alone)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import logsafe, timely
from bot.command_input import excerpt, whole_number
from bot.engine import (
    BLIND_NIL,
    NIL,
    Action,
    Bid,
    Call,
    CardParseError,
    Discard,
    Game,
    IllegalAction,
    Look,
    Play,
    Seat,
    SpadesError,
    card,
    parse_card,
)
from bot.errors import Duplicate, NotYourButtons, Refusal, StaleButton
from bot.tables.live import Answer, LiveHands, live_key
from bot.tables.moves import ActResult, Moves
from bot.tables.state import Table
from bot.ui.components import ComponentRef, set_handler
from bot.ui.hand import hand_payload
from bot.ui.live_editor import hand_message
from bot.ui.render import claim_components
from bot.ui.rules_text import rules_embed
from bot.ui.trump_text import call_from_value, parse_call
from cogs.common import Interaction, anywhere, client, display_name, guild_id, reply

log = logging.getLogger(__name__)
# ``/bid look``: while the cards are face down (blind nil open), see them without bidding.
LOOK_WORDS = ("look", "look at my cards", "look at cards", "look at my hand")
LOOK_CHOICE = "look at my cards"


def parse_bid(text: str, most: int = 13) -> tuple[int, bool]:
    """``"nil"``, ``"blind nil"``, ``"4"``, ``"blind 6"`` → (value, blind); a number from 1 to
    ``most`` (the tricks of a hand: 17 with three players, games.md G2)."""
    t = " ".join(text.lower().replace("_", " ").split())
    if t in ("nil", "0", "null", "zero"):
        return NIL, False
    if t in ("blind nil", "blindnil", "bn"):
        return BLIND_NIL, False
    blind = t.startswith("blind")
    value = whole_number(t.removeprefix("blind").strip(), 2)
    if value is not None and 1 <= value <= most:
        return value, blind
    raise Refusal(f"{excerpt(text)} is not a bid: bid 1 to {most}, nil or blind nil.")


def _done_text(result: ActResult) -> str:
    a = result.action
    if isinstance(a, Play):
        return f"You played {a.card}."
    if isinstance(a, Bid):
        return f"You bid {a.text}." if a.seat == result.seat else "Bid made."
    if isinstance(a, Look):
        return "Here are your cards."
    if isinstance(a, Call):
        return f"You called: {a.text}."
    if isinstance(a, Discard):
        return f"You discarded the {a.card}."
    return "Cards passed."


def _claim_text(result: ActResult) -> str:
    game = result.table.game
    claims = game.claim_results if game is not None else ()
    mine = [c for c in claims if c.seat == result.seat]
    if mine:
        return f"Your claim: {mine[-1].text}."
    return "Your claim was judged: see the table message."


def _no_claim_reason(game: Game, seat: Seat) -> str:
    if game.phase.value != "play":
        return "Claims are made while the cards are played."
    if not game.plays:
        return "No card has been played yet this hand."
    return "Your side made a wrong claim this hand, so it cannot claim again."


class PlayCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.moves: Moves = bot.tables.moves  # type: ignore[attr-defined]
        self.live: LiveHands = bot.tables.live  # type: ignore[attr-defined]
        set_handler(self.on_component)

    async def show_hand(
        self,
        interaction: Interaction,
        answer: Answer,
        table: Table,
        seat: Seat,
        notice: str | None = None,
        *,
        edit: bool = False,
    ) -> None:
        """Answer with the player's hand (a new ephemeral message, or ``edit`` the one the
        button is on); that message then follows the game live (:mod:`bot.tables.live`)."""
        payload = hand_payload(table, seat, notice, edit=edit)
        key = live_key(table, seat)
        if edit:
            answered = await interaction.response.edit_message(**payload)
        else:
            answered = await interaction.response.send_message(**payload, ephemeral=True)
        handle = hand_message(interaction, answered, edited=edit)
        if handle is not None:
            answer.shown(handle, key)

    # ------------------------------------------------------------------ slash commands
    @app_commands.command(name="hand")
    @anywhere
    async def hand(self, interaction: Interaction) -> None:
        """Your cards, with the actions that are yours now (only you see them)."""
        gid = guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.of_user(gid, interaction.user.id)
        if table.game is None:
            raise Refusal("The game has not started yet: your cards come with the deal.")
        seat = self.moves.seat_for(table, interaction.user.id)  # a seat left is not yours
        with self.live.answering(table, seat, interaction.user.id) as answer:
            await self.show_hand(interaction, answer, table, seat)

    @app_commands.command(name="bid")
    @anywhere
    @app_commands.describe(
        bid="1-13, nil or blind nil (New York: 4-10, or blind 4-10); Euchre: pass, order up, "
        "call ♥ (add alone to go alone)"
    )
    async def bid(self, interaction: Interaction, bid: app_commands.Range[str, 1, 20]) -> None:
        """Bid (or in Euchre, call) when it is your turn."""
        gid = guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.of_user(gid, interaction.user.id)
        if table.rules.game == "euchre":
            name, alone = parse_call(bid)
            seat = bot.tables.moves.seat_for(table, interaction.user.id)
            with self.live.answering(table, seat, interaction.user.id) as answer:
                result = await bot.tables.moves.call(
                    table, interaction.user.id, name, alone, interaction_id=interaction.id
                )
                await self.show_hand(interaction, answer, table, result.seat, _done_text(result))
            return
        if table.rules.game != "spades":
            raise Refusal(f"There is no bidding in {table.rules.title}: play your cards.")
        look = " ".join(bid.lower().split()) in LOOK_WORDS  # cards face down: see them first
        if not look:  # input is checked before anything else
            value, blind = parse_bid(bid, table.game.tricks_per_hand if table.game else 13)
        seat = bot.tables.moves.seat_for(table, interaction.user.id)
        if look:
            with self.live.answering(table, seat, interaction.user.id) as answer:
                result = await bot.tables.moves.look(
                    table, interaction.user.id, interaction_id=interaction.id
                )
                await self.show_hand(interaction, answer, table, result.seat, _done_text(result))
            return
        with self.live.answering(table, seat, interaction.user.id) as answer:
            result = await bot.tables.moves.bid(
                table,
                interaction.user.id,
                value,
                blind,
                interaction_id=interaction.id,
                look_first=True,
            )
            await self.show_hand(interaction, answer, table, result.seat, _done_text(result))

    @bid.autocomplete("bid")
    async def bid_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        turn = self._my_turn(interaction)
        if turn is None:
            return []
        game, seat = turn
        legal: list[Action] = game.legal_actions(seat)
        cur = current.lower().strip()
        calls = [a for a in legal if isinstance(a, Call)]
        if calls:  # Euchre: exactly the calls that are legal now
            return [
                app_commands.Choice(name=a.text, value=a.text)
                for a in calls
                if cur in a.text.lower()
            ][:25]
        names: list[tuple[str, str]] = []
        for a in legal:
            if isinstance(a, Bid):
                value = "blind nil" if a.value == BLIND_NIL else a.text
                names.append((value, value))
        if any(isinstance(a, Look) for a in legal):
            # Cards face down: the blind choices above, looking, then the bids open whatever
            # the cards are (the game decides them without reading the cards).
            names.append((LOOK_CHOICE, LOOK_WORDS[0]))
            names.extend((b.text, b.text) for b in game.unseen_bids(seat))
        return [app_commands.Choice(name=n, value=v) for n, v in names if cur in n][:25]

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
        gid = guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.of_user(gid, interaction.user.id)
        if not table.rules.claims:
            raise Refusal("Renege claims are not played at this table (renege = prevented).")
        try:
            against = Seat.parse(seat)
        except ValueError as e:
            raise Refusal(str(e)) from None
        result = await bot.tables.moves.claim(
            table, interaction.user.id, against, interaction_id=interaction.id
        )
        await interaction.response.send_message(_claim_text(result), ephemeral=True)

    @claim.autocomplete("seat")
    async def claim_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = client(interaction).tables.registry.find_of_user(
            guild_id(interaction), interaction.user.id
        )
        seat = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or table.game is None or seat is None:
            return []
        cur = current.lower().strip()
        out = []
        for s in table.game.claim_targets(seat):
            occ = table.seats.get(s)
            label = f"{s.word} ({occ.name})" if occ else s.word
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
        bot = client(interaction)
        table = bot.tables.registry.of_user(guild_id(interaction), interaction.user.id)
        chosen = parse_card(card)
        seat = bot.tables.moves.seat_for(table, interaction.user.id)
        move = bot.tables.moves.play if verb == "play" else bot.tables.moves.discard
        with self.live.answering(table, seat, interaction.user.id) as answer:
            result = await move(table, interaction.user.id, chosen, interaction_id=interaction.id)
            await self.show_hand(interaction, answer, table, result.seat, _done_text(result))

    def _card_choices(
        self, interaction: Interaction, current: str, kind: type[Play] | type[Discard]
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal cards of one kind (plays or the discard) matching ``current``."""
        turn = self._my_turn(interaction)
        if turn is None:
            return []
        game, seat = turn
        cur = current.lower().strip()
        return [
            app_commands.Choice(name=str(a.card), value=a.card.code)
            for a in game.legal_actions(seat)
            if isinstance(a, kind)
            and (cur in str(a.card).lower() or cur in a.card.code.lower() or cur in a.card.name)
        ][:25]

    def _my_turn(self, interaction: Interaction) -> tuple[Game, Seat] | None:
        """The caller's game and seat when it is their turn now (autocomplete offers nothing
        to anyone else)."""
        table = client(interaction).tables.registry.find_of_user(
            guild_id(interaction), interaction.user.id
        )
        if table is None or table.game is None or table.status != "playing":
            return None
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.game.to_act != seat:
            return None
        return table.game, seat

    # ------------------------------------------------------------------ components
    async def on_component(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        try:
            if ref.seat is not None and ref.hand is not None:
                await self._hand_component(interaction, ref, values)
            else:
                await self._table_component(interaction, ref)
        except Duplicate:
            timely.ignore_repeat(interaction)
            return
        except (Refusal, SpadesError) as e:
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, e.reason)
        except Exception:
            log.exception("button %s failed", logsafe.custom_id(ref.custom_id))
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, "Sorry, something went wrong on my side. Try again.")

    async def _table_component(self, interaction: Interaction, ref: ComponentRef) -> None:
        guild_id(interaction)
        bot = client(interaction)
        uid = interaction.user.id
        if ref.verb == "again":
            await self._play_again(interaction, ref.table_id)
            return
        table = bot.tables.registry.get(ref.table_id)
        if ref.verb == "join":
            taken = await bot.tables.lobby.join(table, uid, display_name(interaction), ref.seat)
            await reply(interaction, f"You sit {taken.word}.")
        elif ref.verb == "addbot":
            filled = await bot.tables.lobby.add_bot(table, uid, None, "normal")
            await reply(interaction, f"A computer player (normal) plays {filled.word}.")
        elif ref.verb == "leave":
            await reply(interaction, await bot.tables.lobby.leave(table, uid))
        elif ref.verb == "start":
            await bot.tables.lobby.start(table, uid)
            await interaction.response.defer()
        elif ref.verb == "rules":
            await interaction.response.send_message(embed=rules_embed(table.rules), ephemeral=True)
        elif ref.verb == "hand":
            # Seated, playing this seat (not left: its cards are no longer theirs), started.
            mine = self.moves.seat_for(table, uid)
            with self.live.answering(table, mine, uid) as answer:
                await self.show_hand(interaction, answer, table, mine)
        elif ref.verb == "claim":
            seat = table.seat_of(uid)
            if seat is None:
                raise Refusal("You are not seated at this table.")
            if table.game is None or not table.rules.claims:
                raise Refusal("Renege claims are not played at this table.")
            targets = table.game.claim_targets(seat)
            if not targets:
                raise Refusal(_no_claim_reason(table.game, seat))
            await interaction.response.send_message(
                "Which opponent reneged this hand? A wrong claim bars your side from claiming "
                "again this hand.",
                view=claim_components(table, targets),
                ephemeral=True,
            )
        elif ref.verb == "claimon" and ref.seat is not None:
            result = await bot.tables.moves.claim(
                table, uid, ref.seat, interaction_id=interaction.id
            )
            await reply(interaction, _claim_text(result))
        elif ref.verb in ("agree", "keep"):
            await reply(interaction, await bot.tables.endings.vote(table, uid, ref.verb == "agree"))

    async def _play_again(self, interaction: Interaction, finished_id: str) -> None:
        """**Play again** on a game-over message: same seats and rules, a new table, started."""
        bot = client(interaction)
        old = bot.tables.lobby.check_play_again(finished_id, interaction.user.id)
        if old.place.by_interaction:  # the new table is a public follow-up of this click
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        table = await bot.tables.lobby.play_again(finished_id, interaction.user.id)
        message = await bot.publisher.post_table_message(table, via=interaction)
        await interaction.followup.send(
            f"A new game has started with the same seats and rules: {message.jump_url}",
            ephemeral=True,
        )

    async def _hand_component(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        bot = client(interaction)
        uid = interaction.user.id
        try:
            table = bot.tables.registry.get(ref.table_id)
        except StaleButton:
            await interaction.response.edit_message(
                content="That game is over.", embed=None, view=None
            )
            return
        try:
            bot.tables.moves.seat_for(table, uid, ref.seat, ref.hand)
        except NotYourButtons as e:
            await interaction.response.send_message(e.reason, ephemeral=True)
            return
        except StaleButton as e:
            seat = table.seat_of(uid)
            if seat is not None and table.game is not None:
                with self.live.answering(table, seat, uid) as answer:
                    await self.show_hand(interaction, answer, table, seat, e.reason, edit=True)
                return
            raise
        assert ref.seat is not None
        with self.live.answering(table, ref.seat, uid) as answer:
            notice: str | None = None
            try:
                result = await self._act(table, uid, ref, values, interaction.id)
                notice = _done_text(result) if result is not None else None
            except Duplicate:
                timely.ignore_repeat(interaction)
                return
            except (IllegalAction, Refusal, CardParseError) as e:
                if isinstance(e, NotYourButtons):
                    await interaction.response.send_message(e.reason, ephemeral=True)
                    return
                notice = f"⚠ {e.reason}"
            await self.show_hand(interaction, answer, table, ref.seat, notice, edit=True)

    async def _act(
        self, table: Table, uid: int, ref: ComponentRef, values: list[str], iid: int
    ) -> ActResult | None:
        moves = self.moves
        common: dict[str, Any] = {
            "interaction_id": iid,
            "button_seat": ref.seat,
            "button_hand": ref.hand,
        }
        if ref.verb == "refresh":
            return None
        if ref.verb == "play" and ref.card:
            return await moves.play(table, uid, card(ref.card), **common)
        if ref.verb == "call" and ref.card and ref.seat is not None:
            call = call_from_value(ref.seat, ref.card)
            return await moves.call(table, uid, call.call, call.alone, **common)
        if ref.verb == "discard" and ref.card:
            return await moves.discard(table, uid, card(ref.card), **common)
        if ref.verb == "look":
            return await moves.look(table, uid, **common)
        if ref.verb == "blind":
            return await moves.bid(table, uid, BLIND_NIL, **common)
        if ref.verb == "bid" and values:
            raw = values[0]
            blind = raw.startswith("blind")
            number = whole_number(raw.removeprefix("blind"), 2)
            if raw != "nil" and number is None:
                raise Refusal(f"{excerpt(raw)} is not a bid: pick one from the menu.")
            value = NIL if number is None else number
            return await moves.bid(table, uid, value, blind, **common)
        if ref.verb == "pass" and values:
            try:
                cards = tuple(card(v) for v in values[:13])
            except (KeyError, ValueError):
                raise Refusal("Those are not cards of yours: pick them from the menu.") from None
            return await moves.pass_cards(table, uid, cards, **common)
        return None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
