"""One place that turns any exception into what the player is told.

A :class:`RuleError` (from the rules or the application) carries a sentence safe to show. Anything
else is a bug: it is logged with its traceback, and the player gets a short apology. The command
tree's ``on_error`` and the buttons' clicks answer with it through
:func:`bot.adapter.delivery.deliver_error`; the terminal prints it.
"""

from __future__ import annotations

import logging

from discord import app_commands

from rules.core import RuleError

log = logging.getLogger("skirmish_gm.errors")

BUG_SENTENCE = "Something went wrong on our side; nothing was changed. The game master can check the bot's log."


def unwrap(exc: BaseException) -> BaseException:
    """The exception a command raised, out of discord.py's wrapper."""
    while isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    return exc


def player_message(exc: BaseException, *, context: str = "") -> str:
    """The sentence for the player; logs the traceback when ``exc`` is not a refusal."""
    exc = unwrap(exc)
    if isinstance(exc, RuleError):
        return exc.message
    if isinstance(exc, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {exc.retry_after:.0f} seconds."
    if isinstance(exc, app_commands.NoPrivateMessage):
        return "This command works in a server channel, not in direct messages."
    if isinstance(exc, app_commands.CheckFailure):
        return "You may not use this command."
    if isinstance(exc, app_commands.TransformerError):
        return f"{exc.value!r} is not a valid value here."
    if isinstance(exc, app_commands.CommandNotFound):
        return "That command is not known here (the bot may have been updated: wait a minute and try again)."
    if isinstance(exc, app_commands.CommandSignatureMismatch):
        return "That command changed since Discord last heard of it; try again in a minute."
    log.error("unexpected error%s", f" in {context}" if context else "", exc_info=exc)
    return BUG_SENTENCE
