"""The report's tallies equal the state's: the report's "Lost:" count of each side is the number of
that side's figures the state has out of the fight, as ``Engine.losses`` counts them."""

from __future__ import annotations

import re
from typing import Any

from bot.selfplay.invariants.check import Check, End, state_of
from rules.core import Engine

LOST = re.compile(r"^Lost: (?P<sides>.*)\.$", re.MULTILINE)


def report_losses(report: str) -> dict[str, int]:
    found = LOST.search(report)
    if found is None:
        return {}
    losses = {}
    for part in found["sides"].split(", "):
        side, _, count = part.rpartition(" ")
        losses[side.casefold()] = int(count)
    return losses


class TalliesMatch(Check):
    name = "report tallies equal the state's"
    key = "tallies"

    def at_end(self, end: End) -> list[str]:
        snap = end.last
        if end.report is None or snap.game is None:
            return []
        out = lost_in(snap.engine, state_of(snap))
        reported = report_losses(end.report)
        if reported != out:
            return [f"the report counts losses {reported or 'none'}, the state has {out or 'none'} out"]
        return []


def lost_in(engine: Engine[Any], state: Any) -> dict[str, int]:
    """Each side's figures the state has out of the fight, as the ruleset counts them."""
    return {side.casefold(): count for side, count in engine.losses(state).items() if count}
