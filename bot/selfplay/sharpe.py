"""Sharpe's random sides: riflemen against voltigeurs. What the man whose turn it is may do comes
from the ruleset's specs (rules/sharpe/specs.py: deploying, moving toward or away from the nearest
enemy, shooting, attacking, loading, getting up, ending his turn); here are only the rosters, a
random wander on the map, a concede now and then (refused without confirm:), and at a table the
distances, contacts and ranges a player types."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay import geometry
from bot.selfplay.moves import Line, OnShippedMaps, candidate_line, player_of, quoted
from bot.selfplay.table import Snapshot
from rules.specs import ActionSpec, Candidate, Role

ROSTERS = {
    "british": [
        '/roster add name:Sharpe kind:rifle_officer stats:"I=6 D=5 S=5 C=6 F=10"',
        "/roster add name:Harper kind:rifle_sergeant",
        "/roster add name:Harris kind:rifleman",
        "/roster add name:Hagman kind:rifleman",
    ],
    "french": [
        "/roster add name:Leroux kind:officer",
        "/roster add name:Dubois kind:voltigeur",
        "/roster add name:Ætienne kind:voltigeur",
        "/roster add name:Громов kind:line_infantry",
    ],
}


class SharpeMoves(OnShippedMaps):
    slug = "sharpe"
    maps = ("farm", "village", "woodland-ford")
    rosters = ROSTERS

    def options(self, snap: Snapshot, state: Any, rng: random.Random) -> list[Line]:
        turn = snap.engine.whose_turn(state)
        if turn is None:
            return []
        me = player_of(turn)
        lines = [Line(me, self.line_of(spec, c), c.weight) for spec, c in candidates(snap.engine, state, turn)]
        active = next((c for c in state.characters if c.name == state.active), None)
        if active is None:
            return lines
        lines.append(Line(me, "/sharpe concede", 0.003))
        foes = [c for c in state.characters if c.side != active.side and not c.out]
        if state.field is not None:
            lines += self._wander(snap, state, me, active, rng)
        else:
            lines += self._at_table(me, foes, rng)
        return lines

    def line_of(self, spec: ActionSpec[Any, Any], candidate: Candidate) -> str:
        """Placing is typed through /map; every other action through /sharpe."""
        return candidate_line("map" if spec.role is Role.MAP else self.slug, candidate)

    def _wander(self, snap: Snapshot, state: Any, me: str, active: Any, rng: random.Random) -> list[Line]:
        """A move to a random point near him: the candidates go toward or away from the enemy."""
        where = geometry.positions(snap.engine, state)
        size = geometry.size(snap.engine, state) or (48.0, 48.0)
        if active.name not in where:
            return []
        pace = rng.choice(("walk", "run"))
        return [Line(me, f'/sharpe move pace:{pace} to:"{geometry.wander(rng, where[active.name], 8, size)}"', 0.8)]

    def _at_table(self, me: str, foes: list[Any], rng: random.Random) -> list[Line]:
        lines = [Line(me, f"/sharpe move pace:{rng.choice(('walk', 'run'))} distance:{rng.randint(1, 8)}", 1.0)]
        for f in foes:
            target = quoted(f.name)
            lines.append(
                Line(me, f"/sharpe move pace:run distance:{rng.randint(2, 8)} contact:{target}", 1.5 / len(foes))
            )
            lines.append(Line(me, f"/sharpe shoot target:{target} range:{rng.randint(3, 40)}", 3.0 / len(foes)))
        return lines


def candidates(engine: Any, state: Any, side: str) -> list[tuple[ActionSpec[Any, Any], Candidate]]:
    """What the specs offer ``side`` now; the answers to a decision are left to the battle loop's /decide."""
    return [
        (spec, c)
        for spec in engine.specs.values()
        if spec.role is not Role.ANSWER
        for c in spec.candidates(engine, state, side)
    ]
