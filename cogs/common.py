"""What every cog shares: who is calling, delivering a reply, and autocomplete."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.app.replies import Caller, Reply
from bot.app.service import App, command_line
from bot.render.embeds import to_embeds

if TYPE_CHECKING:
    from bot.client import SkirmishBot

NOBODY = discord.AllowedMentions.none()


def caller_of(interaction: discord.Interaction) -> Caller:
    user = interaction.user
    return Caller(
        user_id=user.id,
        display_name=getattr(user, "display_name", None) or user.name,
        guild_id=interaction.guild_id or 0,
        channel_id=interaction.channel_id or 0,
        interaction_id=interaction.id,
    )


def app_of(interaction: discord.Interaction) -> App:
    return interaction.client.app  # type: ignore[attr-defined]


def allowed_mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the players a reply means to ping; never @everyone, roles or a name that looks like a mention."""
    if not reply.ping_user_ids:
        return NOBODY
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=i) for i in reply.ping_user_ids])


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    """Send ``reply`` as the interaction's response (or a follow-up if one was already sent)."""
    interaction.extras["reply"] = reply
    kwargs: dict[str, Any] = {
        "content": reply.content[:2000] if reply.content else None,
        "embeds": to_embeds(reply.cards),
        "ephemeral": reply.ephemeral,
        "allowed_mentions": allowed_mentions(reply),
    }
    view = decision_view(interaction, reply)
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


def decision_view(interaction: discord.Interaction, reply: Reply) -> discord.ui.View | None:
    """Buttons for a pending decision, when the bot supports them (see bot.client)."""
    if reply.decision is None:
        return None
    builder = getattr(interaction.client, "decision_view", None)
    return builder(reply.decision) if builder is not None else None


class AppCog:
    """Mixin: ``self.app`` and the generic ruleset action."""

    bot: "SkirmishBot"

    @property
    def app(self) -> App:
        return self.bot.app

    async def act(self, interaction: discord.Interaction, ruleset: str, action: str, **params: Any) -> None:
        reply = await self.app.act(caller_of(interaction), ruleset, action, params, command_line(ruleset, action, params))
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
