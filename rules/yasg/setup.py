"""Before the battle: choosing the board (a map or a size), laying terrain, putting up hedges and
walls, and placing every figure on its square."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import RuleError, short
from rules.words import joined, match_name
from rules.yasg.board import SIDE_WORDS, normal_edge, parse_square, parse_squares, square_name
from rules.yasg.common import Ctx, facing, own_figure, phase_event, sides_list
from rules.yasg.data import MapSpec, YasgTables
from rules.yasg.options import BoardOptions, EdgeOptions, PlaceOptions, TerrainOptions
from rules.yasg.state import EdgeMark, TerrainSquare, YasgState

#: How many squares a setup sentence names before it says "…".
NAMED_SQUARES = 12


def _require_setup(state: YasgState, doing: str) -> None:
    if state.phase != "setup":
        raise RuleError(f"{doing} only before the battle begins; it is turn {state.turn}, {state.phase} phase.")


def _require_board_open(ctx: Ctx, doing: str) -> None:
    """Once a figure stands on the board, the board is the game master's, as a map is (only the game
    master drafts it, and only before the figures are deployed): a player who placed second could
    otherwise wall in the enemy or build under its leader."""
    if not ctx.by_gm and any(f.square is not None for f in ctx.state.figures):
        raise RuleError(f"Only the game master may {doing} once figures stand on the board.")


def board_words(state: YasgState) -> str:
    size = f"{state.width} × {state.height} squares"
    return f"the “{state.map_name}” board ({size})" if state.map_name else f"{size} of open ground"


def _squares_words(squares: Sequence[tuple[int, int]]) -> str:
    named = ", ".join(square_name(sq) for sq in squares[:NAMED_SQUARES])
    return named + (" …" if len(squares) > NAMED_SQUARES else "")


def choose_board(ctx: Ctx, params: BoardOptions) -> None:
    state, t = ctx.state, ctx.t
    _require_setup(state, "The board is chosen")
    placed = [f.name for f in state.figures if f.square is not None]
    if placed:
        raise RuleError(f"Choose the board before placing figures: {joined(placed[:3])} already stand on it.")
    name, width, height = params.map, params.width, params.height
    if name is not None:
        if width is not None or height is not None:
            raise RuleError("Give a map or a size, not both: a map has its own size.")
        found = match_name(t.maps, name, key=str.casefold)
        if found is None:
            raise RuleError(f"There is no map called {short(str(name))}: use {joined(list(t.maps), 'or')}.")
        spec = t.maps[found]
    else:
        if width is None and height is None:
            raise RuleError("Give the board's width and height in squares, or a map.")
        width = _size(t, width if width is not None else state.width, "width")
        height = _size(t, height if height is not None else state.height, "height")
        spec, found = MapSpec(width=width, height=height), ""
    state.width, state.height, state.map_name = spec.width, spec.height, found
    state.terrain, state.edges = [], []
    lay_out(t, spec, state)
    ctx.events.append(phase_event(state, f"Setup: the board is now {board_words(state)}."))


def _size(t: YasgTables, value: Any, what: str) -> int:
    lim = t.board_limits
    if isinstance(value, bool) or not isinstance(value, int) or not lim.min <= value <= lim.max:
        raise RuleError(f"The board's {what} is a whole number of squares from {lim.min} to {lim.max}.")
    return value


def lay_terrain(ctx: Ctx, params: TerrainOptions) -> None:
    state, t = ctx.state, ctx.t
    _require_setup(state, "Terrain is laid out")
    _require_board_open(ctx, "change the terrain")
    squares = parse_squares(params.squares, state.width, state.height)
    wanted = params.kind
    kind = match_name(t.terrain, " ".join(wanted.split()), key=str.casefold)
    if kind is None:
        raise RuleError(f"{short(wanted)} is not a kind of terrain: use {joined(list(t.terrain), 'or')}.")
    uphill = sides_list(params.uphill) if params.uphill else None
    if uphill is not None and not t.terrain[kind].hill:
        raise RuleError(f"Only hill squares have uphill sides; {kind} has none.")
    set_terrain(state, squares, kind, uphill)
    extra = f" (uphill across its {joined([SIDE_WORDS[s] for s in uphill])} sides)" if uphill else ""
    verb = "is" if len(squares) == 1 else "are"
    ctx.events.append(phase_event(state, f"Setup: {_squares_words(squares)} {verb} now {kind}{extra}."))


def put_up_edge(ctx: Ctx, params: EdgeOptions) -> None:
    state, t = ctx.state, ctx.t
    _require_setup(state, "Hedges and walls are put up")
    _require_board_open(ctx, "put up or take down hedges and walls")
    squares = parse_squares(params.squares, state.width, state.height)
    which = sides_list(params.side)
    text = " ".join(params.kind.split()).casefold()
    kind = "none" if text == "none" else match_name(t.edges, text, key=str.casefold)
    if kind is None:
        raise RuleError(f"{short(text)} is not something on a square's side: use {joined([*t.edges, 'none'], 'or')}.")
    for x, y, s in (normal_edge(sq, which[0], state.width, state.height) for sq in squares):
        state.edges = [e for e in state.edges if (e.x, e.y, e.side) != (x, y, s)]
        if kind != "none":
            state.edges.append(EdgeMark(x, y, s, kind))
    what = "nothing stands" if kind == "none" else f"a {kind} runs"
    ctx.events.append(
        phase_event(state, f"Setup: {what} along the {SIDE_WORDS[which[0]]} side of {_squares_words(squares)}.")
    )


def place(ctx: Ctx, params: PlaceOptions) -> None:
    state = ctx.state
    _require_setup(state, "Figures are placed")
    fig = own_figure(state, params.figure, ctx.side, ctx.by_gm, "place")
    square = parse_square(params.square, state.width, state.height)
    other = next((f for f in state.figures if f.square == square and f is not fig), None)
    if other is not None:
        raise RuleError(f"{square_name(square)} is taken by {other.name}: a square holds one figure.")
    turn_to = facing(params.facing) or ("s" if square[1] < state.height / 2 else "n")
    fig.x, fig.y, fig.facing = square[0], square[1], turn_to
    leader = ", Leader" if fig.leader else ""
    text = (
        f"{fig.name} ({fig.side}, class {fig.base_class}{leader}) stands at {square_name(square)}, "
        f"facing {turn_to.upper()}."
    )
    ctx.say("placed", text, figure=fig.name, square=square_name(square), facing=turn_to)
    if all(f.square is not None for f in state.figures):
        ctx.events.append(phase_event(state, "Setup: every figure is on the board. /yasg next begins turn 1."))


# --- laying out a map


def set_terrain(state: YasgState, squares: Sequence[tuple[int, int]], kind: str, uphill: list[str] | None) -> None:
    chosen = set(squares)
    state.terrain = [t for t in state.terrain if (t.x, t.y) not in chosen]
    if kind != "open":
        state.terrain.extend(
            TerrainSquare(x, y, kind, list(uphill) if uphill is not None else None) for x, y in squares
        )
    state.terrain.sort(key=lambda t: (t.y, t.x))


def lay_out(tables: YasgTables, spec: MapSpec, state: YasgState) -> None:
    """A map's terrain and edges onto ``state`` (a RuleError names a bad square)."""
    for patch in spec.terrain:
        squares = parse_squares(patch.squares, spec.width, spec.height)
        set_terrain(state, squares, patch.kind, sides_list(patch.uphill) if patch.uphill else None)
    for run in spec.edges:
        for square in parse_squares(run.squares, spec.width, spec.height):
            x, y, side = normal_edge(square, run.side, spec.width, spec.height)
            state.edges = [e for e in state.edges if (e.x, e.y, e.side) != (x, y, side)]
            state.edges.append(EdgeMark(x, y, side, run.kind))


def map_problems(tables: YasgTables) -> list[str]:
    """Every shipped (or house-ruled) map laid out once: a bad square is a problem of the tables."""
    problems = []
    for name, spec in tables.maps.items():
        try:
            lay_out(tables, spec, YasgState(list(tables.sides), "setup", 0, spec.width, spec.height, []))
        except RuleError as exc:
            problems.append(f"maps.{name}: {exc.message}")
    return problems
