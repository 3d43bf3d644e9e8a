"""/help on Discord: the pages come from the application's declared commands
(:mod:`bot.app.commands.help`), as the terminal's do; this module adds the buttons that turn them.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.adapter.embeds import to_embeds
from bot.adapter.errors import player_message
from bot.adapter.messages import NOBODY
from bot.adapter.once import AnsweredOnce
from bot.app.commands import help as pages
from bot.app.commands.table import command_table, groups
from bot.app.replies import HelpReply

__all__ = ["BACK", "CONTENTS", "NEXT", "HelpButton", "HelpReply", "help_reply", "help_view"]

log = logging.getLogger("skirmish_gm.help")

BACK, NEXT, CONTENTS = "◀ Back", "Next ▶", "Contents"


def help_reply(topic: str | None = None, page: int = 1) -> HelpReply:
    """Page ``page`` of the help on ``topic``, private to whoever asked."""
    return pages.help_reply(command_table(), groups(), topic, page)


# --- the buttons under a page on Discord ---------------------------------------------------------


class HelpButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"help:(?P<page>[0-9]{1,3}):(?P<topic>[a-z0-9 _-]{0,60})",
):
    """Back, Next or Contents under a help page: the click shows that page in place of this one,
    built again from the declared commands (nothing about it lives in the bot's memory)."""

    def __init__(self, topic: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, disabled=disabled, custom_id=f"help:{page}:{topic}"
            )
        )
        self.topic = topic
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HelpButton:
        label = (item.label if isinstance(item, discord.ui.Button) else None) or "…"
        return cls(match["topic"], int(match["page"]), label)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            reply = help_reply(self.topic, self.page)
        except Exception as exc:
            await interaction.response.send_message(player_message(exc, context="help"), ephemeral=True)
            return
        interaction.extras["reply"] = reply
        await interaction.response.edit_message(
            content=None, embeds=to_embeds(reply.cards), view=help_view(reply), allowed_mentions=NOBODY
        )


def help_view(reply: HelpReply) -> discord.ui.View | None:
    """Back and Next for a topic of several pages, and Contents away from the contents."""
    buttons = []
    if reply.pages > 1:
        buttons.append(HelpButton(reply.topic, reply.page - 1, BACK, disabled=reply.page <= 1))
        buttons.append(HelpButton(reply.topic, reply.page + 1, NEXT, disabled=reply.page >= reply.pages))
    if reply.topic:
        buttons.append(HelpButton("", 1, CONTENTS))
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view
