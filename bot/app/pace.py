"""Play-by-chat pace: a turn deadline, one reminder before it, and what happens at it. (Issue 8: being built.)"""
from __future__ import annotations

from bot.app.base import AppBase
from bot.app.replies import Caller, Reply


class PaceCommands(AppBase):
    async def set_deadline(self, caller: Caller, hours: float | None, on_timeout: str | None) -> Reply:
        """The game master sets (or clears, with ``hours=None``) the campaign's turn deadline and
        what happens when it passes (``on_timeout``: "pass" or "gm")."""
        raise NotImplementedError
