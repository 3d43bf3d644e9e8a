"""NSR's random sides: French line and chasseurs against rifles and militia; on a shipped map each
side deploys, then the unit the cards activate moves toward, away or anywhere, charges any enemy,
holds, fires or volleys at every enemy, and completes the charges in close combat. At a table it
types distances and ranges."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay import geometry
from bot.selfplay.moves import Line, OnShippedMaps, quoted, standing
from bot.selfplay.table import Snapshot

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
        if state.phase == "close_combat":
            return [Line(me, "/nsr melee", 5.0), Line(me, "/nsr hold", 0.2)]
        unit = next((u for u in state.units if u.name == state.active), None)
        lines = [Line(me, "/nsr hold", 0.5)]
        if unit is None:
            return lines
        fighting = standing(snap.engine, state)
        foes = [u for u in state.units if u.side != unit.side and u.name in fighting]
        table = state.field is None
        where = geometry.positions(snap.engine, state) if not table else {}
        size = geometry.size(snap.engine, state) or (48.0, 48.0)
        if state.phase == "movement":
            for e in foes:
                charge = f"/nsr charge target:{quoted(e.name)}" + (f" distance:{rng.randint(4, 20)}" if table else "")
                lines.append(Line(me, charge, 2.0 / len(foes)))
            if table:
                lines.append(Line(me, f"/nsr move distance:{rng.randint(1, 12)}", 1.5))
            elif unit.name in where:
                seen = {e.name: where[e.name] for e in foes if e.name in where}
                enemy = geometry.nearest(where[unit.name], seen)
                if enemy:
                    lines.append(Line(me, f"/nsr move toward:{quoted(enemy)}", 3.0))
                    lines.append(
                        Line(me, f'/nsr move to:"{geometry.away(where[unit.name], seen[enemy], 4, size)}"', 0.3)
                    )
                lines.append(Line(me, f'/nsr move to:"{geometry.wander(rng, where[unit.name], 8, size)}"', 0.8))
            lines.append(
                Line(me, f"/nsr form formation:{rng.choice(('line', 'square', 'march_column', 'open_order'))}", 0.2)
            )
        elif state.phase == "fire":
            for e in foes:
                target = quoted(e.name)
                fire = f"/nsr fire target:{target}" + (f" range:{rng.randint(2, 30)}" if table else "")
                lines.append(Line(me, fire, 3.0 / len(foes)))
                lines.append(
                    Line(
                        me,
                        f"/nsr volley target:{target}" + (f" range:{rng.randint(2, 12)}" if table else ""),
                        0.5 / len(foes),
                    )
                )
        return lines
