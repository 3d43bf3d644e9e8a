"""/game: start a battle from the rosters, see it, read its log, undo, end."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import AppCog, caller_of, deliver


class GameCog(AppCog, commands.GroupCog, group_name="game", group_description="The battle in this channel"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="start", description="Start a battle with the rosters (game master only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_start(caller_of(interaction)))

    @app_commands.command(name="status", description="Turn, phase, whose move, and every figure's state")
    async def status(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_status(caller_of(interaction)))

    @app_commands.command(name="log", description="The last actions with their dice")
    @app_commands.describe(count="How many actions (1-25, default 10)")
    async def log(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 25] = 10) -> None:
        await deliver(interaction, await self.app.game_log(caller_of(interaction), count))

    @app_commands.command(name="undo", description="Take back the last action (its player or the game master)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_undo(caller_of(interaction)))

    @app_commands.command(name="end", description="End the battle in progress (game master only)")
    async def end(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_end(caller_of(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
