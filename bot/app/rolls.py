"""/roll: free dice, logged in the game in progress; and the names autocomplete offers."""

from __future__ import annotations

from bot.app.access import campaign_here, figure_names_in
from bot.app.actions import replayed
from bot.app.battle_dice import command_dice, progress, stream_of
from bot.app.context import Context
from bot.app.entries import command_line, log_entry
from bot.app.free_roll_dice import commitment_line, record, stream_for
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.dice import free_roll
from bot.render.shown import shown
from rules import get_engine
from rules.payloads import RollPayload

SECRET = "🔒"


class RollCommands:
    """/roll, and the names autocomplete offers."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def roll(self, caller: Caller, expression: str, reason: str | None = None, secret: bool = False) -> Reply:
        """Free dice in d20 notation; logged in the game when one is in progress here.

        ``secret``: the game master rolls privately (an ephemeral answer) for a scenario event.
        The roll is logged like any other, marked secret: the log and the report show it to the
        game master at once and to everyone when the battle ends (see :mod:`bot.app.reports`).
        Only the game master may, and only while a game is in progress (there is no log else).
        """
        why = " ".join((reason or "").split())[:100] or "free roll"
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_here(u, caller)
            if secret and (campaign is None or campaign.gm_id != caller.user_id):
                raise Refusal("Only the game master may roll in secret.")
            game = await u.games.in_progress(campaign.id, lock=True) if campaign else None
            if secret and game is None:
                raise Refusal("A secret roll is kept in a battle's log, and no battle is in progress here.")
            last_seq = 0
            if game is not None:
                applied, last_seq = await u.log.roll_context(game.id, caller.interaction_id)
                if applied and caller.interaction_id is not None:
                    again = await replayed(u, caller.interaction_id)
                    if again is not None:
                        return again
            between = None
            if game is None and campaign is not None:
                done = await u.streams.applied(caller.interaction_id)
                if done is not None:
                    card = Card(title=f"Already rolled: {done.command}", description="")
                    return Reply(cards=[card], ephemeral=True, replayed=True)
                between, stream = await stream_for(u, campaign)
                dice = command_dice(self.ctx.dice(), stream)
            else:
                dice = command_dice(self.ctx.dice(), stream_of(game) if game is not None else None)
            result = free_roll(expression, dice, f"{caller.display_name}: {why}")
            if between is not None:
                typed = command_line("roll", "", {"dice": expression, "reason": reason})
                between = await record(u, between, dice, caller, typed)
            said = f"{shown(caller.display_name)} rolls {'in secret ' if secret else ''}{result.detail}"
            event = RollPayload(result.expression, result.total, secret).event(said)
            if game is not None and campaign is not None:
                params = {"dice": expression, "reason": reason, "secret": True if secret else None}
                entry = log_entry(
                    game,
                    last_seq + 1,
                    caller,
                    command_line("roll", "", params),
                    state_before=None,
                    by_gm=campaign.gm_id == caller.user_id,
                    side=None,
                    events=[event],
                    rolled=dice.rolled,
                    secret=secret,
                )
                await u.play.append_action(entry)
                await u.play.save_dice(game, **progress(dice))
        if secret:
            card = Card(
                title=f"{SECRET} Secret roll: {result.expression}",
                description=f"{result.detail}\n**Total: {result.total}**",
                footer=f"{why} · only you see this; the log keeps it and shows it to all when the battle ends",
            )
            return Reply(cards=[card], events=[event], rolls=list(dice.rolled), ephemeral=True, owed=game is not None)
        card = Card(
            title=shown(f"{caller.display_name} rolls {result.expression}"),
            description=f"{result.detail}\n**Total: {result.total}**",
            footer=why if between is None else f"{why} · {commitment_line(between)}",
        )
        return Reply(cards=[card], events=[event], rolls=list(dice.rolled), owed=game is not None)

    async def figure_names(self, caller: Caller, current: str, *, in_game: bool = True) -> list[str]:
        """Names for autocomplete: figures of the game in progress (else the rosters) matching ``current``."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_here(u, caller)
            if campaign is None:
                return []
            game = await u.games.in_progress(campaign.id) if in_game else None
            if game is not None:
                names = figure_names_in(self.ctx.states, campaign, game)
            else:
                names = await u.figures.names(campaign.id)
        needle = current.casefold()
        return [n for n in names if needle in n.casefold()][:25]

    async def campaign_ruleset(self, caller: Caller) -> str | None:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_here(u, caller)
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
