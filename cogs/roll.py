"""/roll: free dice for whatever the rules leave to the table."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.delivery import deliver
from bot.adapter.messages import caller_of


class RollCog(AppCog, commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]

    @app_commands.command(name="roll", description="Roll dice in the open, like 2d6+1 or 4d6kh3")
    @app_commands.describe(
        dice="Dice notation: 2d6+1, 4d6kh3, 1d10",
        reason="What the roll is for",
        secret="Game master only: roll privately; the log keeps it and shows it when the battle ends",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        dice: app_commands.Range[str, 1, 200],
        reason: app_commands.Range[str, 1, 100] | None = None,
        secret: bool = False,
    ) -> None:
        await deliver(interaction, await self.app.roll(caller_of(interaction), dice, reason, secret))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RollCog(bot))
