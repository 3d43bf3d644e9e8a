"""Sharpe's random sides: riflemen against voltigeurs; on a shipped map each side deploys, then the
man whose turn it is walks or runs toward an enemy, away or anywhere, shoots at every enemy, attacks
the enemies in contact, loads, gets up, and ends his turn; now and then a side concedes. At a table
it types distances, contacts and ranges."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay import geometry
from bot.selfplay.moves import Line, OnShippedMaps, player_of, quoted
from bot.selfplay.table import Snapshot

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
        active = next((c for c in state.characters if c.name == state.active), None)
        if active is None:
            return [Line(me, "/map deploy")]
        lines = [Line(me, "/sharpe done", 1.0), Line(me, "/sharpe concede", 0.003)]
        foes = [c for c in state.characters if c.side != active.side and not c.out]
        touching = {x.b if x.a == active.name else x.a for x in state.contacts if active.name in (x.a, x.b)}
        if active.down:
            lines.append(Line(me, "/sharpe rise", 3.0))
        if any(not f.loaded for f in active.firearms):
            lines.append(Line(me, "/sharpe load", 0.05))
        for enemy in touching:
            lines.append(Line(me, f"/sharpe attack defender:{quoted(enemy)}", 6.0))
        if state.field is not None:
            lines += self._on_map(snap, state, me, active, foes, rng)
        else:
            lines += self._at_table(me, foes, rng)
        return lines

    def _on_map(
        self, snap: Snapshot, state: Any, me: str, active: Any, foes: list[Any], rng: random.Random
    ) -> list[Line]:
        where = geometry.positions(snap.engine, state)
        size = geometry.size(snap.engine, state) or (48.0, 48.0)
        lines: list[Line] = []
        if active.name not in where:
            return lines
        seen = {f.name: where[f.name] for f in foes if f.name in where}
        enemy = geometry.nearest(where[active.name], seen)
        pace = rng.choice(("walk", "run"))
        if enemy:
            lines.append(Line(me, f"/sharpe move pace:{pace} toward:{quoted(enemy)}", 3.0))
            lines.append(
                Line(me, f'/sharpe move pace:walk to:"{geometry.away(where[active.name], seen[enemy], 4, size)}"', 0.3)
            )
        lines.append(
            Line(me, f'/sharpe move pace:{pace} to:"{geometry.wander(rng, where[active.name], 8, size)}"', 0.8)
        )
        for f in foes:
            lines.append(Line(me, f"/sharpe shoot target:{quoted(f.name)}", 3.0 / max(len(foes), 1)))
        return lines

    def _at_table(self, me: str, foes: list[Any], rng: random.Random) -> list[Line]:
        lines = [Line(me, f"/sharpe move pace:{rng.choice(('walk', 'run'))} distance:{rng.randint(1, 8)}", 1.0)]
        for f in foes:
            target = quoted(f.name)
            lines.append(
                Line(me, f"/sharpe move pace:run distance:{rng.randint(2, 8)} contact:{target}", 1.5 / len(foes))
            )
            lines.append(Line(me, f"/sharpe shoot target:{target} range:{rng.randint(3, 40)}", 3.0 / len(foes)))
        return lines
