"""/roll: free dice, logged in the game in progress; and the names autocomplete offers."""
from __future__ import annotations

from sqlalchemy import func, select

from bot.app.base import AppBase, command_line
from bot.app.replies import Caller, Card, Reply
from bot.db.models import ActionRecord, Figure
from bot.dice import RecordingDice, free_roll
from rules import get_engine
from rules.core import Event


class RollCommands(AppBase):
    async def roll(self, caller: Caller, expression: str, reason: str | None = None) -> Reply:
        """Free dice in d20 notation; logged in the game when one is in progress here."""
        why = " ".join((reason or "").split())[:100] or "free roll"
        dice = RecordingDice(self._dice())
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign_here(s, caller)
            game = await self._game(s, campaign, lock=True) if campaign else None
            if game is not None:
                applied, last_seq = (await s.execute(select(
                    select(ActionRecord.id).where(ActionRecord.interaction_id == caller.interaction_id).scalar_subquery(),
                    select(func.max(ActionRecord.seq)).where(ActionRecord.game_id == game.id).scalar_subquery(),
                ))).one()
                if applied is not None and caller.interaction_id is not None:
                    replayed = await self._replay(s, caller.interaction_id)
                    if replayed is not None:
                        return replayed
            result = free_roll(expression, dice, f"{caller.display_name}: {why}")
            event = Event("roll", f"{caller.display_name} rolls {result.detail}", {"expression": result.expression, "total": result.total})
            if game is not None:
                seq = (last_seq or 0) + 1
                s.add(self._record(game, seq, caller, command_line("roll", "", {"dice": expression, "reason": reason}),
                                   None, campaign.gm_id == caller.user_id, None, [event], dice.rolled))
        card = Card(title=f"{caller.display_name} rolls {result.expression}", description=f"{result.detail}\n**Total: {result.total}**", footer=why)
        return Reply(cards=[card], events=[event], rolls=list(dice.rolled))

    async def figure_names(self, caller: Caller, current: str, *, in_game: bool = True) -> list[str]:
        """Names for autocomplete: figures of the game in progress (else the rosters) matching ``current``."""
        async with self.db.transaction() as s:
            campaign = await self._campaign_here(s, caller)
            if campaign is None:
                return []
            game = await self._game(s, campaign) if in_game else None
            if game is not None:
                names = self._figure_names_in(campaign, game)
            else:
                names = list(await s.scalars(select(Figure.name).where(Figure.campaign_id == campaign.id).order_by(Figure.name)))
        needle = current.casefold()
        return [n for n in names if needle in n.casefold()][:25]

    async def campaign_ruleset(self, caller: Caller) -> str | None:
        async with self.db.transaction() as s:
            campaign = await self._campaign_here(s, caller)
            return campaign.ruleset if campaign else None

    async def side_names(self, caller: Caller, current: str) -> list[str]:
        ruleset = await self.campaign_ruleset(caller)
        if ruleset is None:
            return []
        return [n for n in get_engine(ruleset).sides() if current.casefold() in n.casefold()][:25]

    async def kind_names(self, caller: Caller, current: str) -> list[str]:
        ruleset = await self.campaign_ruleset(caller)
        if ruleset is None:
            return []
        return [n for n in get_engine(ruleset).kinds() if current.casefold() in n.casefold()][:25]
