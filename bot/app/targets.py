"""/sharpe targets: the rules' target priority for one shooter, measured on the battle's map and
shown only to the asker. A question like /odds: it loads the game, changes nothing, rolls nothing."""

from __future__ import annotations

from bot.app.access import campaign_and_player, engine_of
from bot.app.context import Context
from bot.app.replies import Caller, Card, Refusal, Reply
from rules import RULESETS
from rules.sharpe.engine import SharpeEngine


class TargetCommands:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def sharpe_targets(self, caller: Caller, shooter: str, weapon: str | None = None) -> Reply:
        """Whom ``shooter`` (a man or a gun) should shoot first, nearest first (A-SHARPE-50)."""
        async with self.ctx.store.transaction() as u:
            campaign, _ = await campaign_and_player(u, caller)
            if campaign.ruleset != "sharpe":
                raise Refusal(f"This channel plays {RULESETS[campaign.ruleset][1]}: /sharpe targets is for Sharpe.")
            game = await u.games.in_progress(campaign.id)
            if game is None:
                raise Refusal("No game is in progress: target priority is for a battle being fought.")
            engine = engine_of(campaign)
            state = self.ctx.states.load(engine, game)
        assert isinstance(engine, SharpeEngine)
        advice = engine.target_advice(state, shooter, weapon)
        card = Card(
            title=f"Targets for {advice.shooter} ({advice.weapon})",
            description="\n".join(advice.lines()),
            footer=engine.tables.hints.target_priority or None,
        )
        return Reply(cards=[card], ephemeral=True)
