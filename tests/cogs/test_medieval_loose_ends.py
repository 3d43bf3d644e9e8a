"""Loose ends of the medieval system found in play (issue 19), through the loopback Discord."""

from __future__ import annotations

from bot.app.service import App
from bot.dice import ForcedDice
from tests.cogs.test_cogs import invoke
from tests.cogs.test_ssg_loose_ends import refused, said
from tests.support import BLUE, GM, RED, caller, join


async def table_game(app: App, forced: ForcedDice) -> None:
    """Hugh (a knight) and Ada against Olaf and Sven at a table; red won the roll-off and goes first."""
    await app.campaign_new(caller(GM, "Gina"), "Border Raid", "medieval", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    await app.roster_add(caller(RED, "Rita"), "Hugh", "Knight")
    await app.roster_add(
        caller(RED, "Rita"), "Ada", "custom", stats="speed=6 bravery=5 shoot=2 fight=2 weapons=dagger armour=none"
    )
    await app.roster_add(caller(BLUE, "Bob"), "Olaf", "Viking Warrior")
    await app.roster_add(caller(BLUE, "Bob"), "Sven", "Viking Warrior")
    forced.push_dice([6, 1])
    await app.game_start(caller(GM, "Gina"))
    await app.decide(caller(RED, "Rita"), "first")


def embeds_of(interaction) -> list:
    return interaction.sent[0]["embeds"]


async def test_a_hit_with_no_effect_posts_no_wound_card(bot, app, forced) -> None:
    await table_game(app, forced)
    await invoke(bot, "medieval move", RED, "Rita", figure="Hugh", distance=2.0, engage="Olaf")
    forced.push_dice([6, 1, 1, 1])  # Hugh wins; the sword's 2D6 keep 1: 1 + 1 − 2 armour = 0
    fought = await invoke(bot, "medieval fight", RED, "Rita", figure="Hugh")
    assert [e.title for e in embeds_of(fought)] == ["Red · fight"]
    assert said(fought).count("Olaf has had a lucky escape and is unharmed.") == 1


async def test_odds_name_no_effect_once_and_wounds_in_lower_case(bot, app, forced) -> None:
    await table_game(app, forced)
    await invoke(bot, "medieval move", RED, "Rita", figure="Hugh", distance=2.0, engage="Olaf")
    odds = await invoke(bot, "odds", RED, "Rita", action="medieval fight figure:Hugh")
    lines = odds.sent[0]["embeds"][0].description.splitlines()
    outcomes = [line.split(" — ", 1)[1] for line in lines if " — " in line and "%" in line]
    assert outcomes.count("no effect") == 1 and not [o for o in outcomes if "No Effect" in o or "Wound" in o]
    assert "Olaf: serious wound" in outcomes and "Hugh: knocked about" in outcomes


async def test_roster_show_gives_a_knights_profile(bot, app, forced) -> None:
    await table_game(app, forced)
    shown = await invoke(bot, "roster show", RED, "Rita", name="Hugh")
    fields = {f.name: f.value for f in embeds_of(shown)[0].fields}
    assert fields["Profile"] == (
        "speed 6″, Bravery 6, shoot 4, fight 4, health full; Sword; Chainmail + Small Shield (armour 3)"
    )


async def test_a_lost_break_off_points_to_the_fight_not_another_break_off(bot, app, forced) -> None:
    await table_game(app, forced)
    await invoke(bot, "medieval move", RED, "Rita", figure="Hugh", distance=2.0, engage="Olaf")
    await invoke(bot, "medieval endturn", RED, "Rita")
    forced.push_dice([1, 6])  # Olaf 1 + Bravery 4 against Hugh 6 + Bravery 6: held
    lost = said(await invoke(bot, "medieval breakoff", BLUE, "Bob", figure="Olaf", distance=2.0))
    assert "Olaf may move no further this turn and stays in hand-to-hand: it may still fight (/medieval fight)." in lost
    held = (
        "Olaf lost its break-off and stays in hand-to-hand with Hugh this turn: it may still fight (/medieval fight)."
    )
    assert refused(await invoke(bot, "medieval move", BLUE, "Bob", figure="Olaf", distance=1.0)) == held
    assert refused(await invoke(bot, "medieval breakoff", BLUE, "Bob", figure="Olaf", distance=1.0)) == held


async def test_fixed_paragraphs_are_in_campaign_info_not_every_status(bot, app, forced) -> None:
    await table_game(app, forced)
    info = {f.name: f.value for f in embeds_of(await invoke(bot, "campaign info", RED, "Rita"))[0].fields}
    assert info["Ground scale"] == "54 mm toy soldiers: 1 metre = 1 inch (2.5 cm)"
    assert "Ground scale" not in said(await invoke(bot, "game status", RED, "Rita"))
