"""/odds: the chances of an action, asked with the action's own command line.

The line is read against the application's declared commands (the rulesets' from their specs):
:func:`bot.app.commands.play.odds_action`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.delivery import deliver_when_ready
from bot.adapter.messages import app_of, caller_of
from bot.app.commands.play import ACTION_LIMIT, AS_PLAYED, odds_action
from bot.app.commands.table import command_table
from bot.app.replies import Reply

__all__ = ["ACTION_LIMIT", "AS_PLAYED", "OddsCog"]


async def action_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    odds = command_table()["odds"]
    found = await odds.completes["action"](app_of(interaction), caller_of(interaction), current)
    return [app_commands.Choice(name=label, value=value) for label, value in found]


class OddsCog(AppCog, commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]

    @app_commands.command(name="odds", description="The chances of an action before you roll (only you see them)")
    @app_commands.describe(action='The action as you would give it: "ssg shoot shooter:Rossi target:Bo range:14"')
    @app_commands.autocomplete(action=action_autocomplete)
    async def odds(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 6000]) -> None:
        ruleset, name, params, typed = await odds_action(command_table(), action)

        async def odds() -> Reply:
            return await self.app.odds(caller_of(interaction), ruleset, name, params, typed)

        await deliver_when_ready(interaction, odds, slow=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OddsCog(bot))
