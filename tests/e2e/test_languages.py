"""Every player in their own language (issue 28), through the real bot and the fake Discord:
the synced commands' localisations within Discord's rules, autocomplete and typed input in
Spanish and German, and a whole game with four players of four locales — each private
message in its player's language, the table and its summaries in the server's."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from tests.e2e.conftest import World
from tests.e2e.driver import (
    Driver,
    Seated,
    button,
    eventually,
    has,
    live,
    plain,
    table_message,
)
from tests.e2e.flows import answer, open_table, quick_game
from tests.fakediscord import BotProcess, Message, Response

LOCALES = ("es-ES", "pt-BR", "fr", "de")
# What each language calls a player's hand message, and the words it must not contain.
HAND_TITLE = {"es-ES": "Tu mano", "pt-BR": "Sua mão", "fr": "Votre main", "de": "Deine Hand"}
SUIT_WORD = {"es-ES": "picas", "pt-BR": "espadas", "fr": "pique", "de": "Pik"}


# ---------------------------------------------------------------------- Discord's rules
def valid_name(name: str) -> bool:
    """Discord's rule for a command or option name: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]
    {1,32}$``, in lower case where the script has cases."""
    ok = all(c in "-_" or unicodedata.category(c)[0] in "LNM" for c in name)
    return ok and 1 <= len(name) <= 32 and name == name.lower()


def localisable(command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, item) of a command and every option and choice under it."""
    yield command["name"], command
    for option in command.get("options") or []:
        for path, item in localisable(option):
            yield f"{command['name']} {path}", item
        for choice in option.get("choices") or []:
            yield f"{command['name']} {option['name']} = {choice['value']}", choice


async def test_synced_commands_carry_localisations_within_discords_rules(
    world: World, bot: BotProcess
) -> None:
    commands = world.fake.commands()
    assert commands, "the bot synced its commands"
    named = described = 0
    for command in commands:
        for path, item in localisable(command):
            names = item.get("name_localizations") or {}
            assert set(names) <= set(LOCALES) | {"es-419"}, path
            for locale, name in names.items():
                is_choice = "=" in path
                if is_choice:  # a choice's name is text shown to people, 1-100 characters
                    assert 1 <= len(name) <= 100, (path, locale, name)
                else:
                    assert valid_name(name), (path, locale, name)
                named += 1
            descriptions = item.get("description_localizations") or {}
            if item.get("description"):
                # every description is translated into every shipped language
                assert set(LOCALES) <= set(descriptions), (path, sorted(descriptions))
            for locale, text in descriptions.items():
                assert 1 <= len(text) <= 100, (path, locale, text)
                described += 1
    assert named > 100, "names (commands, options, choices) are localised"
    assert described > 100, "descriptions are localised"
    spades = world.fake.command("spades")
    assert spades is not None
    assert spades["name_localizations"]["es-ES"] == "picas"
    hand = world.fake.command("hand")
    assert hand is not None
    assert hand["name_localizations"]["pt-BR"] == "mão"
    assert hand["description_localizations"]["de"].startswith("Deine Karten")


# ---------------------------------------------------------------------- a game in Spanish
async def _seat_four(world: World) -> Driver:
    """Alice opens; the others sit with the lobby's buttons; Alice starts (every answer
    checked in its reader's language)."""
    fake, ch, users = world.fake, world.channel, world.users
    await open_table(world, preset="standard", target=100)
    sit = {
        "es-ES": "Te sientas",
        "pt-BR": "Você se senta",
        "fr": "Vous êtes assis",
        "de": "Du sitzt",
    }
    for user, seat in zip(users[1:], ("E", "S", "W"), strict=True):
        msg = table_message(fake, ch)
        join = next(c for c in msg.all_components if c.custom_id.endswith(f":join:{seat}"))
        r = await (await fake.click(user, msg, join.custom_id)).response()
        assert r.text.startswith(sit[user.locale]), r.text
        await eventually(
            lambda s=seat: (
                not any(
                    c.custom_id.endswith(f":join:{s}")
                    for c in table_message(fake, ch).all_components
                )
            )
        )
    msg = table_message(fake, ch)
    await (await fake.click(users[0], msg, button(msg, "start").custom_id)).response()
    await eventually(lambda: "Mano 1" in table_message(fake, ch).text)
    return Driver(fake, ch, [Seated(u) for u in users])


