"""YASG's actions, declared once (:mod:`rules.specs`): what each takes, what carries it out, and
what a side could do with it now on its own square grid."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.specs import ActionSpec, Candidate, NoParams, Role, spec_table
from rules.yasg import play, setup
from rules.yasg.board import Square, distance, facing_towards, square_name
from rules.yasg.judge import field_of
from rules.yasg.options import (
    FACINGS,
    BoardOptions,
    EdgeOptions,
    EngageOptions,
    FaceOptions,
    FireOptions,
    LoadOptions,
    LookOptions,
    MoveOptions,
    PlaceOptions,
    TerrainOptions,
)
from rules.yasg.state import YasgFigure, YasgState

#: The rows a side sets its figures out on, counted from its own edge.
HOME_ROWS = 2
#: A move toward the nearest enemy: its pace and how many squares it goes.
ADVANCES = (("walk", 2), ("run", 4), ("walk", 1))
#: How many squares a figure falls back from the nearest enemy.
FALL_BACK = 2


def _mine(state: YasgState, side: str) -> list[YasgFigure]:
    return [f for f in state.figures if f.side == side and not f.out]


def _foes(state: YasgState, side: str) -> list[YasgFigure]:
    return [f for f in state.figures if f.side != side and not f.out and f.square is not None]


def _home(state: YasgState, side: str) -> tuple[tuple[int, ...], str]:
    """The rows ``side`` sets out on and the way its figures face: the first side the far rows,
    facing north; the other the near rows, facing south."""
    if side == state.sides[0]:
        return tuple(state.height - 1 - n for n in range(HOME_ROWS)), "n"
    return tuple(range(HOME_ROWS)), "s"


def place_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """In the setup: the side's next figure still off the board, on each free square of its home rows."""
    if state.phase != "setup":
        return ()
    unplaced = [f for f in _mine(state, side) if f.square is None]
    if not unplaced:
        return ()
    taken = {f.square for f in state.figures if f.square is not None}
    rows, facing = _home(state, side)
    free = [(x, y) for y in rows for x in range(state.width) if (x, y) not in taken]
    return [
        Candidate("place", {"figure": unplaced[0].name, "square": square_name(sq), "facing": facing}, 3.0 / len(free))
        for sq in free
    ]


def _step(state: YasgState, start: Square, goal: Square, steps: int) -> Square:
    """The square ``steps`` squares from ``start`` toward ``goal`` (away, when negative), on the board."""
    x, y = start
    for _ in range(abs(steps)):
        dx = (goal[0] > x) - (goal[0] < x)
        dy = (goal[1] > y) - (goal[1] < y)
        if steps < 0:
            dx, dy = -dx, -dy
        if dx and dy:
            dx, dy = (dx, 0) if abs(goal[0] - x) >= abs(goal[1] - y) else (0, dy)
        x, y = min(max(x + dx, 0), state.width - 1), min(max(y + dy, 0), state.height - 1)
    return x, y


def move_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """In the movement phase, each figure that may move: a walk or run toward its nearest enemy to a
    free square (facing it), or a fall back from it."""
    if state.phase != "movement":
        return ()
    may_move = set(engine.ready(state, side))
    foes = _foes(state, side)
    taken = {f.square for f in state.figures if f.square is not None and not f.out}
    found = []
    for fig in _mine(state, side):
        if fig.name not in may_move or fig.square is None:
            continue
        here = fig.square
        target = min(foes, key=lambda e: distance(here, e.square), default=None)  # type: ignore[arg-type]
        if target is None or target.square is None:
            continue
        for pace, steps in ADVANCES:
            square = _step(state, here, target.square, steps)
            if square in taken:
                continue
            params = {"figure": fig.name, "to": square_name(square), "pace": pace}
            found.append(Candidate("move", {**params, "facing": facing_towards(square, target.square)}, 2.0))
        back = _step(state, here, target.square, -FALL_BACK)
        if back not in taken:
            found.append(Candidate("move", {"figure": fig.name, "to": square_name(back)}, 0.3))
    return found


