"""The floor for the latency benchmark: a bare discord.py bot answering every slash command
with one static embed. No database, no rules: no discord.py bot can answer faster than this.

    DISCORD_TOKEN=… DISCORD_API_BASE=… DISCORD_GATEWAY_URL=… python -m bench.bare_bot
"""

from __future__ import annotations

import asyncio
import os

import discord
from discord import app_commands

from bot.adapter.client import point_at


class BareBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.tree = app_commands.CommandTree(self)
        self.embed = discord.Embed(title="Static", description="The same embed every time.")

        @self.tree.command(name="ping", description="Answer with a static embed")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(embed=self.embed)

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def main() -> None:
    point_at(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"))
    async with BareBot() as client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
