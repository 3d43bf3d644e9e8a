"""What the cogs share beside the adapter's AppCog: the autocompletes of names, sides and kinds."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.adapter.messages import app_of, caller_of


async def figure_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).figure_names(caller_of(interaction), current)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


async def roster_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).figure_names(caller_of(interaction), current, in_game=False)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


async def side_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).side_names(caller_of(interaction), current)
    return [app_commands.Choice(name=n, value=n) for n in names]


async def kind_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).kind_names(caller_of(interaction), current)
    return [app_commands.Choice(name=n, value=n) for n in names]


#: The options a move on the bot's map takes, described once for every ruleset's move command.
TO_HELP = 'Map: where it goes, x,y in inches from the lower-left corner ("14,22")'
VIA_HELP = 'Map: waypoints on the way, "10,12 14,18" (the last is the end unless to: is given)'
