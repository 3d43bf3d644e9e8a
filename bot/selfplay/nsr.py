"""NSR's random sides: French line and chasseurs against rifles and militia; on a shipped map each
side deploys, then takes what NSR's specs offer (rules/nsr/specs.py: the unit the cards activate
moves toward or away, charges any enemy, reforms, holds, fires or volleys at every enemy, and the
charges are completed in close combat), or wanders anywhere near. At a table it types distances
and ranges."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay import geometry
from bot.selfplay.moves import Line, OnShippedMaps, candidate_line, quoted, standing
from bot.selfplay.table import Snapshot
from rules.specs import Role

ROSTERS = {
    "French": [
        '/roster add name:"1er Ligne" kind:line stats:"figures=8"',
        '/roster add name:Chasseurs kind:mounted stats:"figures=4"',
    ],
    "Allied": [
        '/roster add name:Rifles kind:light stats:"figures=4 weapon=rifle"',
        '/roster add name:Milícia kind:militia stats:"figures=4 officer=no"',
    ],
}


class NsrMoves(OnShippedMaps):
    slug = "nsr"
    maps = ("ridge", "river-crossing", "village")
    rosters = ROSTERS

    def playing(self, snap: Snapshot, state: Any, turn: str, me: str, rng: random.Random) -> list[Line]:
        """What the specs offer the side (rules/nsr/specs.py); at a table, the distances and ranges
        a player would type; on the map, a wander anywhere near."""
        lines = [
            Line(me, candidate_line(self.slug, c), c.weight)
            for spec in snap.engine.specs.values()
            if spec.role is not Role.ANSWER
            for c in spec.candidates(snap.engine, state, turn)
        ]
        unit = next((u for u in state.units if u.name == state.active), None)
        if unit is None or state.phase not in ("movement", "fire"):
            return lines
        if state.field is None:
            return lines + self._at_table(snap, state, unit, me, rng)
        where = geometry.positions(snap.engine, state)
        size = geometry.size(snap.engine, state) or (48.0, 48.0)
        if state.phase == "movement" and unit.name in where:
            lines.append(Line(me, f'/nsr move to:"{geometry.wander(rng, where[unit.name], 8, size)}"', 0.8))
        return lines

    def _at_table(self, snap: Snapshot, state: Any, unit: Any, me: str, rng: random.Random) -> list[Line]:
        fighting = standing(snap.engine, state)
        foes = [u for u in state.units if u.side != unit.side and u.name in fighting]
        lines = []
        if state.phase == "movement":
            for e in foes:
                charge = f"/nsr charge target:{quoted(e.name)} distance:{rng.randint(4, 20)}"
                lines.append(Line(me, charge, 2.0 / len(foes)))
            lines.append(Line(me, f"/nsr move distance:{rng.randint(1, 12)}", 1.5))
        else:
            for e in foes:
                target = quoted(e.name)
                lines.append(Line(me, f"/nsr fire target:{target} range:{rng.randint(2, 30)}", 3.0 / len(foes)))
                lines.append(Line(me, f"/nsr volley target:{target} range:{rng.randint(2, 12)}", 0.5 / len(foes)))
        return lines
