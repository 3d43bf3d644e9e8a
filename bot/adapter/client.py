"""The discord.py bot: loads the cogs by name, handles every error in one place, syncs commands on change."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.adapter.delivery import answer_in_time, channel_poster, deliver_error
from bot.adapter.once import Deliveries, first_delivery
from bot.adapter.owed import tell_owed
from bot.adapter.scheduler import PaceScheduler
from bot.app import map_checks
from bot.app.service import App
from bot.gc_pacing import BetweenCommands

log = logging.getLogger("skirmish_gm.client")

#: The extension the bot loads, by name: the cogs package, whose ``setup`` loads every cog (and
#: each cog registers its own buttons). The bot never imports the cogs itself.
COGS = "cogs"


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Talk to a Discord-compatible server instead of discord.com (``DISCORD_API_BASE``/``DISCORD_GATEWAY_URL``).

    discord.py reads ``Route.BASE`` for REST, interaction callbacks and webhooks alike, and a plain
    ``Bot`` connects straight to ``DiscordWebSocket.DEFAULT_GATEWAY``.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class SkirmishTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Every command and autocomplete: a repeated delivery of one taken already is dropped (it is
        answered once), its garbage is collected once it has finished (bot.gc_pacing), and a reply
        that waits too long for its picture is deferred rather than lost."""
        if not first_delivery(interaction):
            return False
        answer_in_time(interaction)  # first: it lets go of the interaction before the collection
        collector = getattr(self.client, "collector", None)
        if collector is not None:
            collector.command_started(asyncio.current_task())
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The one error handler of every command: a sentence for the player, the traceback of a bug for the log."""
        command = interaction.command or getattr(error, "command", None)  # a next move's button: its command
        name = command.qualified_name if command is not None else "?"
        await deliver_error(interaction, error, context=f"/{name}")


class SkirmishBot(commands.Bot):
    def __init__(self, app: App, *, dev_guild_id: int | None = None, sync_state: Path | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            tree_cls=SkirmishTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.app = app
        self.dev_guild_id = dev_guild_id
        self.sync_state = sync_state
        self.scheduler: PaceScheduler | None = None
        self.frozen = False
        self.collector = BetweenCommands()
        self.deliveries = Deliveries()
        self._owed_told: asyncio.Task[None] | None = None

    async def load_cogs(self) -> None:
        await self.load_extension(COGS)

    async def setup_hook(self) -> None:
        await self.load_cogs()
        await self.sync_commands(force=False)
        self.scheduler = PaceScheduler(self.app, channel_poster(self))
        self.scheduler.start()
        self.app.ctx.pictures.warm()
        # Read before the gateway connects, so no action of this run is among them.
        owed = await self.app.owed.unanswered()
        if owed:
            self._owed_told = asyncio.create_task(tell_owed(self.app, channel_poster(self), owed))

    async def close(self) -> None:
        if self._owed_told is not None:
            self._owed_told.cancel()
        if self.scheduler is not None:
            await self.scheduler.stop()
        self.app.ctx.pictures.close()
        self.app.odds_part.close()
        map_checks.close()
        self.collector.stop()
        await super().close()

    def command_payload(self) -> list[dict[str, Any]]:
        return [command.to_dict(self.tree) for command in self.tree.get_commands()]

    async def sync_commands(self, *, force: bool) -> str:
        """Sync to the dev guild (instant) or globally, only when the commands changed since the last sync."""
        guild = discord.Object(id=self.dev_guild_id) if self.dev_guild_id else None
        scope = f"guild {self.dev_guild_id}" if guild else "all servers"
        digest = hashlib.sha256(json.dumps(self.command_payload(), sort_keys=True, default=str).encode()).hexdigest()
        key = f"{scope}:{digest}"
        if (
            not force
            and self.sync_state is not None
            and self.sync_state.exists()
            and self.sync_state.read_text() == key
        ):
            log.info("slash commands unchanged since the last sync to %s", scope)
            return scope
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        commands_synced = await self.tree.sync(guild=guild)
        if self.sync_state is not None:
            self.sync_state.parent.mkdir(parents=True, exist_ok=True)
            self.sync_state.write_text(key)
        log.info("synced %d slash commands to %s", len(commands_synced), scope)
        return f"{len(commands_synced)} commands to {scope}"

    async def on_ready(self) -> None:
        # What start-up built (modules, the command tree, mappers, caches) lives as long as the
        # bot: moved out of the collector's sight, a full collection under load takes
        # milliseconds, not tens of them. Once only: a later READY (a reconnect) would freeze
        # objects that are meant to die.
        if not self.frozen:
            gc.freeze()
            self.frozen = True
            self.collector.start()
        log.info("logged in as %s (%s) in %d guild(s)", self.user, getattr(self.user, "id", "?"), len(self.guilds))
