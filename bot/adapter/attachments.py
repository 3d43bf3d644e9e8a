"""A file attached to a command, read from Discord's file servers into an :class:`Upload`."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord

from bot.adapter.delivery import waiting
from bot.app.commands.declared import Upload
from bot.app.replies import Refusal
from bot.app.yaml_format import MAX_FILE_BYTES
from rules.core import short

#: Reading an attachment from Discord's file servers is usually quick; if it is not, the
#: interaction is deferred (privately, :func:`bot.adapter.delivery.waiting`) so the 3-second answer
#: window is never missed, and the file given up on after this many seconds.
READ_AT_MOST = 30.0


async def upload_of(interaction: discord.Interaction, file: Any) -> Upload:
    """The name and content of an attached file, its size checked before it is read.

    ``file`` is a ``discord.Attachment`` (or anything offering the same ``filename``, ``size`` and
    ``read()``)."""
    size = getattr(file, "size", None)
    if not isinstance(size, int) or not callable(getattr(file, "read", None)):
        raise Refusal("Attach the YAML file to the command's file option.")
    name = str(getattr(file, "filename", "") or "the file")[:100]
    if size > MAX_FILE_BYTES:
        raise Refusal(f"{short(name)} is {size // 1024} KiB; the most a file may be is {MAX_FILE_BYTES // 1024} KiB.")
    try:
        async with waiting(interaction, ephemeral=True):
            data = await asyncio.wait_for(file.read(), READ_AT_MOST)
    except TimeoutError:
        raise Refusal(f"Discord took too long to hand over {short(name)}; attach it again.") from None
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        raise Refusal(f"Discord did not hand over {short(name)}; attach it again.") from None
    if not isinstance(data, bytes) or len(data) > MAX_FILE_BYTES:
        raise Refusal(f"{short(name)} is larger than {MAX_FILE_BYTES // 1024} KiB.")
    return Upload(name, data)
