"""/odds: the chances of an action's outcomes in the game as it stands, before anyone rolls.

The bot's process only loads the game and checks who asks; the odds are worked out in a worker
process (``bot/app/odds_work.py``): in a thread their second or two of Python held up every other
command's answer. Each player may have one question being worked out at a time.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.app.access import campaign_and_player, engine_of
from bot.app.context import Context
from bot.app.inputs import command_line
from bot.app.odds_work import OddsJob, Refused, work_out
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.app.workers import WorkerPool
from bot.render.shown import shown
from rules import RULESETS
from rules.core import Action
from rules.odds import Odds, OddsReport

log = logging.getLogger("skirmish_gm.odds")

OUTCOMES_SHOWN = 15
#: Worker processes for /odds: one, at a lower priority than the bot (the machine's other core
#: answers commands meanwhile).
ODDS_WORKERS = 1
#: Every App of a process shares one pool (the tests build many), started on the first question.
POOL = WorkerPool("odds", ODDS_WORKERS)

BUSY = "Your last /odds is still being worked out: one question at a time. Its answer comes shortly."
FAILED = "The odds could not be worked out this time; nothing was changed. The game master can check the bot's log."


class OddsCommands:
    def __init__(self, ctx: Context, pool: WorkerPool = POOL) -> None:
        self.ctx = ctx
        self.pool = pool
        self._asking: set[int] = set()

    def close(self) -> None:
        """Stop the worker (the bot is closing)."""
        self.pool.close()

    async def odds(self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any]) -> Reply:
        """Exact where the dice are few enough to enumerate, else by simulation; changes nothing."""
        if caller.user_id in self._asking:
            raise Refusal(BUSY)
        self._asking.add(caller.user_id)
        try:
            job = await self._job(caller, ruleset, action_name, params)
            try:
                result = await self.pool.run(work_out, job)
            except Exception as exc:
                log.error("working out the odds of %s failed", command_line(ruleset, action_name, params), exc_info=exc)
                raise Refusal(FAILED) from exc
        finally:
            self._asking.discard(caller.user_id)
        if isinstance(result, Refused):
            raise Refusal(result.sentence)
        return Reply(cards=[odds_card(command_line(ruleset, action_name, params), result)], ephemeral=True)

    async def _job(self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any]) -> OddsJob:
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
        side, by_gm = member.side, False
        if campaign.gm_id == caller.user_id:
            engine = engine_of(campaign)
            turn = engine.whose_turn(engine.load_state(state_data))
            if turn is not None and side != turn:
                side, by_gm = turn, True
        action = Action(action_name, side, dict(params), by_gm)
        return OddsJob(campaign.ruleset, campaign.house_rules, state_data, action)


def odds_card(command: str, report: OddsReport) -> Card:
    """The private card: each outcome's chance, most likely first; one block per answer when the
    action waits for a choice; the chances of each part alone when the whole outcomes are many."""
    lines = [f"`{command}`"]
    if report.asks:
        lines.append(f"*{report.asks}*")
    card = Card(title="Odds before you roll", description="")
    for choice, odds in report.sections:
        if choice:
            lines.append(f"**If the answer is {choice}:**")
        lines.extend(_outcome_lines(odds))
        name = f"Expected casualties ({choice})" if choice else "Expected casualties"
        card.fields.append((name, f"{odds.casualties:.2f}", True))
    card.description = "\n".join(lines)
    card.footer = _how(report)
    return card


def _outcome_lines(odds: Odds) -> list[str]:
    if len(odds.outcomes) > OUTCOMES_SHOWN and len(odds.parts) < len(odds.outcomes):
        lines = ["Each result on its own:"]
        lines += [f"{100 * p:5.1f}% — {shown(label)}" for label, p in odds.parts]
        return lines
    lines = [f"{100 * p:5.1f}% — {shown(label)}" for label, p in odds.outcomes[:OUTCOMES_SHOWN]]
    rest = len(odds.outcomes) - OUTCOMES_SHOWN
    if rest > 0:
        lines.append(f"… and {rest} rarer outcomes")
    return lines


def _how(report: OddsReport) -> str:
    found = [odds for _, odds in report.sections]
    runs = sum(odds.runs for odds in found)
    if all(odds.method == "exact" for odds in found):
        return f"exact: every one of {runs:,} dice sequences enumerated"
    if all(odds.method == "counted" for odds in found):
        return f"exact: the cards counted over {runs:,} states of the deck"
    if all(odds.method == "simulation" for odds in found):
        return f"by simulation: {runs:,} runs with random dice"
    return "; ".join(
        f"{choice}: " + ("exact" if odds.method != "simulation" else f"by simulation, {odds.runs:,} runs")
        for choice, odds in report.sections
    )
