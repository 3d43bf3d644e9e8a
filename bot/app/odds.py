"""/odds: the chances of an action's outcomes in the game as it stands, before anyone rolls.

The bot's process only loads the game and checks who asks; the odds are worked out in a worker
process (``bot/app/odds_work.py``): in a thread their second or two of Python held up every other
command's answer. Each player may have one question being worked out at a time; each channel's
are worked out one at a time, in turn with other channels' (``bot/app/workers.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from math import ceil, sqrt
from typing import Any

from bot.app.access import campaign_and_player, engine_of
from bot.app.context import Context
from bot.app.entries import command_line
from bot.app.odds_work import OddsJob, Refused, work_out
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.app.workers import OutOfTime, WorkerPool
from bot.render.shown import shown
from bot.store.column_values import saved_text
from rules import RULESETS
from rules.core import Action
from rules.odds import Odds, OddsReport

log = logging.getLogger("skirmish_gm.odds")

#: The most lines of outcomes a card lists (an "other" line among them).
OUTCOMES_SHOWN = 8
#: An outcome less likely than this is lumped into "other".
RARE = 0.01
#: Worker processes for /odds, at a lower priority than the bot: two, so that a channel's question
#: never waits for another channel's (each channel has one worked out at a time: WorkerPool.run).
ODDS_WORKERS = 2
#: Seconds a question may keep its worker. The odds keep their own budget (``OddsJob.seconds``)
#: and answer with what they found by then; this stops only one that does not.
ODDS_SECONDS = 10.0
#: Every App of a process shares one pool (the tests build many), started on the first question.
POOL = WorkerPool("odds", ODDS_WORKERS, seconds=ODDS_SECONDS, preload=("bot.app.odds_work",))

BUSY = "Your last /odds is still being worked out: one question at a time. Its answer comes shortly."
FAILED = "The odds could not be worked out this time; nothing was changed. The game master can check the bot's log."
TOO_LONG = "Those odds took too long to work out and were stopped; nothing was changed. Ask a smaller question."


class OddsCommands:
    def __init__(self, ctx: Context, pool: WorkerPool = POOL) -> None:
        self.ctx = ctx
        self.pool = pool
        self._asking: set[int] = set()

    def close(self) -> None:
        """Stop the worker (the bot is closing)."""
        self.pool.close()

    async def odds(
        self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any], typed: str | None = None
    ) -> Reply:
        """Exact where the dice are few enough to enumerate, else by simulation; changes nothing.
        The card repeats the action as ``typed`` (the options the player gave, no defaults)."""
        if caller.user_id in self._asking:
            raise Refusal(BUSY)
        self._asking.add(caller.user_id)
        try:
            job = await self._job(caller, ruleset, action_name, params)
            try:
                result = await self.pool.run(work_out, job, group=group_of(caller))
            except OutOfTime as late:
                raise Refusal(TOO_LONG) from late
            except Refusal:
                raise
            except Exception as exc:
                log.error("working out the odds of %s failed", command_line(ruleset, action_name, params), exc_info=exc)
                raise Refusal(FAILED) from exc
        finally:
            self._asking.discard(caller.user_id)
        if isinstance(result, Refused):
            raise Refusal(result.sentence)
        return Reply(cards=[odds_card(typed or command_line(ruleset, action_name, params), result)], ephemeral=True)

    async def _job(self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any]) -> OddsJob:
        async with self.ctx.store.transaction() as u:
            campaign, member = await campaign_and_player(u, caller)
            if campaign.ruleset != ruleset:
                raise Refusal(
                    f"This channel plays {RULESETS[campaign.ruleset][1]}: ask the odds of /{campaign.ruleset} actions."
                )
            if action_name in engine_of(campaign).questions:
                raise Refusal(QUESTION)
            game = await u.games.in_progress(campaign.id)
            if game is None:
                raise Refusal("No game is in progress: odds are for actions in a game.")
        side, by_gm = member.side, False
        if campaign.gm_id == caller.user_id:
            engine = engine_of(campaign)
            turn = engine.whose_turn(self.ctx.states.load(engine, game))
            if turn is not None and side != turn:
                side, by_gm = turn, True
        action = Action(action_name, side, dict(params), by_gm)
        # A large state goes to the worker as the text it was read as (copied, not pickled).
        return OddsJob(campaign.ruleset, campaign.house_rules, saved_text(game.state) or game.state, action)


#: A ruleset's question (``engine.questions``: Sharpe's targets, YASG's look) rolls nothing.
QUESTION = "That command is a question, not an action with dice: ask it directly."


def group_of(caller: Caller) -> str:
    """The questions worked out one at a time, in turn with other groups': a channel's (one
    campaign's)."""
    return f"channel {caller.channel_id}"


def odds_card(command: str, report: OddsReport) -> Card:
    """The private card: the outcomes that matter, most likely first, at the precision the method
    supports; one block per answer when the action waits for a choice; the chances of each part
    alone when the whole outcomes are many."""
    lines = ["`" + " ".join(command.replace("`", "'").split()) + "`"]
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
    """At most :data:`OUTCOMES_SHOWN` lines. Outcomes rarer than :data:`RARE` (or past the limit)
    are lumped into one "other" line; when the whole outcomes are too many to read and their parts
    fewer, each part's own chance instead (parts overlap: the rarer ones are only counted)."""
    if len(odds.outcomes) > OUTCOMES_SHOWN and len(odds.parts) < len(odds.outcomes):
        parts = sorted(odds.parts, key=lambda part: -part[1])
        lines = ["Each result on its own:"]
        lines += [f"{chance_text(odds, p)} — {shown(label)}" for label, p in parts[: OUTCOMES_SHOWN - 1]]
        rarer = parts[OUTCOMES_SHOWN - 1 :]
        if rarer:
            lines.append(f"… and {len(rarer)} rarer results, each {chance_text(odds, rarer[0][1])} or less")
        return lines
    kept = [(label, p) for label, p in odds.outcomes[: OUTCOMES_SHOWN - 1] if p >= RARE]
    if len(odds.outcomes) == len(kept) + 1:  # one line either way: the outcome itself, not "other"
        kept = list(odds.outcomes)
    rest = odds.outcomes[len(kept) :]
    lines = [f"{chance_text(odds, p)} — {shown(label)}" for label, p in kept]
    if rest:
        lumped = sum(p for _, p in rest)
        lines.append(f"{chance_text(odds, lumped)} — other ({len(rest)} rarer outcomes)")
    return lines


def chance_text(odds: Odds, p: float) -> str:
    """A chance at the precision its method supports: an exact one to 0.1%, a simulated one to
    whole percents (its margin is in the footer); never 0% or 100% for what may or may not happen."""
    if odds.method == "simulation":
        whole = round(100 * p)
        if p < 1 and whole >= 100:
            return ">99%"
        return "<1%" if p > 0 and whole < 1 else f"{whole}%"
    tenths = round(1000 * p) / 10
    if p < 1 and tenths >= 100:
        return ">99.9%"
    return "<0.1%" if p > 0 and tenths < 0.1 else f"{tenths:.1f}%"


def margin(runs: int) -> int:
    """The margin of a simulated chance, in whole percentage points: 95% of simulations of ``runs``
    runs fall within it of the true chance (the widest, at a chance of one half)."""
    return max(1, ceil(100 * 1.96 * sqrt(0.25 / max(1, runs))))


def _how(report: OddsReport) -> str:
    found = [odds for _, odds in report.sections]
    runs = sum(odds.runs for odds in found)
    if all(odds.method == "exact" for odds in found):
        if runs == len(found):
            return "exact: no die or card decides it"
        return f"exact: every one of {runs:,} dice sequences enumerated"
    if all(odds.method == "counted" for odds in found):
        return f"exact: the cards counted over {runs:,} states of the deck"
    if all(odds.method == "simulation" for odds in found):
        fewest = min(odds.runs for odds in found)
        return f"by simulation: {runs:,} runs with random dice, each chance within ±{margin(fewest)} points (95%)"
    return "; ".join(
        f"{choice}: "
        + (
            "exact"
            if odds.method != "simulation"
            else f"by simulation, {odds.runs:,} runs, ±{margin(odds.runs)} points"
        )
        for choice, odds in report.sections
    )
