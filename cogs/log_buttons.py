"""Newer/Older buttons under a page of ``/game log`` that outlive a restart.

Each button's custom_id is ``log:<game id>:<page>:<actions a page>``: the game's internal id, which
players never see (they see and type the battle's number in its campaign). discord.py parses it on
any click (registered once with ``add_dynamic_items``), and the click asks the application layer
for that page as the one who pressed sees it (secret rolls stay hidden from everyone but the game
master until the battle ends), then shows it in place of the page it was pressed on.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.app.replies import Reply
from bot.app.reports import LogPage
from bot.errors import player_message
from bot.render.embeds import to_embeds
from cogs.common import ALREADY_ANSWERED
from cogs.replies import NOBODY, app_of, caller_of, message_kwargs

log = logging.getLogger("skirmish_gm.cogs")

NEWER = "◀ Newer"
OLDER = "Older ▶"


class LogPageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"log:(?P<game>[0-9]{1,10}):(?P<page>[0-9]{1,7}):(?P<count>[0-9]{1,2})",
):
    def __init__(self, game_id: int, page: int, count: int, label: str = "…", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"log:{game_id}:{page}:{count}",
            )
        )
        self.game_id = game_id
        self.page = page
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LogPageButton:
        return cls(int(match["game"]), int(match["page"]), int(match["count"]), item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page the button names, in place of this one."""
        try:
            reply = await app_of(interaction).game_log(
                caller_of(interaction), self.count, self.page, game_id=self.game_id
            )
        except Exception as exc:  # the button's own error funnel: same sentences as the tree's
            message = player_message(exc, context=f"log page {self.page} of game {self.game_id}")
            await interaction.response.send_message(**message_kwargs(Reply.error(message)), ephemeral=True)
            return
        interaction.extras["reply"] = reply
        await interaction.response.edit_message(
            content=None, embeds=to_embeds(reply.cards), view=log_view(reply), allowed_mentions=NOBODY
        )


def log_view(reply: Reply) -> discord.ui.View | None:
    """Newer and Older for a log with more than one page (each disabled at its end); else none."""
    if not isinstance(reply, LogPage) or reply.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LogPageButton(reply.game_id, reply.page - 1, reply.count, NEWER, disabled=reply.page <= 1))
    view.add_item(LogPageButton(reply.game_id, reply.page + 1, reply.count, OLDER, disabled=reply.page >= reply.pages))
    return view


async def deliver_page(interaction: discord.Interaction, reply: Reply) -> None:
    """Like :func:`cogs.common.deliver`, with the page's buttons."""
    interaction.extras["reply"] = reply
    kwargs: dict[str, Any] = {**message_kwargs(reply), "ephemeral": reply.ephemeral}
    view = log_view(reply)
    if view is not None:
        kwargs["view"] = view
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as exc:
        if exc.code not in ALREADY_ANSWERED:
            raise
        log.info("interaction %s was already answered (a repeated delivery)", interaction.id)
