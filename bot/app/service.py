"""The application layer: load, check, act, save, render — one command, one transaction.

The front-ends (Discord and the terminal) run the declared commands (:mod:`bot.app.commands`),
each of which calls one part of :class:`App` with a :class:`Caller` and shows the :class:`Reply` it
returns. Nothing here knows about Discord or the database's kind: the parts reach the database only
through :class:`bot.store.Store`. ``App`` builds each part from what it needs and exposes the parts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.app.actions import Actions
from bot.app.aftermath import Aftermath
from bot.app.answers import OwedAnswers
from bot.app.campaigns import CampaignCommands
from bot.app.context import Context, utcnow
from bot.app.decisions import DecisionCommands
from bot.app.exchange import ExchangeCommands
from bot.app.games import GameCommands
from bot.app.maps import MapCommands
from bot.app.odds import OddsCommands
from bot.app.pace import PaceCommands, PaceNotice
from bot.app.reports import ReportCommands
from bot.app.rolls import RollCommands
from bot.app.rosters import RosterCommands
from bot.app.undo import Undo
from bot.store import Store
from rules.core import DiceSource

__all__ = ["App"]


class App:
    """Every command of Skirmish GM, independent of the front-end."""

    def __init__(self, store: Store, dice: Callable[[], DiceSource], *, clock: Callable[[], datetime] = utcnow) -> None:
        self.ctx = Context(store, dice, clock)
        self.aftermath = Aftermath(self.ctx)
        self.actions = Actions(self.ctx, self.aftermath)
        self.undo = Undo(self.ctx, self.aftermath)
        self.decisions = DecisionCommands(self.ctx, self.actions, self.undo)
        self.games = GameCommands(self.ctx, self.actions, self.aftermath, self.undo)
        self.campaigns = CampaignCommands(self.ctx)
        self.rosters = RosterCommands(self.ctx)
        self.exchange = ExchangeCommands(self.ctx)
        self.rolls = RollCommands(self.ctx)
        self.odds_part = OddsCommands(self.ctx)
        self.reports = ReportCommands(self.ctx)
        self.pace = PaceCommands(self.ctx, actions=self.actions, decisions=self.decisions)
        self.maps = MapCommands(self.ctx, self.actions)
        self.owed = OwedAnswers(self.ctx)

    async def apply_timeout(self, deadline_id: int, now: datetime | None = None) -> PaceNotice | None:
        """:meth:`PaceCommands.apply_timeout`, with the picture of the battlefield a pass orders."""
        notice = await self.pace.apply_timeout(deadline_id, now)
        if notice is not None:
            await self.ctx.pictures.attach(notice.reply)
        return notice

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def pace_clock(self) -> Callable[[], datetime]:
        """The time of day every part reads (UTC); tests and the scheduler's tests set it."""
        return self.ctx.clock

    @pace_clock.setter
    def pace_clock(self, clock: Callable[[], datetime]) -> None:
        self.ctx.clock = clock

    @property
    def pace_hour(self) -> timedelta | None:
        """The length of a deadline hour, when not a real hour (tests, and a quick demo)."""
        return self.pace.hour

    @pace_hour.setter
    def pace_hour(self, hour: timedelta | None) -> None:
        self.pace.hour = hour

    def hour_length(self) -> timedelta:
        return self.pace.hour_length()