def face_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """In the movement phase: each figure that may move turned to its nearest enemy, or any other way."""
    if state.phase != "movement":
        return ()
    may_move = set(engine.ready(state, side))
    foes = _foes(state, side)
    found = []
    for fig in _mine(state, side):
        if fig.name not in may_move or fig.square is None:
            continue
        here = fig.square
        target = min(foes, key=lambda e: distance(here, e.square), default=None)  # type: ignore[arg-type]
        toward = None if target is None or target.square is None else facing_towards(here, target.square)
        if toward is not None and toward != fig.facing:
            found.append(Candidate("face", {"figure": fig.name, "facing": toward}, 1.0))
        others = [way for way in FACINGS if way not in (fig.facing, toward)]
        found.extend(Candidate("face", {"figure": fig.name, "facing": way}, 0.3 / len(others)) for way in others)
    return found


def load_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """In the movement phase: each figure that may move spends the turn loading instead."""
    if state.phase != "movement":
        return ()
    may_move = set(engine.ready(state, side))
    return [Candidate("load", {"figure": f.name}, 0.2) for f in _mine(state, side) if f.name in may_move]


def fire_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """In the fire phase: every shot that can hit, by every figure that may fire."""
    if state.phase != "fire" or side in state.done:
        return ()
    field = field_of(engine.tables, state)
    return [
        Candidate("fire", {"figure": f.name, "target": shot.target}, 5.0)
        for f in _mine(state, side)
        if f.standing and engine.judge.why_cannot_fire(state, f) is None
        for shot in engine.judge.targets(state, field, f)
    ]


def engage_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """In the close combat phase: each figure against each enemy next to it."""
    if state.phase != "close combat" or side in state.done:
        return ()
    return [
        Candidate("engage", {"figure": f.name, "target": e.name}, 4.0)
        for f in _mine(state, side)
        if f.square is not None
        for e in _foes(state, side)
        if distance(f.square, e.square) <= 1  # type: ignore[arg-type]
    ]


def next_candidates(engine: Any, state: YasgState, side: str) -> Sequence[Candidate]:
    """Ending the phase; in the setup, once the side's figures are all on the board."""
    if state.phase == "setup" and any(f.square is None for f in _mine(state, side)):
        return ()
    return (Candidate("next", {}, 1.0),)


SPECS = spec_table(
    ActionSpec("board", "Setup: the board's size in squares, or a ready map", BoardOptions, setup.choose_board),
    ActionSpec(
        "terrain",
        "Setup: make squares hill, crops, wood, rubble, building or open",
        TerrainOptions,
        setup.lay_terrain,
    ),
    ActionSpec(
        "edge", "Setup: a hedge or wall along one side of squares (none clears it)", EdgeOptions, setup.put_up_edge
    ),
    ActionSpec(
        "place",
        "Setup: put your figure on a square, facing a way",
        PlaceOptions,
        setup.place,
        candidates=place_candidates,
    ),
    ActionSpec(
        "move",
        "Movement: walk 2 or run 4 squares through sides (1 or 3 to fire too)",
        MoveOptions,
        play.move,
        acting="figure",
        candidates=move_candidates,
    ),
    ActionSpec(
        "face",
        "Movement: turn your figure to face north, east, south or west",
        FaceOptions,
        play.face,
        acting="figure",
        candidates=face_candidates,
    ),
    ActionSpec(
        "load",
        "Your figure spends this turn loading (no move, no close combat)",
        LoadOptions,
        play.load,
        acting="figure",
        candidates=load_candidates,
    ),
    ActionSpec(
        "fire",
        "Fire phase: your figure fires at an enemy in its arc (rolled now)",
        FireOptions,
        play.fire,
        acting="figure",
        candidates=fire_candidates,
    ),
    ActionSpec(
        "engage",
        "Close combat: which adjacent enemy your figure fights",
        EngageOptions,
        play.engage,
        acting="figure",
        candidates=engage_candidates,
    ),
    ActionSpec(
        "look",
        "Range, arc, line of fire, cover and the number needed (only you see it)",
        LookOptions,
        play.look,
    ),
    ActionSpec(
        "next",
        "End this phase; rolls morale, initiative and close combat for all",
        NoParams,
        play.next_phase,
        role=Role.PASS,
        candidates=next_candidates,
    ),
)
