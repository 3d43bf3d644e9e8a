"""The work /odds sends to its worker process: plain data in (the ruleset, its house rules, the
game's saved state, the action, the seconds allowed), plain data out (the odds, or the sentence
that refuses the action). It runs in a worker because enumerating and simulating are seconds of
Python holding the GIL (see ``bot/app/workers.py``)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.dice import SeededDice
from rules import get_engine
from rules.core import Action, RuleError
from rules.odds import TIME_BUDGET, Budget, OddsReport, odds_report


@dataclass(frozen=True)
class OddsJob:
    ruleset: str
    house_rules: Mapping[str, Any] | None
    state: Any  # the game's state as saved: JSON data, or its JSON text
    action: Action
    seconds: float = TIME_BUDGET


@dataclass(frozen=True)
class Refused:
    """The rules refused the action: ``sentence`` says why, for the player."""

    sentence: str


def work_out(job: OddsJob) -> OddsReport | Refused:
    """In the worker: the odds of ``job``'s action. Simulations use seeded dice, so the same
    question about the same state gets the same answer."""
    engine = get_engine(job.ruleset, job.house_rules)
    state = engine.load_state(json.loads(job.state) if isinstance(job.state, str) else job.state)
    try:
        return odds_report(engine, state, job.action, SeededDice(0), Budget(time.monotonic, job.seconds))
    except RuleError as refusal:
        return Refused(refusal.message)
