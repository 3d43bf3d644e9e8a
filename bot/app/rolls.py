"""/roll: free dice, logged in the game in progress; and the names autocomplete offers."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from bot.app.base import APPLIED, LAST_SEQ, AppBase, command_line
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.dice import RecordingDice, free_roll
from bot.store.schema import Figure
from rules import get_engine
from rules.core import Event

SECRET = "🔒"
#: Before a roll in a game: was this interaction applied already, and the log's last seq.
ROLL_CONTEXT = select(APPLIED, LAST_SEQ)
_figures = Figure.__table__
ROSTER_NAMES = select(_figures.c.name).where(_figures.c.campaign_id == bindparam("campaign")).order_by(_figures.c.name)


class RollCommands(AppBase):
    async def roll(self, caller: Caller, expression: str, reason: str | None = None, secret: bool = False) -> Reply:
        """Free dice in d20 notation; logged in the game when one is in progress here.

        ``secret``: the game master rolls privately (an ephemeral answer) for a scenario event.
        The roll is logged like any other, marked secret: the log and the report show it to the
        game master at once and to everyone when the battle ends (see :mod:`bot.app.reports`).
        Only the game master may, and only while a game is in progress (there is no log else).
        """
        why = " ".join((reason or "").split())[:100] or "free roll"
        dice = RecordingDice(self._dice())
        async with self._run_locked(caller), self.db.plain() as tx:
            campaign = await self._campaign_row_here(tx, caller)
            if secret and (campaign is None or campaign.gm_id != caller.user_id):
                raise Refusal("Only the game master may roll in secret.")
            game = await self._game_row(tx, campaign.id, lock=True) if campaign else None
            if secret and game is None:
                raise Refusal("A secret roll is kept in a battle's log, and no battle is in progress here.")
            if game is not None:
                applied, last_seq = await tx.first(
                    ROLL_CONTEXT, {"interaction": caller.interaction_id, "game": game.id}
                )
                if applied is not None and caller.interaction_id is not None:
                    replayed = await self._replay(await tx.session(), caller.interaction_id)
                    if replayed is not None:
                        return replayed
            result = free_roll(expression, dice, f"{caller.display_name}: {why}")
            data = {"expression": result.expression, "total": result.total}
            if secret:
                event = Event(
                    "roll", f"{caller.display_name} rolls in secret {result.detail}", {**data, "secret": True}
                )
            else:
                event = Event("roll", f"{caller.display_name} rolls {result.detail}", data)
            if game is not None:
                params = {"dice": expression, "reason": reason, "secret": True if secret else None}
                entry = self._record(
                    game,
                    (last_seq or 0) + 1,
                    caller,
                    command_line("roll", "", params),
                    None,
                    campaign.gm_id == caller.user_id,
                    None,
                    [event],
                    dice.rolled,
                )
                entry.secret = secret
                await self._write(tx, entry)
        if secret:
            card = Card(
                title=f"{SECRET} Secret roll: {result.expression}",
                description=f"{result.detail}\n**Total: {result.total}**",
                footer=f"{why} · only you see this; the log keeps it and shows it to all when the battle ends",
            )
            return Reply(cards=[card], events=[event], rolls=list(dice.rolled), ephemeral=True)
        card = Card(
            title=f"{caller.display_name} rolls {result.expression}",
            description=f"{result.detail}\n**Total: {result.total}**",
            footer=why,
        )
        return Reply(cards=[card], events=[event], rolls=list(dice.rolled))

    async def figure_names(self, caller: Caller, current: str, *, in_game: bool = True) -> list[str]:
        """Names for autocomplete: figures of the game in progress (else the rosters) matching ``current``."""
        async with self.db.plain() as tx:
            campaign = await self._campaign_row_here(tx, caller)
            if campaign is None:
                return []
            game = await self._game_row(tx, campaign.id) if in_game else None
            if game is not None:
                names = self._figure_names_in(campaign, game)
            else:
                names = [row[0] for row in await tx.rows(ROSTER_NAMES, {"campaign": campaign.id})]
        needle = current.casefold()
        return [n for n in names if needle in n.casefold()][:25]

    async def campaign_ruleset(self, caller: Caller) -> str | None:
        async with self.db.plain() as tx:
            campaign = await self._campaign_row_here(tx, caller)
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
