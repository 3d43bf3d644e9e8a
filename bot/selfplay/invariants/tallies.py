"""The report's tallies equal the state's: the report's "Lost:" count of each side is the number of
that side's figures the state has out of the fight: the board's figures marked out, or, where the
ruleset fights in units (NSR), the figures of its units killed, wounded or taken."""

from __future__ import annotations

import re
from typing import Any

from bot.selfplay.invariants import Check, End, state_of
from rules.core import Engine
from rules.nsr.state import NsrState

#: What an NSR figure's status is once a hit or a lost fight put it out of the fight (a man who ran
#: is not a loss the report counts).
NSR_LOST = frozenset({"wounded", "killed", "captured"})

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
    """Each side's figures the state has out of the fight."""
    out: dict[str, int] = {}
    if isinstance(state, NsrState):
        for unit in state.units:
            fallen = sum(1 for f in unit.figures if f.status in NSR_LOST)
            if fallen:
                out[unit.side.casefold()] = out.get(unit.side.casefold(), 0) + fallen
        return out
    for figure in engine.board(state).figures:
        if figure.out:
            out[figure.side.casefold()] = out.get(figure.side.casefold(), 0) + 1
    return out
