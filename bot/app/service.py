"""The application layer: load, check, act, save, render — one command, one transaction.

Both front-ends (the Discord cogs and the terminal) call :class:`App` with a :class:`Caller` and
show the :class:`Reply` it returns. Nothing here knows about Discord or the database's kind: the
parts below reach the database only through :class:`bot.store.Store`. ``App`` builds each part from
what it needs and offers every command under one name, so a front-end never needs to know which
part answers it.
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
        drawn = self.ctx.pictures.drawn  # a reply that shows the battlefield gets its picture, drawn last
        # (an action's may follow its answer: bot.app.waiting.PICTURE_FOLLOWS)

        # The commands, as the front-ends call them.
        self.campaign_new = self.campaigns.campaign_new
        self.campaign_join = self.campaigns.campaign_join
        self.campaign_info = self.campaigns.campaign_info
        self.campaign_end = self.campaigns.campaign_end
        self.campaign_battlefield = self.campaigns.campaign_battlefield
        self.roster_add = self.rosters.roster_add
        self.roster_list = self.rosters.roster_list
        self.roster_show = self.rosters.roster_show
        self.roster_remove = self.rosters.roster_remove
        self.roster_export = self.exchange.roster_export
        self.roster_import = self.exchange.roster_import
        self.campaign_export = self.exchange.campaign_export
        self.campaign_import = self.exchange.campaign_import
        self.rules_set = self.exchange.rules_set
        self.rules_show = self.exchange.rules_show
        self.rules_clear = self.exchange.rules_clear
        self.game_start = drawn(self.games.game_start, follows=True)
        self.act = drawn(self.actions.act, follows=True)
        self.game_status = drawn(self.games.game_status)
        self.game_undo = self.games.game_undo
        self.game_end = self.games.game_end
        self.game_log = self.reports.game_log
        self.game_report = self.reports.game_report
        self.decide = drawn(self.decisions.decide, follows=True)
        self.open_decisions = self.decisions.open_decisions
        self.roll = self.rolls.roll
        self.figure_names = self.rolls.figure_names
        self.campaign_ruleset = self.rolls.campaign_ruleset
        self.side_names = self.rolls.side_names
        self.kind_names = self.rolls.kind_names
        self.odds = self.odds_part.odds
        self.set_deadline = self.pace.set_deadline
        self.sync_deadlines = self.pace.sync_deadlines
        self.due_reminders = self.pace.due_reminders
        self.send_reminder = self.pace.send_reminder
        self.release_reminder = self.pace.release_reminder
        self.due_timeouts = self.pace.due_timeouts
        self.pace_of = self.pace.pace_of
        self.map_new = drawn(self.maps.map_new)
        self.map_feature_add = drawn(self.maps.feature_add)
        self.map_feature_remove = drawn(self.maps.feature_remove)
        self.map_zone = drawn(self.maps.zone_set)
        self.map_import = drawn(self.maps.map_import)
        self.map_export = self.maps.map_export
        self.map_show = drawn(self.maps.map_show)
        self.map_place = drawn(self.maps.place, follows=True)
        self.map_deploy = drawn(self.maps.deploy, follows=True)
        self.map_scenarios = self.maps.scenario_names
        self.map_features = self.maps.feature_names

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
