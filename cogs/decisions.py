"""/decide: answer a decision waiting for you, as its buttons do (this cog registers them)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.delivery import DecisionButton, deliver
from bot.adapter.messages import app_of, caller_of


async def choice_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    waiting = await app_of(interaction).open_decisions(caller_of(interaction))
    offered: list[app_commands.Choice[str]] = []
    for decision in waiting:
        for choice in decision.choices:
            label = f"{choice.label} — {decision.prompt}"
            if current.casefold() in label.casefold():
                offered.append(app_commands.Choice(name=label[:100], value=choice.value[:100]))
    return offered[:25]


class DecisionCog(AppCog, commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]

    @app_commands.command(name="decide", description="Answer a decision that is waiting for you")
    @app_commands.describe(
        choice="Your choice", decision="Which decision, by number (default: the oldest waiting for you)"
    )
    @app_commands.autocomplete(choice=choice_autocomplete)
    async def decide(
        self,
        interaction: discord.Interaction,
        choice: app_commands.Range[str, 1, 100],
        decision: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.decide(caller_of(interaction), choice, decision))


async def setup(bot: commands.Bot) -> None:
    """The cog, and the decision buttons it answers (registered by their custom_id's template, so
    loading the cog again registers them once still)."""
    bot.add_dynamic_items(DecisionButton)
    await bot.add_cog(DecisionCog(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(DecisionButton)
