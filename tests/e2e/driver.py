"""Plays Spades through the fake Discord the way people do: slash commands and clicks."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.engine import card, entries
from bot.i18n import LANGUAGES, _, use
from bot.ui.text.games import text_of
from tests.fakediscord import (
    Channel,
    Component,
    FakeDiscord,
    Interaction,
    Message,
    Response,
    User,
)

SEAT_WORDS = ("North", "East", "South", "West")
CARD_RE = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|Big🃏|Little🃏")
CARD_FACE_RE = re.compile(r"<:c4?_([2-9TJQKA][SHDC]|BJ|LJ):\d+>")


def plain(text: str) -> str:
    """``text`` with every card face (an application emoji) written as its card (``A♠``), so
    a test finds a card whichever way the bot showed it."""
    return CARD_FACE_RE.sub(lambda m: str(card(m.group(1))), text)


async def eventually(condition: Callable[[], object], timeout: float = 15.0) -> None:  # noqa: ASYNC109
    """Poll ``condition`` until it holds (the bot works in another process)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except AssertionError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        await asyncio.sleep(0.02)


def _table_titles() -> tuple[str, ...]:
    """'♠ Spades', '♣ Whist', '♥ Euchre' in every shipped language (a server's language)."""
    out = []
    for language in LANGUAGES:
        with use(language):
            out += [f"{text_of(e.kind).symbol} {_(e.title)}" for e in entries()]
    return tuple(dict.fromkeys(out))


TABLE_TITLES = _table_titles()


def table_message(fake: FakeDiscord, channel: Channel) -> Message:
    """The newest table message (an embed titled '♠ Spades …', '♣ Whist …', '♥ Euchre …') in
    the channel."""
    for m in reversed(fake.messages(channel)):
        if m.embeds and str(m.embeds[0].get("title", "")).startswith(TABLE_TITLES):
            return m
    raise AssertionError("no table message in the channel")


def button(message: Message | Response, verb: str) -> Component:
    """The component whose custom_id has ``verb`` as its 4th part (spades:t:<id>:<verb>…)."""
    for c in message.all_components:
        if c.custom_id and c.custom_id.split(":")[3:4] == [verb]:
            return c
    raise AssertionError(
        f"no {verb!r} component in {[c.custom_id for c in message.all_components]}"
    )


def has(message: Message | Response, verb: str) -> bool:
    return any(
        c.custom_id and c.custom_id.split(":")[3:4] == [verb] for c in message.all_components
    )


def embed_text(message: Message | Response) -> str:
    return message.text


def live(hand: Message | Response | None) -> Message | Response | None:
    """The hand message as it is now: an answer's message may have been edited since."""
    if isinstance(hand, Response) and hand.message is not None:
        return hand.message
    return hand


@dataclass
class Seated:
    user: User
    hand: Message | Response | None = None


BidChooser = Callable[[list[str], random.Random], str]
# Euchre: choose one of the call buttons (by label: "Pass", "Order up", "Call ♥ alone", …).
CallChooser = Callable[[list[str], random.Random], str]


def pass_unless_stuck(labels: list[str], rng: random.Random) -> str:
    return "Pass" if "Pass" in labels else labels[0]


def bid_two(values: list[str], rng: random.Random) -> str:
    for want in ("2", "4"):
        if want in values:
            return want
    return values[0]


@dataclass
class Driver:
    fake: FakeDiscord
    channel: Channel
    players: list[Seated]
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    choose_bid: BidChooser = bid_two
    choose_call: CallChooser = pass_unless_stuck
    actions: int = 0
    latencies: list[float] = field(default_factory=list)  # Interaction.discord_latency of acts

    def table(self) -> Message:
        return table_message(self.fake, self.channel)

    async def open_hand(self, p: Seated) -> Response | Message:
        inter = await self.fake.click(p.user, self.table(), button(self.table(), "hand").custom_id)
        r = await inter.answer()
        assert r.ephemeral, "the hand must be ephemeral"
        p.hand = r
        return r

    async def refresh(self, p: Seated) -> Message | Response:
        hand = live(p.hand)
        if hand is not None and not hand.all_components:
            return hand  # the game is over: nothing left to press
        if hand is None or not has(hand, "refresh"):
            return await self.open_hand(p)
        inter = await self.fake.click(p.user, hand, button(hand, "refresh").custom_id)
        r = await inter.answer()
        p.hand = r
        return r

    def over(self) -> bool:
        text = self.table().text
        return "🏆" in text or "abandoned" in text

    @staticmethod
    def can_act(r: Message | Response) -> bool:
        return any(has(r, v) for v in ("play", "bid", "pass", "blind", "look", "call", "discard"))

    async def act(self, p: Seated, r: Message | Response) -> Message | Response:
        """Take one action from the hand message ``r`` (as it is now: the bot edits hand
        messages live); returns the answer."""
        inter = await self.choose_and_click(p, r)
        out = await inter.answer()
        if inter.discord_latency is not None:
            self.latencies.append(inter.discord_latency)
        assert out.ephemeral
        assert "⚠" not in out.text, out.text
        self.actions += 1
        p.hand = out
        return out

    async def choose_and_click(self, p: Seated, r: Message | Response) -> Interaction:
        """Choose one of the actions ``r`` offers now (a bid, a look, a pass or a card) and
        click it; returns the interaction, not yet answered."""
        r = live(r) or r
        if has(r, "bid"):
            sel = button(r, "bid")
            inter = await self.fake.select(
                p.user, r, sel.custom_id, [self.choose_bid(sel.values, self.rng)]
            )
        elif has(r, "look"):
            inter = await self.fake.click(p.user, r, button(r, "look").custom_id)
        elif has(r, "pass"):
            sel = button(r, "pass")
            inter = await self.fake.select(p.user, r, sel.custom_id, sel.values[: sel.min_values])
        elif has(r, "call"):
            calls = [c for c in r.all_components if c.custom_id and ":call:" in c.custom_id]
            label = self.choose_call([str(c.label) for c in calls], self.rng)
            chosen = next(c for c in calls if c.label == label)
            inter = await self.fake.click(p.user, r, chosen.custom_id)
        elif has(r, "discard"):
            cards = [c for c in r.all_components if c.custom_id and ":discard:" in c.custom_id]
            inter = await self.fake.click(p.user, r, self.rng.choice(cards).custom_id)
        else:
            plays = [c for c in r.all_components if c.custom_id and ":play:" in c.custom_id]
            c = self.rng.choice(plays)
            inter = await self.fake.click(p.user, r, c.custom_id)
        return inter

    async def on_turn(self, verb: str = "play") -> list[Seated]:
        """The players whose hand message offers ``verb`` now (refreshing every hand)."""
        return [p for p in self.players if has(await self.refresh(p), verb)]

    async def step(self) -> bool:
        """Find the player who can act and act once.  False when nobody can (game over)."""
        for p in self.players:
            r = await self.refresh(p)
            if self.can_act(r):
                await self.act(p, r)
                return True
        return False

    async def play_until_over(self, max_actions: int = 3000) -> None:
        while self.actions < max_actions:
            if not await self.step():
                if self.over():
                    return
                await eventually(self.over, timeout=20)
                return
        raise AssertionError(f"the game did not end within {max_actions} actions")
