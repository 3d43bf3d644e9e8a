"""Medieval random sides: a knight, an archer and men-at-arms against Vikings; on a shipped map
each side deploys, and the side whose turn it is activates its figures: what it may do comes from
the ruleset's action specs (moves toward an enemy, into contact, away or a stroll, shots, fights,
break-offs, standing up, healing); at a table it also types distances, engagements, ranges and
cover, as players would."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay.moves import Line, OnShippedMaps, candidate_line, quoted
from bot.selfplay.table import Snapshot
from rules.specs import Role

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
#: The specs whose candidates a side's player types in play (answers go through /decide, placing
#: through /map).
TYPED = (Role.PLAY, Role.PASS)


class MedievalMoves(OnShippedMaps):
    slug = "medieval"
    maps = ("ford", "village", "woodland-edge")
    rosters = ROSTERS

    def playing(self, snap: Snapshot, state: Any, turn: str, me: str, rng: random.Random) -> list[Line]:
        engine = snap.engine
        lines = [
            Line(me, candidate_line(self.slug, c), c.weight)
            for spec in engine.specs.values()
            if spec.role in TYPED
            for c in spec.candidates(engine, state, turn)
        ]
        if state.field is None:
            lines += self._at_table(state, turn, me, rng)
        return lines

    def _at_table(self, state: Any, turn: str, me: str, rng: random.Random) -> list[Line]:
        """What a table's players type and the map would measure: distances, engagements, ranges, cover."""
        living = {"full", "light", "serious"}
        foes = [f for f in state.figures if f.side != turn and f.health in living]
        lines = []
        for f in state.figures:
            if f.side != turn or f.health not in living or (f.activated and state.current != f.name):
                continue
            fig = quoted(f.name)
            if any(f.name in pair for pair in state.contacts):
                lines.append(Line(me, f"/medieval breakoff figure:{fig} distance:{rng.randint(1, 4)}", 0.3))
                continue
            lines.append(Line(me, f"/medieval move figure:{fig} distance:{rng.randint(1, 6)}", 1.0))
            for e in foes:
                target = quoted(e.name)
                engage = f"/medieval move figure:{fig} distance:{rng.randint(1, 6)} engage:{target}"
                lines.append(Line(me, engage, 2.0 / len(foes)))
                cover = rng.choice(("none", "none", "soft", "hard"))
                shot = f"/medieval shoot figure:{fig} target:{target} range:{rng.randint(2, 30)} cover:{cover}"
                lines.append(Line(me, shot, 1.5 / len(foes)))
        return lines
