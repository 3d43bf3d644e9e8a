"""What every cog is built on: :class:`AppCog`."""

from __future__ import annotations

from typing import Any

import discord

from bot.adapter.client import SkirmishBot
from bot.adapter.delivery import deliver
from bot.adapter.messages import caller_of
from bot.app.inputs import command_line
from bot.app.service import App


class AppCog:
    """Mixin for the cogs: ``self.app``, and a ruleset's action applied and delivered.

    The whole path of ``/sharpe shoot`` is the cog, :meth:`AppCog.act` here,
    :meth:`bot.app.actions.Actions.act` and :class:`bot.store.play.Play`. ``act`` is also the seam
    /odds uses: it hands a ruleset command a stand-in whose ``act`` reads the action instead.
    """

    bot: SkirmishBot

    @property
    def app(self) -> App:
        return self.bot.app

    async def act(self, interaction: discord.Interaction, ruleset: str, action: str, **params: Any) -> None:
        command = command_line(ruleset, action, params)
        reply = await self.app.act(caller_of(interaction), ruleset, action, params, command)
        await deliver(interaction, reply)
