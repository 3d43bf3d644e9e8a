"""/ssg: the Simple Skirmish Game's phase actions (the rules are in rules/ssg)."""

from __future__ import annotations

from typing import ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from cogs.common import TO_HELP, VIA_HELP, figure_autocomplete

LOS = Literal["clear", "partial", "blocked"]
Inches = app_commands.Range[float, 0, 1000]
Dice = app_commands.Range[int, 1, 3]


class SsgCog(
    AppCog, commands.GroupCog, group_name="ssg", group_description="Simple Skirmish Game: your turn's actions"
):
    #: The command a button offers under "your move" and /game status (bot/adapter/next_moves.py).
    quick_moves: ClassVar[tuple[str, ...]] = ("next",)
    figure_moves: ClassVar[tuple[str, ...]] = ("move", "shoot")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="move", description='Movement phase: move a figure (up to 4" in all this turn)')
    @app_commands.describe(
        figure="Your figure",
        to=TO_HELP,
        toward="Map: a figure (or x,y) to move straight at, with distance (default: as far as it may)",
        via=VIA_HELP,
        distance="Inches moved now (table play; on the map with toward:)",
        contact='Table play: the enemy it came within 1" of (it must stop)',
    )
    @app_commands.autocomplete(figure=figure_autocomplete, toward=figure_autocomplete, contact=figure_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction,
        figure: app_commands.Range[str, 1, 64],
        to: app_commands.Range[str, 1, 40] | None = None,
        toward: app_commands.Range[str, 1, 64] | None = None,
        via: app_commands.Range[str, 1, 200] | None = None,
        distance: Inches | None = None,
        contact: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        await self.act(
            interaction,
            "ssg",
            "move",
            figure=figure,
            to=to,
            toward=toward,
            via=via,
            distance=distance,
            contact=contact,
        )

    @app_commands.command(name="melee", description="Melee phase: fight one duel between figures in contact")
    @app_commands.describe(fighter="Your figure (default: the first pair in contact)", opponent="The enemy it fights")
    @app_commands.autocomplete(fighter=figure_autocomplete, opponent=figure_autocomplete)
    async def melee(
        self,
        interaction: discord.Interaction,
        fighter: app_commands.Range[str, 1, 64] | None = None,
        opponent: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        await self.act(interaction, "ssg", "melee", fighter=fighter, opponent=opponent)

    @app_commands.command(
        name="shoot", description="Shooting phase: a figure fires, its rate of fire split up to three targets"
    )
    @app_commands.describe(
        shooter="Your figure",
        target="The enemy it fires at",
        range="Table play: inches to the target (the bot measures it on the map)",
        los="Table play: line of sight, as you judge it (the bot works it out on the map)",
        dice="Dice at this target (default: the whole rate of fire)",
        target2="A second target (SMG)",
        range2="Inches to the second target",
        los2="Line of sight to it",
        dice2="Dice at the second target",
        target3="A third target (SMG)",
        range3="Inches to the third target",
        los3="Line of sight to it",
    )
    @app_commands.autocomplete(
        shooter=figure_autocomplete,
        target=figure_autocomplete,
        target2=figure_autocomplete,
        target3=figure_autocomplete,
    )
    async def shoot(
        self,
        interaction: discord.Interaction,
        shooter: app_commands.Range[str, 1, 64],
        target: app_commands.Range[str, 1, 64],
        range: Inches | None = None,
        los: LOS | None = None,
        dice: Dice | None = None,
        target2: app_commands.Range[str, 1, 64] | None = None,
        range2: Inches | None = None,
        los2: LOS | None = None,
        dice2: Dice | None = None,
        target3: app_commands.Range[str, 1, 64] | None = None,
        range3: Inches | None = None,
        los3: LOS | None = None,
    ) -> None:
        await self.act(
            interaction,
            "ssg",
            "shoot",
            shooter=shooter,
            target=target,
            range=range,
            los=los,
            dice=dice,
            target2=target2,
            range2=range2,
            los2=los2,
            dice2=dice2,
            target3=target3,
            range3=range3,
            los3=los3,
        )

    @app_commands.command(name="next", description="End the current phase (movement → melee → shooting → next player)")
    async def next_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "ssg", "next")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SsgCog(bot))
