"""What every cog shares: the application, the ruleset action, autocomplete."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapter.delivery import act
from bot.adapter.messages import app_of, caller_of
from bot.app.service import App

if TYPE_CHECKING:
    from bot.adapter.client import SkirmishBot


class AppCog:
    """Mixin: ``self.app`` and the generic ruleset action."""

    bot: SkirmishBot

    @property
    def app(self) -> App:
        return self.bot.app

    async def act(self, interaction: discord.Interaction, ruleset: str, action: str, **params: Any) -> None:
        """A ruleset's action, applied and delivered by :func:`bot.adapter.delivery.act`. A seam on
        purpose: /odds hands a ruleset command a stand-in whose ``act`` reads the action instead."""
        await act(interaction, ruleset, action, **params)


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
