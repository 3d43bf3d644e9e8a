"""Medieval random sides: a knight, an archer and men-at-arms against Vikings; on a shipped map
each side deploys, and the side whose turn it is activates its figures: moves toward an enemy
(into contact), away or anywhere, shoots, fights, breaks off, stands, heals; at a table it types
distances, engagements, ranges and cover."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay import geometry
from bot.selfplay.moves import Line, OnShippedMaps, quoted
from bot.selfplay.table import Snapshot

ROSTERS = {
    "red": [
        "/roster add name:Hugh kind:Knight",
        '/roster add name:Walt kind:"Man at Arms" stats:"weapons=bow+sword armour=leather"',
        "/roster add name:René kind:man-at-arms",
    ],
    "blue": [
        '/roster add name:Olaf kind:"Viking Warrior"',
        '/roster add name:Олег kind:"Viking Hero"',
        '/roster add name:Bjorn kind:custom stats:"speed=6 bravery=4 shoot=3 fight=3 weapons=bow+dagger armour=none"',
    ],
}


class MedievalMoves(OnShippedMaps):
    slug = "medieval"
    maps = ("ford", "village", "woodland-edge")
    rosters = ROSTERS

    def playing(self, snap: Snapshot, state: Any, turn: str, me: str, rng: random.Random) -> list[Line]:
        lines = [Line(me, "/medieval endturn", 0.5)]
        living = {"full", "light", "serious"}
        mine = [f for f in state.figures if f.side == turn and f.health in living]
        foes = [f for f in state.figures if f.side != turn and f.health in living]
        acting = [f for f in mine if not f.activated or state.current == f.name]
        where = geometry.positions(snap.engine, state) if state.field is not None else {}
        size = geometry.size(snap.engine, state) or (48.0, 48.0)
        for f in acting:
            fig = quoted(f.name)
            touching = [b if a == f.name else a for a, b in state.contacts if f.name in (a, b)]
            if f.prone:
                lines.append(Line(me, f"/medieval stand figure:{fig}", 2.0))
            if not f.activated:
                lines.append(Line(me, f"/medieval activate figure:{fig}", 0.3))
            for enemy in touching:
                lines.append(Line(me, f"/medieval fight figure:{fig} opponent:{quoted(enemy)}", 6.0))
            if touching:
                if state.field is None:
                    lines.append(Line(me, f"/medieval breakoff figure:{fig} distance:{rng.randint(1, 4)}", 0.3))
                elif f.name in where and touching[0] in where:
                    away = geometry.away(where[f.name], where[touching[0]], 3, size)
                    lines.append(Line(me, f'/medieval breakoff figure:{fig} to:"{away}"', 0.3))
                continue
            for friend in mine:
                if friend.name != f.name and friend.health != "full":
                    lines.append(Line(me, f"/medieval heal figure:{fig} patient:{quoted(friend.name)}", 0.2))
            if state.field is None:
                lines += self._at_table(me, f, foes, rng)
            else:
                lines += self._on_map(me, f, foes, where, size, rng)
        return lines

    def _on_map(
        self,
        me: str,
        f: Any,
        foes: list[Any],
        where: dict[str, tuple[float, float]],
        size: tuple[float, float],
        rng: random.Random,
    ) -> list[Line]:
        fig, lines = quoted(f.name), list[Line]()
        if f.name not in where:
            return lines
        seen = {e.name: where[e.name] for e in foes if e.name in where}
        enemy = geometry.nearest(where[f.name], seen)
        if enemy:
            lines.append(Line(me, f"/medieval move figure:{fig} toward:{quoted(enemy)}", 4.0))
            lines.append(
                Line(me, f'/medieval move figure:{fig} to:"{geometry.away(where[f.name], seen[enemy], 3, size)}"', 0.3)
            )
        lines.append(Line(me, f'/medieval move figure:{fig} to:"{geometry.wander(rng, where[f.name], 6, size)}"', 0.8))
        for e in foes:
            lines.append(Line(me, f"/medieval shoot figure:{fig} target:{quoted(e.name)}", 1.5 / max(len(foes), 1)))
        return lines

    def _at_table(self, me: str, f: Any, foes: list[Any], rng: random.Random) -> list[Line]:
        fig, lines = quoted(f.name), []
        lines.append(Line(me, f"/medieval move figure:{fig} distance:{rng.randint(1, 6)}", 1.0))
        for e in foes:
            target = quoted(e.name)
            lines.append(
                Line(me, f"/medieval move figure:{fig} distance:{rng.randint(1, 6)} engage:{target}", 2.0 / len(foes))
            )
            cover = rng.choice(("none", "none", "soft", "hard"))
            shot = f"/medieval shoot figure:{fig} target:{target} range:{rng.randint(2, 30)} cover:{cover}"
            lines.append(Line(me, shot, 1.5 / len(foes)))
        return lines
