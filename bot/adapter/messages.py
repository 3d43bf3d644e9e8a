"""Who is calling, and a :class:`Reply` as the arguments of a Discord message."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.adapter.embeds import to_embeds
from bot.app.replies import Caller, Reply
from bot.app.service import App

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
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=i) for i in reply.ping_user_ids]
    )


def message_kwargs(reply: Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": reply.content[:2000] if reply.content else None,
        "embeds": to_embeds(reply.cards),
        "allowed_mentions": allowed_mentions(reply),
    }
    if reply.files:
        kwargs["files"] = [discord.File(io.BytesIO(data), filename=name) for name, data in reply.files]
    return kwargs
