"""The report's tallies equal the state's: the report's "Lost:" count of each side is the number of
that side's figures (units, where the ruleset fights in units) the state has out of the fight."""

from __future__ import annotations

import re

from bot.selfplay.invariants import Check, End, state_of

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
        board = snap.engine.board(state_of(snap))
        out: dict[str, int] = {}
        for figure in board.figures:
            if figure.out:
                out[figure.side.casefold()] = out.get(figure.side.casefold(), 0) + 1
        reported = report_losses(end.report)
        if reported != out:
            return [f"the report counts losses {reported or 'none'}, the state has {out or 'none'} out"]
        return []
