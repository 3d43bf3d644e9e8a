"""What was applied but never answered, said in its channel: after a restart, every channel's
actions whose answer never went (:func:`bot.adapter.client.SkirmishBot.setup_hook`); at once, an
action whose answer missed Discord's 3 seconds (:func:`bot.adapter.delivery.deliver`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.app.answers import OwedNotice
from bot.app.replies import Reply

if TYPE_CHECKING:
    from bot.app.service import App

log = logging.getLogger("skirmish_gm.owed")

#: Posts a reply in a channel (by id).
Post = Callable[[int, Reply], Awaitable[Any]]


async def tell_owed(app: App, post: Post, owed: list[OwedNotice]) -> None:
    """Say in each channel what was applied there but never answered, so nobody sends it again;
    then it is owed no more. A channel that cannot be posted in (deleted, or the bot's access taken
    away) is told nothing, and is not tried again. With several processes (issue 29) each should
    tell only the guilds it serves (a notice names its guild)."""
    for notice in owed:
        try:
            await post(notice.channel_id, notice.reply)
        except discord.HTTPException as exc:
            log.warning("could not tell channel %s what was applied unanswered: %s", notice.channel_id, exc)
        except Exception:
            log.exception("could not tell channel %s what was applied unanswered", notice.channel_id)
            continue
        await app.owed.settle(notice)
        log.info(
            "told channel %s of %d action(s) applied but never answered", notice.channel_id, len(notice.action_ids)
        )
