"""Rosters and campaigns as YAML, in and out; a campaign's house rules. (Issue 8: being built.)"""
from __future__ import annotations

from bot.app.base import AppBase


class ExchangeCommands(AppBase):
    pass
