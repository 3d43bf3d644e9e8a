"""Battle reports, the log page by page, and the game master's secret rolls. (Issue 8: being built.)"""
from __future__ import annotations

from bot.app.base import AppBase


class ReportCommands(AppBase):
    pass
