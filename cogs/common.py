"""What the cogs share beside the adapter's AppCog: an attached file read, and for the hand-written
ruleset cogs the autocompletes of names (kept in :mod:`bot.adapter.slash`, which completes a built
command's options by what they name) and the help of a move's map options (:mod:`rules.specs`
declares them once)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord

from bot.adapter.delivery import thinking
from bot.adapter.slash import figure_autocomplete, kind_autocomplete, roster_autocomplete, side_autocomplete
from bot.app.replies import Refusal
from bot.app.yaml_format import MAX_FILE_BYTES
from rules.core import short

__all__ = [
    "FILE_HELP",
    "TO_HELP",
    "VIA_HELP",
    "attachment_bytes",
    "figure_autocomplete",
    "kind_autocomplete",
    "roster_autocomplete",
    "side_autocomplete",
]

#: The options a move on the bot's map takes, described once for every ruleset's move command.
TO_HELP = 'Map: where it goes, x,y in inches from the lower-left corner ("14,22")'
VIA_HELP = 'Map: waypoints on the way, "10,12 14,18" (the last is the end unless to: is given)'


#: Reading an attachment from Discord's file servers is usually quick; if it is not, the
#: interaction is deferred (privately) so the 3-second answer window is never missed.
READ_BEFORE_DEFER = 1.5
READ_AT_MOST = 30.0
FILE_HELP = "A YAML file (from an export, or written by hand)"


async def attachment_bytes(interaction: discord.Interaction, file: Any) -> tuple[str, bytes]:
    """The name and content of an attached file, its size checked before it is read.

    ``file`` is a ``discord.Attachment`` (or, in the terminal, a local file offering the same
    ``filename``, ``size`` and ``read()``)."""
    size = getattr(file, "size", None)
    if not isinstance(size, int) or not callable(getattr(file, "read", None)):
        raise Refusal("Attach the YAML file to the command's file option.")
    name = str(getattr(file, "filename", "") or "the file")[:100]
    if size > MAX_FILE_BYTES:
        raise Refusal(f"{short(name)} is {size // 1024} KiB; the most a file may be is {MAX_FILE_BYTES // 1024} KiB.")
    reading = asyncio.ensure_future(file.read())
    try:
        try:
            data = await asyncio.wait_for(asyncio.shield(reading), READ_BEFORE_DEFER)
        except TimeoutError:
            if not interaction.response.is_done():
                await thinking(interaction, ephemeral=True)
            data = await asyncio.wait_for(reading, READ_AT_MOST)
    except TimeoutError:
        raise Refusal(f"Discord took too long to hand over {short(name)}; attach it again.") from None
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        raise Refusal(f"Discord did not hand over {short(name)}; attach it again.") from None
    if not isinstance(data, bytes) or len(data) > MAX_FILE_BYTES:
        raise Refusal(f"{short(name)} is larger than {MAX_FILE_BYTES // 1024} KiB.")
    return name, data
