"""/game: start a battle from the rosters, see it, read its log, report it, undo, end."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.delivery import LogPageButton, deliver, deliver_when_ready
from bot.adapter.messages import caller_of
from bot.adapter.next_moves import NextMoveButton, ReadySelect
from bot.app.reports import BATTLE_ID_MAX


class GameCog(AppCog, commands.GroupCog, group_name="game", group_description="The battle in this channel"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="start", description="Start a battle with the rosters (game master only)")
    @app_commands.describe(figures="Who fights, by name, separated by commas (default: everyone able to)")
    async def start(
        self, interaction: discord.Interaction, figures: app_commands.Range[str, 1, 1000] | None = None
    ) -> None:
        await deliver(interaction, await self.app.game_start(caller_of(interaction), figures))

    @app_commands.command(name="status", description="Turn, phase, whose move, and every figure's state")
    async def status(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_status(caller_of(interaction)))

    @app_commands.command(name="log", description="The battle's log, newest first, a page at a time")
    @app_commands.describe(
        page="Which page (1 holds the newest actions)",
        count="Actions a page (1-25, default 10)",
        battle="A past battle's number (default: this one, or the last)",
    )
    async def log(
        self,
        interaction: discord.Interaction,
        page: app_commands.Range[int, 1, 1_000_000] = 1,
        count: app_commands.Range[int, 1, 25] = 10,
        battle: app_commands.Range[int, 1, BATTLE_ID_MAX] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.game_log(caller_of(interaction), count, page, battle))

    @app_commands.command(
        name="report", description="The whole battle as a Markdown file: sides, turns, every roll, result"
    )
    @app_commands.describe(battle="A past battle's number (default: this one, or the last)")
    async def report(
        self,
        interaction: discord.Interaction,
        battle: app_commands.Range[int, 1, BATTLE_ID_MAX] | None = None,
    ) -> None:
        """A long battle takes a moment to write: the answer may be deferred (privately, since only
        the finished report says who may see it); a public report then follows the private note as
        a message of its own."""
        await deliver_when_ready(
            interaction,
            lambda: self.app.game_report(caller_of(interaction), battle),
            follows="The report follows in the channel.",
        )

    @app_commands.command(name="undo", description="Take back the last action (its player or the game master)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_undo(caller_of(interaction)))

    @app_commands.command(name="end", description="End the battle in progress (game master only)")
    async def end(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.game_end(caller_of(interaction)))


async def setup(bot: commands.Bot) -> None:
    """The cog, and the buttons of its log's pages (registered by their custom_id's template, so
    loading the cog again registers them once still)."""
    bot.add_dynamic_items(LogPageButton, NextMoveButton, ReadySelect)
    await bot.add_cog(GameCog(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(LogPageButton, NextMoveButton, ReadySelect)
