"""/odds: the chances of an action's outcomes in the game as it stands, before anyone rolls."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

from bot.app.access import campaign_and_player, engine_of
from bot.app.context import Context
from bot.app.inputs import command_line
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.dice import RecordingDice, SeededDice
from rules import RULESETS
from rules.core import Action
from rules.odds import Budget, Odds, odds

OUTCOMES_SHOWN = 15


class OddsCommands:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def odds(self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any]) -> Reply:
        """Exact where the dice are few enough to enumerate, else by simulation; changes nothing."""
        async with self.ctx.store.transaction() as u:
            campaign, member = await campaign_and_player(u, caller)
            if campaign.ruleset != ruleset:
                raise Refusal(
                    f"This channel plays {RULESETS[campaign.ruleset][1]}: ask the odds of /{campaign.ruleset} actions."
                )
            game = await u.games.in_progress(campaign.id)
            if game is None:
                raise Refusal("No game is in progress: odds are for actions in a game.")
            state_data = game.state
        engine = engine_of(campaign)
        state = engine.load_state(state_data)
        side, by_gm = member.side, False
        if campaign.gm_id == caller.user_id:
            turn = engine.whose_turn(state)
            if turn is not None and side != turn:
                side, by_gm = turn, True
        action = Action(action_name, side, dict(params), by_gm)
        probe = RecordingDice(SeededDice(0))
        asked = engine.act(state, action, probe).pending
        if asked is not None and not probe.rolled:  # its dice come after a player's choice (a defence in melee)
            raise Refusal(
                f"This action waits for {asked.decider} to choose before any die is rolled "
                f"({asked.prompt.rstrip('.?')}), so there are no odds to give."
            )
        budget = Budget(time.monotonic)
        result = await asyncio.to_thread(odds, engine, state, action, SeededDice(0), budget=budget)
        return Reply(cards=[odds_card(command_line(ruleset, action_name, params), result)], ephemeral=True)


def odds_card(command: str, result: Odds) -> Card:
    lines = [f"{100 * p:5.1f}% — {label}" for label, p in result.outcomes[:OUTCOMES_SHOWN]]
    rest = len(result.outcomes) - OUTCOMES_SHOWN
    if rest > 0:
        lines.append(f"… and {rest} rarer outcomes")
    how = (
        f"exact: every one of {result.runs:,} dice sequences enumerated"
        if result.method == "exact"
        else f"by simulation: {result.runs:,} runs with random dice"
    )
    card = Card(title="Odds before you roll", description=f"`{command}`\n" + "\n".join(lines), footer=how)
    card.fields.append(("Expected casualties", f"{result.casualties:.2f}", True))
    return card
