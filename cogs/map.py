"""/map: the battlefield's map: drafted between battles, shown, and the figures placed on it."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.delivery import AppCog, deliver
from bot.adapter.messages import app_of, caller_of
from bot.adapter.slash import figure_autocomplete, options_command, side_autocomplete
from cogs.common import attachment_bytes
from rules.battlefield import KINDS, LINE_KINDS
from rules.battlefield.deployment import DeployOptions, PlaceOptions


async def scenario_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).map_scenarios(caller_of(interaction), current)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


async def feature_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await app_of(interaction).map_features(caller_of(interaction), current)
    return [app_commands.Choice(name=label[:100], value=value) for label, value in found]


async def terrain_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().casefold()
    return [
        app_commands.Choice(name=f"{kind} ({'a line' if kind in LINE_KINDS else 'an area'})", value=kind)
        for kind in KINDS
        if typed in kind
    ]


async def _place(cog: AppCog, interaction: discord.Interaction, options: dict[str, Any]) -> None:
    await deliver(interaction, await cog.app.map_place(caller_of(interaction), **options))


async def _deploy(cog: AppCog, interaction: discord.Interaction, options: dict[str, Any]) -> None:
    await deliver(interaction, await cog.app.map_deploy(caller_of(interaction), **options))


class MapCog(AppCog, commands.GroupCog, group_name="map", group_description="The battlefield's map"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="new", description="Start the next battle's map: a shipped one, or an empty table (GM)")
    @app_commands.describe(
        scenario="A shipped map, by name",
        width="An empty table's width in inches (with height, instead of a scenario)",
        height="An empty table's height in inches",
    )
    @app_commands.autocomplete(scenario=scenario_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        scenario: app_commands.Range[str, 1, 60] | None = None,
        width: app_commands.Range[float, 12.0, 120.0] | None = None,
        height: app_commands.Range[float, 12.0, 120.0] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.map_new(caller_of(interaction), scenario, width, height))

    feature = app_commands.Group(name="feature", description="The terrain on the next battle's map")

    @feature.command(name="add", description="Put a terrain feature on the next battle's map (game master)")
    @app_commands.describe(
        kind="Its kind of terrain: a wall, hedge, fence or barricade is a line; the rest are areas",
        points='Its corners (an area) or its path (a line): "x,y x,y ..." in inches, like "4,4 10,4 10,9"',
        name="A name to show and to remove it by (optional)",
        thickness="A line's thickness in inches (default: the kind's)",
    )
    @app_commands.autocomplete(kind=terrain_autocomplete)
    async def feature_add(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Range[str, 1, 20],
        points: app_commands.Range[str, 3, 600],
        name: app_commands.Range[str, 1, 60] | None = None,
        thickness: app_commands.Range[float, 0.01, 12.0] | None = None,
    ) -> None:
        reply = await self.app.map_feature_add(caller_of(interaction), kind, points, name, thickness)
        await deliver(interaction, reply)

    @feature.command(name="remove", description="Take a terrain feature off the next battle's map (game master)")
    @app_commands.describe(feature="Its number in the map's list, or its name")
    @app_commands.autocomplete(feature=feature_autocomplete)
    async def feature_remove(self, interaction: discord.Interaction, feature: app_commands.Range[str, 1, 100]) -> None:
        await deliver(interaction, await self.app.map_feature_remove(caller_of(interaction), feature))

    @app_commands.command(name="zone", description="Set a side's deployment zone on the next battle's map (GM)")
    @app_commands.describe(side="The side", points='The zone\'s corners: "x,y x,y x,y ..." in inches')
    @app_commands.autocomplete(side=side_autocomplete)
    async def zone(
        self,
        interaction: discord.Interaction,
        side: app_commands.Range[str, 1, 32],
        points: app_commands.Range[str, 3, 600],
    ) -> None:
        await deliver(interaction, await self.app.map_zone(caller_of(interaction), side, points))

    @app_commands.command(name="import", description="The next battle's map from a YAML map file (game master)")
    @app_commands.describe(file="A map file (from /map export, or written by hand)")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        name, data = await attachment_bytes(interaction, file)
        await deliver(interaction, await self.app.map_import(caller_of(interaction), name, data))

    @app_commands.command(name="export", description="The map as a YAML file: the battle's, or the next battle's")
    async def export(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.map_export(caller_of(interaction)))

    @app_commands.command(name="show", description="A picture of the battlefield (focus: one figure's reach and sight)")
    @app_commands.describe(focus="A figure whose movement, weapon ranges and sight to show")
    @app_commands.autocomplete(focus=figure_autocomplete)
    async def show(self, interaction: discord.Interaction, focus: app_commands.Range[str, 1, 64] | None = None) -> None:
        await deliver(interaction, await self.app.map_show(caller_of(interaction), focus))

    place = options_command(
        "place", "Place a figure (or a unit) in its side's deployment zone, before turn 1", PlaceOptions, _place
    )
    deploy = options_command(
        "deploy", "Set out a side's unplaced figures in its zone, before turn 1", DeployOptions, _deploy
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MapCog(bot))
