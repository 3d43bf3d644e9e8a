"""The application layer: load, check, act, save, render — one command, one transaction.

Both front-ends (the Discord cogs and the terminal) call :class:`App` with a :class:`Caller` and
show the :class:`Reply` it returns. Nothing here knows about Discord. Each concern is a module of
its own; ``App`` puts them together.
"""

from __future__ import annotations

from bot.app.base import clean_name, command_line, format_stats, parse_stats
from bot.app.campaigns import CampaignCommands
from bot.app.exchange import ExchangeCommands
from bot.app.games import GameCommands
from bot.app.odds import OddsCommands
from bot.app.pace import PaceCommands
from bot.app.reports import ReportCommands
from bot.app.rolls import RollCommands
from bot.app.rosters import RosterCommands

__all__ = ["App", "clean_name", "command_line", "format_stats", "parse_stats"]


class App(
    CampaignCommands,
    RosterCommands,
    GameCommands,
    RollCommands,
    ExchangeCommands,
    ReportCommands,
    PaceCommands,
    OddsCommands,
):
    """Every command of Skirmish GM, independent of the front-end."""
