"""/map through its cog: the options' suggestions (shipped maps, terrain kinds, the draft's
features), the picture attached as a Discord file, a refusal private, /odds asked on the map
with the action's own line (no range or sight to give), and /map place with an NSR unit's facing
and formation."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapter.client import SkirmishBot
from bot.app.service import App
from bot.dice import ForcedDice
from tests.app.test_maps import game_state, gina, map_yaml, rita, ssg_campaign
from tests.app.test_nsr_map_options import nsr_battle
from tests.cogs.test_cogs import invoke, suggestions
from tests.support import BLUE, GM, RED, fake_interaction


def sent_file(interaction: Any) -> discord.File:
    [sent] = interaction.sent
    [file] = sent["files"]
    assert sent["embeds"][0].image.url == f"attachment://{file.filename}"
    return file


async def test_the_suggestions_of_map_options(bot: SkirmishBot, app: App) -> None:
    await ssg_campaign(app)
    interaction = fake_interaction(bot, GM, "Gina")
    scenarios = [c.value for c in await suggestions(bot, "map new", "scenario", interaction, "")]
    assert "crossroads" in scenarios and "farm" in scenarios
    kinds = await suggestions(bot, "map feature add", "kind", interaction, "he")
    assert [(c.name, c.value) for c in kinds] == [("hedge (a line)", "hedge")]
    assert await suggestions(bot, "map feature remove", "feature", interaction, "") == []
    await app.map_new(gina(), "crossroads")
    features = await suggestions(bot, "map feature remove", "feature", interaction, "copse")
    assert [(c.name, c.value) for c in features] == [("4. the copse (wood)", "4")]


async def test_map_new_posts_the_picture_and_a_player_is_refused_privately(bot: SkirmishBot, app: App) -> None:
    await ssg_campaign(app)
    drawn = await invoke(bot, "map new", GM, "Gina", scenario="farm")
    assert sent_file(drawn).filename == "map.png" and drawn.sent[0]["ephemeral"] is False
    remove = bot.tree.get_command("map").get_command("feature").get_command("remove")
    refused = fake_interaction(bot, RED, "Rita")
    refused.command = remove
    try:
        await remove.callback(remove.binding, refused, feature="1")
    except Exception as exc:
        await bot.tree.on_error(refused, app_commands.CommandInvokeError(remove, exc))
    [sent] = refused.sent
    assert sent["ephemeral"] is True and sent["embeds"][0].description == "Only the game master may change the map."


async def test_odds_on_the_map_need_no_range_or_sight(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    await app.map_import(gina(), "open.yaml", map_yaml([]))
    forced.push_dice([5, 2])
    await app.game_start(gina())
    await invoke(bot, "map place", RED, "Rita", figure="Rossi", at="12,2")
    await invoke(bot, "map deploy", RED, "Rita")
    await invoke(bot, "map deploy", GM, "Gina", side="blue")
    await app.act(rita(), "ssg", "next", {}, "/ssg next")
    interaction = await invoke(bot, "odds", RED, "Rita", action='ssg shoot shooter:Rossi target:"Big Jim"')
    [sent] = interaction.sent
    assert sent["ephemeral"] is True
    assert "%" in sent["embeds"][0].description, sent["embeds"][0].description


async def test_map_place_takes_a_units_facing_and_formation(bot: SkirmishBot, app: App) -> None:
    """NSR: facing: and formation: reach the engine's place; a facing of "banana" is refused
    privately in one sentence, nothing placed."""
    await nsr_battle(app)
    placed = await invoke(
        bot, "map place", RED, "Rita", figure="1er Ligne", at="10,4", facing="45", formation="march_column"
    )
    [sent] = placed.sent
    assert sent["ephemeral"] is False
    assert "1er Ligne (French) stands at 10,4 in march column, facing 45°." in sent["embeds"][0].description
    refused = await invoke(bot, "map place", BLUE, "Bob", figure="95th", at="30,32", facing="banana")
    [sent] = refused.sent
    assert sent["ephemeral"] is True
    assert sent["embeds"][0].description == "Give 95th's facing in degrees (0 east, 90 north) or as a point to face."
    assert list((await game_state(app))["field"]["positions"]) == ["1er Ligne"]


async def test_map_place_refuses_a_figure_a_facing(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    forced.push_dice([5, 2])
    await app.game_start(gina())
    refused = await invoke(bot, "map place", RED, "Rita", figure="Rossi", at="12,2", facing="90")
    [sent] = refused.sent
    assert sent["ephemeral"] is True
    assert sent["embeds"][0].description == (
        "A figure is placed with figure: and at: only; facing: is for a unit in formation."
    )
    assert (await game_state(app))["field"]["positions"] == {}