async def test_four_players_of_four_languages_play_a_whole_game(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    world.guild.locale = "es-ES"  # the server's preferred locale: public messages in Spanish
    for user, locale in zip(world.users, LOCALES, strict=True):
        user.locale = locale
    driver = await _seat_four(world)
    table = table_message(fake, ch).text
    assert "apuesta" in table, table
    assert "Pulsa **Mi mano**" in table, table
    seen: dict[str, list[str]] = {locale: [] for locale in LOCALES}  # each hand as shown
    while await driver.step():
        for p in driver.players:
            if p.hand is not None:
                seen[p.user.locale].append(p.hand.text)
    await eventually(driver.over, timeout=20)

    # Public messages: the table, every hand's summary and the game over, in Spanish.
    final = table_message(fake, ch).text
    assert "🏆" in final, final
    assert "Norte–Sur" in final or "Este–Oeste" in final, final
    # why it ended, in Spanish too (the engine's reason, translated at the edge)
    assert "alcanzó la meta" in final or "empate en la meta" in final, final
    await eventually(lambda: any("Fin de la partida" in m.text for m in fake.messages(ch)))
    texts = [m.text for m in fake.messages(ch)]
    summaries = [t for t in texts if "— puntuación" in t]
    assert summaries, "each finished hand is summarised in Spanish"
    assert not any("— scores" in t or "Game over" in t for t in texts), "no English in public"
    assert any("Contrato" in t for t in summaries), "the score items are Spanish too"

    # Private messages: every hand message of each player, in that player's language.
    for locale, texts_seen in seen.items():
        assert texts_seen, f"{locale}: the player saw their hand"
        for text in texts_seen:
            assert HAND_TITLE[locale] in text, (locale, text)
            assert "Your hand" not in text, (locale, text)
            assert "Not your turn" not in text, (locale, text)
    # Each hand message, edited live to the end of the game, says so in its language.
    over = {"es-ES": "ha terminado", "pt-BR": "terminou", "fr": "est terminée", "de": "vorbei"}
    for p in driver.players:
        await eventually(lambda p=p: over[p.user.locale] in (live(p.hand) or p.hand).text)


# ---------------------------------------------------------------------- input in Spanish/German
def _choice_words(choice: dict[str, Any]) -> str:
    """The words of a card choice (``A♠ — as de picas`` → ``as de picas``)."""
    return str(choice["name"]).split(" — ", 1)[1]


async def _on_turn(driver: Driver) -> Seated:
    for p in driver.players:
        if driver.can_act(await driver.refresh(p)):
            return p
    raise AssertionError("nobody can act")


async def _until_turn(driver: Driver, index: int, verb: str) -> Response | Message:
    """Let the others act until player ``index``'s hand offers ``verb``; that hand."""
    me = driver.players[index]
    for _ in range(200):
        r = await driver.refresh(me)
        if any(c.custom_id and f":{verb}:" in c.custom_id for c in r.all_components):
            return r
        others = [p for p in driver.players if p is not me]
        for p in others:
            r2 = await driver.refresh(p)
            if driver.can_act(r2):
                await driver.act(p, r2)
                break
    raise AssertionError(f"player {index} never came to {verb}")


async def test_bids_and_cards_typed_and_offered_in_spanish_and_german(
    world: World, bot: BotProcess
) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    users[0].locale, users[1].locale = "es-ES", "de"
    users[2].locale, users[3].locale = "es-ES", "de"
    world.guild.locale = "es-ES"
    driver = await _seat_four(world)

    # Bidding: autocomplete offers the bids in each bidder's words; /bid takes those words.
    bids = {"es-ES": ("nulo", "Apostaste nulo."), "de": ("Null", "Du hast Null angesagt.")}
    for _ in range(4):
        bidder = await _on_turn(driver)
        word, done = bids[bidder.user.locale]
        offered = await fake.autocomplete(bidder.user, ch, "bid", focused="bid", value="")
        assert word in [c["name"] for c in offered], offered
        typed = await fake.autocomplete(bidder.user, ch, "bid", focused="bid", value=word[:3])
        assert typed, word
        assert typed[0]["name"] == word, typed
        r = await answer(world, bidder.user, "bid", bid=word)
        assert done in r.text, r.text
        bidder.hand = r

    # Play: each card offered with its name in the player's language, and played by it.
    for index in (0, 1, 2, 3):
        await _until_turn(driver, index, "play")
        user = users[index]
        offered = await fake.autocomplete(user, ch, "play", focused="card", value="")
        assert offered
        assert all(" — " in str(c["name"]) for c in offered), offered
        words = _choice_words(offered[0])
        if user.locale == "de":
            assert words.split()[0] in ("Pik", "Herz", "Karo", "Kreuz"), words
        else:
            assert re.search(r" de (picas|corazones|diamantes|tréboles)$", words), words
        suit = words.split()[0] if user.locale == "de" else words.rsplit(" ", 1)[1]
        narrowed = await fake.autocomplete(user, ch, "play", focused="card", value=suit)
        assert narrowed
        assert all(suit in str(c["name"]) for c in narrowed), narrowed
        r = await answer(world, user, "play", card=words)  # typed in words, not a code
        played = {"es-ES": "Jugaste", "de": "Du hast"}[user.locale]
        assert played in r.text, r.text
        assert "⚠" not in r.text, r.text
        driver.players[index].hand = r

    # Refusals in the player's words: a card not understood, and the engine's "not your turn".
    r = await answer(world, users[1], "play", card="Pik Zehn")
    assert r.text.startswith("Die Karte `Pik Zehn` kenne ich nicht"), r.text
    on_turn = await _on_turn(driver)
    waiting = next(p for p in driver.players if p.user.locale == "de" and p is not on_turn)
    r = await answer(world, waiting.user, "play", card="Kreuz 2")
    assert re.fullmatch(r"(Nord|Ost|Süd|West) ist am Zug", r.text), r.text


async def test_french_hearts_typed_without_the_ligature(world: World, bot: BotProcess) -> None:
    """``/play 9 de coeur``: hearts as most French keyboards type them (no ``œ``) — offered by
    the autocomplete and played by the command, whoever holds the 9♥ when it may be played."""
    fake, ch, users = world.fake, world.channel, world.users
    for user in users:
        user.locale = "fr"
    world.guild.locale = "es-ES"  # the table speaks Spanish; the input is each player's own
    driver = await _seat_four(world)
    for _ in range(200):
        p = await _on_turn(driver)
        hand = live(p.hand) or p.hand
        assert hand is not None
        plays = [c.custom_id for c in hand.all_components if ":play:" in (c.custom_id or "")]
        if not plays:
            await driver.act(p, hand)  # a bid
            continue
        if not any(cid.endswith(":9H") for cid in plays):
            await (await fake.click(p.user, hand, plays[0])).answer()
            continue
        offered = await fake.autocomplete(p.user, ch, "play", focused="card", value="9 de coeur")
        assert [c["value"] for c in offered] == ["9H"], offered
        assert str(offered[0]["name"]).endswith("9 de cœur"), offered
        r = await answer(world, p.user, "play", card="9 de coeur")
        assert "Vous avez joué 9♥" in plain(r.text), r.text
        assert "⚠" not in r.text, r.text
        return
    raise AssertionError("the 9♥ was never played")


async def test_the_server_language_chosen_by_an_admin_is_the_tables(
    world: World, bot: BotProcess
) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    admin = fake.add_user("admin")
    world.guild.add_member(admin, manage_guild=True)
    r = await answer(world, admin, "spades-admin", "language", language="fr")
    assert "Français" in r.text, r.text
    await open_table(world)
    lobby = table_message(fake, ch).text
    assert "En attente de joueurs" in lobby, lobby  # the server's choice, not Alice's English
    r = await answer(world, users[0], "hand")
    assert "The game has not started yet" in r.text, "private answers stay in Alice's language"


async def test_a_spectator_sees_the_servers_language_and_a_refusal_in_their_own(
    world: World, bot: BotProcess
) -> None:
    """A spectator's view is the table's, in the server's language (one view a round for all
    its spectators); a refusal to watch is the clicker's, in their own."""
    world.guild.locale = "fr"
    alice = world.users[0]
    await quick_game(world, humans=1, preset="standard", target=100)
    await eventually(lambda: has(table_message(world.fake, world.channel), "watch"))

    alice.locale = "de"  # seated: refused, in German
    msg = table_message(world.fake, world.channel)
    refused = await (await world.fake.click(alice, msg, button(msg, "watch").custom_id)).response()
    assert refused.ephemeral
    assert "also kannst du nicht zuschauen" in refused.text, refused.text

    erin = world.fake.add_user("erin")
    world.guild.add_member(erin)
    erin.locale = "de"  # a German spectator of a French server's table: the view is French
    msg = table_message(world.fake, world.channel)
    first = await (await world.fake.click(erin, msg, button(msg, "watch").custom_id)).response()
    assert first.message is not None, first.text
    view = first.message
    assert "Vous regardez la table" in view.text, view.text
    assert "Watching table" not in view.text
    assert "Arrêter de regarder" in {c.label for c in view.all_components}
