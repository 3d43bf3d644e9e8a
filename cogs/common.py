"""What every cog shares: delivering a reply (with its decision buttons), the ruleset action, autocomplete."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.app.replies import Reply
from bot.app.service import App, command_line
from cogs.buttons import decision_view
from cogs.replies import app_of, caller_of, message_kwargs

if TYPE_CHECKING:
    from bot.client import SkirmishBot

log = logging.getLogger("skirmish_gm.cogs")

#: Discord's codes for an interaction that was already acknowledged, or is no longer known
#: (a repeated delivery whose first copy was answered before a restart).
ALREADY_ANSWERED = {40060, 10062}


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    """Send ``reply`` as the interaction's response (or a follow-up if one was already sent)."""
    interaction.extras["reply"] = reply
    kwargs: dict[str, Any] = {**message_kwargs(reply), "ephemeral": reply.ephemeral}
    if reply.decision is not None:
        kwargs["view"] = decision_view(reply.decision)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as exc:
        if exc.code not in ALREADY_ANSWERED:
            raise
        log.info("interaction %s was already answered (a repeated delivery); nothing was applied twice", interaction.id)


class AppCog:
    """Mixin: ``self.app`` and the generic ruleset action."""

    bot: SkirmishBot

    @property
    def app(self) -> App:
        return self.bot.app

    async def act(self, interaction: discord.Interaction, ruleset: str, action: str, **params: Any) -> None:
        reply = await self.app.act(
            caller_of(interaction), ruleset, action, params, command_line(ruleset, action, params)
        )
        await deliver(interaction, reply)


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
