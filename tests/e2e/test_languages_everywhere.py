"""The last English of issue 28, through the real bot and the fake Discord: a Spanish server's
admin is refused a setting in Spanish; its host sets who may watch and hints in Spanish words
(offered, typed and confirmed), and the lobby shows them, and its computer player, in
Spanish; a German host types the German words; a table's thread, a missing permission, a
claim's seat and a season never named, in Spanish."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.driver import eventually, table_message
from tests.e2e.flows import answer, open_table
from tests.fakediscord import BotProcess


def spanish(world: World) -> None:
    world.guild.locale = "es-ES"
    for user in world.users:
        user.locale = "es-ES"


async def test_a_league_setting_is_refused_in_the_admins_language(
    world: World, bot: BotProcess
) -> None:
    spanish(world)
    admin = world.fake.add_user("admin")
    world.guild.add_member(admin, manage_guild=True)
    admin.locale = "es-ES"
    r = await answer(world, admin, "spades-admin", "defaults", turn_timer=5)
    assert r.ephemeral
    assert "turn_timer debe ser 0 (desactivado) o estar entre 10 y 3600 segundos, no 5" in r.text
    admin.locale = "de"  # the same mistake, another admin's language
    r = await answer(world, admin, "spades-admin", "defaults", turn_timer=7)
    assert "turn_timer muss 0 (aus) sein oder zwischen 10 und 3600 Sekunden liegen" in r.text


async def test_spectators_and_hints_are_offered_set_and_shown_in_spanish(
    world: World, bot: BotProcess
) -> None:
    spanish(world)
    fake, ch, host = world.fake, world.channel, world.users[0]
    await open_table(world)
    lobby = table_message(fake, ch).text
    assert "👁 Espectadores: cualquiera que no esté sentado puede mirar." in lobby, lobby

    offered = await fake.autocomplete(
        host, ch, "spades", "rule", focused="value", value="", name="spectators"
    )
    names = [c["name"] for c in offered]
    assert names[1].startswith("manos tras cada mano — como público, y tras cada mano"), names
    assert [c["value"] for c in offered] == ["public", "hands after each hand", "off"]
    narrowed = await fake.autocomplete(
        host, ch, "spades", "rule", focused="value", value="nadi", name="spectators"
    )
    assert [c["value"] for c in narrowed] == ["off"], narrowed

    r = await answer(world, host, "spades", "rule", name="spectators", value="Manos tras cada mano")
    assert "**manos tras cada mano**" in r.text, r.text
    r = await answer(world, host, "spades", "rule", name="hints", value="sí")
    assert "**sí**" in r.text, r.text
    r = await answer(world, host, "spades", "rule", name="hints", value="quizás")
    assert r.text == "hints debe ser sí o no.", r.text
    r = await answer(world, host, "spades", "bot", seat="E")
    await eventually(lambda: "Ordenador (normal)" in table_message(fake, ch).text)

    lobby = table_message(fake, ch).text
    assert "al acabar cada mano se les muestra su reparto" in lobby, lobby
    assert "💡 Pistas activadas: un botón **Pista** en cada mano" in lobby, lobby
    for english in ("Spectators", "Hints on", "Computer ("):
        assert english not in lobby, (english, lobby)


async def test_a_german_host_types_the_german_words(world: World, bot: BotProcess) -> None:
    world.guild.locale = "de"
    host = world.users[0]
    host.locale = "de"
    await open_table(world)
    r = await answer(world, host, "spades", "rule", name="spectators", value="niemand")
    assert "**niemand**" in r.text, r.text
    await eventually(lambda: "👁 Keine Zuschauer." in table_message(world.fake, world.channel).text)
    r = await answer(world, host, "spades", "rule", name="hints", value="an")
    assert "**an**" in r.text, r.text


async def test_a_tables_thread_and_a_missing_permission_in_spanish(
    world: World, bot: BotProcess
) -> None:
    spanish(world)
    fake, users = world.fake, world.users
    r = await answer(world, users[0], "spades", "new", preset="standard", thread=True)
    assert r.ephemeral
    await fake.wait_until(lambda: fake.threads(world.channel))
    (thread,) = fake.threads(world.channel)
    assert thread.name == f"Picas con {users[0].name}", thread.name  # the server's language
    world.channel.deny_bot("create_public_threads")
    r = await answer(world, users[1], "spades", "new", thread=True)
    assert "Crear hilos públicos" in r.text, r.text  # as Discord's Spanish settings name it
    assert "Create Public Threads" not in r.text


async def test_a_claim_reads_the_seat_in_the_players_words_and_refuses_in_them(
    world: World, bot: BotProcess
) -> None:
    alice = world.users[0]
    await open_table(world, preset="standard")
    r = await answer(world, alice, "spades", "rule", name="renege", value="claim")
    assert "now **claim**" in r.text, r.text
    for _ in range(3):
        await answer(world, alice, "spades", "bot")
    r = await answer(world, alice, "spades", "start")
    assert "deals first" in r.text, r.text
    alice.locale = "es-ES"
    r = await answer(world, alice, "claim", seat="Q")
    assert r.text == "`Q` no es un asiento: elige Norte, Este, Sur u Oeste.", r.text
    r = await answer(world, alice, "claim", seat="Este")  # read as East: judged, not misread
    assert "no es un asiento" not in r.text, r.text
    # the engine's refusal (nobody has played a card: it is bidding), in Spanish
    assert "las reclamaciones se hacen mientras se juegan las cartas" in r.text, r.text


async def test_a_season_never_named_is_shown_in_spanish(world: World, bot: BotProcess) -> None:
    spanish(world)
    fake, ch, alice = world.fake, world.channel, world.users[0]
    board = await answer(world, alice, "leaderboard")
    assert "Temporada 1" in board.text, board.text
    assert "Season 1" not in board.text, board.text
    offered = await fake.autocomplete(alice, ch, "leaderboard", focused="season", value="temp")
    assert [c["name"] for c in offered] == ["Temporada 1 (actual)"], offered


async def test_help_in_spanish(world: World, bot: BotProcess) -> None:
    spanish(world)
    r = await answer(world, world.users[0], "spades", "help")
    assert r.ephemeral
    assert "♠ Cómo jugar a las picas aquí" in r.text, r.text
    assert "1. Siéntate" in r.text, r.text
    for english in ("How to play", "Sit down", "Your hand", "Whose turn"):
        assert english not in r.text, (english, r.text)
