"""No channel message, embed, custom id or other player's reply ever shows a hidden card."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, plain
from tests.e2e.flows import four_player_game
from tests.fakediscord import BotProcess, FakeDiscord, User

CODE_OF = {"10": "T"}


def code(display: str) -> str:
    """'10♥' → 'TH' (the record code used in custom ids)."""
    suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[display[-1]]
    rank = display[:-1]
    return CODE_OF.get(rank, rank) + suit


def seen_by(fake: FakeDiscord, user: User) -> tuple[str, list[str]]:
    """Everything ``user`` could have read (with every earlier version of edited messages)
    and every custom id on those messages."""
    texts, ids = [], []
    for m in fake.visible_messages(user):
        for state in m.versions:
            # The draw for the first dealer is public and comes from its own shuffle.
            lines = plain(state.text).splitlines()
            texts.extend(line for line in lines if not line.startswith("Draw for dealer:"))
            ids.extend(i for i in state.custom_ids if i)
    return "\n".join(texts), ids


async def current_hands(driver: Driver) -> dict[int, list[str]]:
    out = {}
    for p in driver.players:
        r = await driver.refresh(p)
        out[p.user.id] = CARD_RE.findall(r.embeds[0].get("description", ""))
    return out


def assert_nothing_hidden_seen(
    fake: FakeDiscord, players: list[Seated], hands: dict[int, list[str]]
) -> None:
    for p in players:
        hidden = {c for uid, cards in hands.items() if uid != p.user.id for c in cards}
        hidden.discard("Big🃏")
        hidden.discard("Little🃏")
        text, ids = seen_by(fake, p.user)
        leaked = {c for c in hidden if c in text}
        assert not leaked, f"{p.user.name} could see {leaked}"
        codes = {code(c) for c in hidden}
        leaked_ids = [i for i in ids if i.rsplit(":", 1)[-1] in codes]
        assert not leaked_ids, f"{p.user.name} saw custom ids {leaked_ids}"


async def test_no_hidden_card_ever_reaches_anyone_else(world: World, bot: BotProcess) -> None:
    fake = world.fake
    driver = await four_player_game(world, preset="standard", target=100)
    # Hand 1 only: no earlier hand exists, so any card not yet played is a hidden card.
    checks = 0
    while True:
        hands = await current_hands(driver)
        assert_nothing_hidden_seen(fake, driver.players, hands)
        checks += 1
        if sum(len(h) for h in hands.values()) <= 4:
            break
        for _ in range(4 if checks > 1 else 4 + 4):  # bids first, then a trick at a time
            assert await driver.step()
    assert checks >= 12
    # Autocomplete for another user never offers the hidden cards of the player on turn.
    hands = await current_hands(driver)
    for p in driver.players:
        choices = await fake.autocomplete(p.user, world.channel, "play", focused="card", value="")
        names = [c["name"] for c in choices]
        assert set(names) <= set(hands[p.user.id]), (p.user.name, names)
