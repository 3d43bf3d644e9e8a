"""Yet Another Skirmish Game (after Paddy Griffith) as a pure engine on a square grid
(RULES-NOTES.md section 1).

The board is the engine's: its state holds the grid, the terrain and every figure's square and
facing, and the engine measures what players at a table would (within 2 squares, adjacency,
range, the arc of fire, uphill, cover). The turn itself is in :mod:`rules.yasg.play`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import (
    Action,
    Board,
    DataError,
    DiceSource,
    Event,
    FigureLine,
    FigureSpec,
    Grid,
    GridPiece,
    GridSquare,
    Outcome,
    RuleError,
    load_checked,
    short,
    to_data,
)
from rules.odds import default_outcome
from rules.tables import load_tables
from rules.yasg.board import SIDE_WORDS, normal_edge, parse_square, parse_squares, square_name
from rules.yasg.common import facing, joined, own_figure, phase_event, plural, sides_list
from rules.yasg.data import MapSpec, YasgTables, table_problems
from rules.yasg.judge import Judge, field_of
from rules.yasg.play import RESULT_WORDS, PlayActions
from rules.yasg.state import EdgeMark, TerrainSquare, YasgFigure, YasgState

SLUG = "yasg"
TITLE = "Yet Another Skirmish Game"
YES = {"yes", "y", "true", "1", "on"}
NO = {"no", "n", "false", "0", "off"}
Handler = Callable[[YasgState, "str | None", bool, Mapping[str, Any], DiceSource], list[Event]]


class YasgEngine(PlayActions):
    slug = SLUG
    title = TITLE

    def __init__(self, tables: YasgTables) -> None:
        problems = table_problems(tables)
        if not problems:
            problems = self._map_problems(tables)
        if problems:
            raise DataError(problems)
        self.t = tables
        self.judge = Judge(tables)
        self._handlers: dict[str, Handler] = {
            "board": self._board,
            "terrain": self._terrain,
            "edge": self._edge,
            "place": self._place,
            "move": self._move,
            "face": self._face,
            "load": self._load,
            "fire": self._fire,
            "engage": self._engage,
            "look": self._look,
            "next": self._next,
        }

    @staticmethod
    def odds_outcome(events: Sequence[Event]) -> str:
        """An action's result for /odds. A shot's damage is taken only when the fire phase ends,
        so a shot is read from its own event ("it: a serious wound", "miss"), not from wounds."""
        shots = [e for e in events if e.kind in ("fire", "misfire")]
        if not shots:
            return default_outcome(events)
        return "; ".join(
            "misfire"
            if e.kind == "misfire"
            else f"{e.data['target']}: {RESULT_WORDS[e.data['result']]}"
            if e.data.get("hit")
            else "miss"
            for e in shots
        )

    @staticmethod
    def _map_problems(tables: YasgTables) -> list[str]:
        problems = []
        for name, spec in tables.maps.items():
            try:
                _lay_out(tables, spec, YasgState(list(tables.sides), "setup", 0, spec.width, spec.height, []))
            except RuleError as exc:
                problems.append(f"maps.{name}: {exc.message}")
        return problems

    # --- protocol: roster and setup

    def sides(self) -> Sequence[str]:
        return list(self.t.sides)

    def kinds(self) -> Sequence[str]:
        return list(self.t.initial_classes)

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        name = " ".join(str(spec.name).split())
        if not name:
            raise RuleError("A figure needs a name.")
        side = self._side(spec.side)
        kind = self._class(name, spec.kind)
        stats: dict[str, Any] = {}
        for key, value in dict(spec.stats or {}).items():
            folded = str(key).strip().casefold()
            if folded == "leader":
                if self._yes(name, value):
                    stats["leader"] = "yes"
            elif folded == "weapon":
                weapon = self._weapon(name, value)
                if weapon != self.t.default_weapon:
                    stats["weapon"] = weapon
            else:
                raise RuleError(
                    f"{short(name)} has a stat {short(str(key))} YASG does not know: use leader=yes or weapon=…"
                )
        return FigureSpec(name=name, side=side, kind=kind, stats=stats)

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """YASG rolls nothing for a recruit: a figure is its class (and whether it leads)."""
        return Outcome(self.check_figure(spec), [])

    def _side(self, wanted: Any) -> str:
        for side in self.t.sides:
            if isinstance(wanted, str) and side.casefold() == wanted.strip().casefold():
                return side
        raise RuleError(f"There is no side called {short(str(wanted))} in YASG: use {' or '.join(self.t.sides)}.")

    def _class(self, name: str, wanted: Any) -> str:
        text = " ".join(str(wanted or "").replace("-", " ").split()).casefold()
        for word in ("class ", " class"):
            text = text.replace(word, "")
        for letter in self.t.initial_classes:
            if text.strip() == letter.casefold():
                return letter
        classes = ", ".join(f"{k} ({self.t.class_names.get(k, '')})".replace(" ()", "") for k in self.t.initial_classes)
        raise RuleError(f"{short(name)} needs a class to start at: {classes}.")

    @staticmethod
    def _yes(name: str, value: Any) -> bool:
        text = str(value).strip().casefold()
        if value is True or text in YES:
            return True
        if value is False or text in NO:
            return False
        raise RuleError(f"Say leader=yes or leader=no for {short(name)}.")

    def _weapon(self, name: str, value: Any) -> str:
        for weapon in self.t.weapons:
            if weapon.casefold() == str(value).strip().casefold():
                return weapon
        raise RuleError(
            f"{short(name)} carries {short(str(value))}, which YASG does not know: use {joined(list(self.t.weapons), 'or')}."
        )

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[YasgState]:
        checked = [self.check_figure(spec) for spec in figures]
        self._check_roster(checked)
        spec = self.t.maps[self.t.board]
        state = YasgState(
            sides=list(self.t.sides),
            phase="setup",
            turn=0,
            width=spec.width,
            height=spec.height,
            figures=[self._new_figure(s) for s in checked],
            map_name=self.t.board,
        )
        _lay_out(self.t, spec, state)
        events = self._leaders(state)
        text = (
            f"Setup on {self._board_words(state)}. Place every figure with /yasg place (the board may first be "
            f"changed with /yasg board, /yasg terrain and /yasg edge), then /yasg next begins turn 1."
        )
        events.append(phase_event(state, text))
        return Outcome(state, events)

    def _new_figure(self, spec: FigureSpec) -> YasgFigure:
        return YasgFigure(
            name=spec.name,
            side=spec.side,
            base_class=spec.kind,
            leader=spec.stats.get("leader") == "yes",
            weapon=str(spec.stats.get("weapon", self.t.default_weapon)),
        )

    def _check_roster(self, figures: Sequence[FigureSpec]) -> None:
        limits = self.t.figures_per_side
        for side in self.t.sides:
            count = sum(1 for f in figures if f.side == side)
            if not limits.min <= count <= limits.max:
                raise RuleError(f"Each side needs {limits.min} to {limits.max} figures: {side} has {count}.")
            leaders = [f.name for f in figures if f.side == side and f.stats.get("leader") == "yes"]
            if len(leaders) > 1:
                raise RuleError(f"{side} has {len(leaders)} Leaders ({joined(leaders)}): one figure leads each side.")
        seen: set[str] = set()
        for f in figures:
            if f.name.casefold() in seen:
                raise RuleError(f"Two figures are called {short(f.name)}: give each figure its own name.")
            seen.add(f.name.casefold())

    def _leaders(self, state: YasgState) -> list[Event]:
        """A side that named no Leader is led by its first figure of the best class."""
        events = []
        for side in state.sides:
            mine = [f for f in state.figures if f.side == side]
            if any(f.leader for f in mine):
                continue
            best = min(mine, key=lambda f: self.judge.class_number(f.base_class))
            best.leader = True
            events.append(
                Event(
                    "leader",
                    f"{side.title()} named no Leader: {best.name} (class {best.base_class}) leads.",
                    {"side": side, "figure": best.name},
                )
            )
        return events

    # --- setup actions

    def _require_setup(self, state: YasgState, doing: str) -> None:
        if state.phase != "setup":
            raise RuleError(f"{doing} only before the battle begins; it is turn {state.turn}, {state.phase} phase.")

    def _board(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require_setup(state, "The board is chosen")
        placed = [f.name for f in state.figures if f.square is not None]
        if placed:
            raise RuleError(f"Choose the board before placing figures: {joined(placed[:3])} already stand on it.")
        name, width, height = params.get("map"), params.get("width"), params.get("height")
        if name is not None and str(name).strip():
            if width is not None or height is not None:
                raise RuleError("Give a map or a size, not both: a map has its own size.")
            found = next((m for m in self.t.maps if m.casefold() == str(name).strip().casefold()), None)
            if found is None:
                raise RuleError(f"There is no map called {short(str(name))}: use {joined(list(self.t.maps), 'or')}.")
            spec = self.t.maps[found]
        else:
            if width is None and height is None:
                raise RuleError("Give the board's width and height in squares, or a map.")
            width = self._size(width if width is not None else state.width, "width")
            height = self._size(height if height is not None else state.height, "height")
            spec, found = MapSpec(width=width, height=height), ""
        state.width, state.height, state.map_name = spec.width, spec.height, found
        state.terrain, state.edges = [], []
        _lay_out(self.t, spec, state)
        return [phase_event(state, f"Setup: the board is now {self._board_words(state)}.")]

    def _size(self, value: Any, what: str) -> int:
        lim = self.t.board_limits
        if isinstance(value, bool) or not isinstance(value, int) or not lim.min <= value <= lim.max:
            raise RuleError(f"The board's {what} is a whole number of squares from {lim.min} to {lim.max}.")
        return value

    def _board_words(self, state: YasgState) -> str:
        size = f"{state.width} × {state.height} squares"
        return f"the map “{state.map_name}” ({size})" if state.map_name else f"{size} of open ground"

    def _terrain(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require_setup(state, "Terrain is laid out")
        squares = parse_squares(str(params.get("squares") or ""), state.width, state.height)
        kind = self._terrain_kind(params.get("kind"))
        uphill = sides_list(params.get("uphill")) if params.get("uphill") else None
        if uphill is not None and not self.t.terrain[kind].hill:
            raise RuleError(f"Only hill squares have uphill sides; {kind} has none.")
        _set_terrain(state, squares, kind, uphill)
        names = ", ".join(square_name(sq) for sq in squares[:12]) + (" …" if len(squares) > 12 else "")
        extra = f" (uphill across its {joined([SIDE_WORDS[s] for s in uphill])} sides)" if uphill else ""
        return [phase_event(state, f"Setup: {names} {'is' if len(squares) == 1 else 'are'} now {kind}{extra}.")]

    def _terrain_kind(self, wanted: Any) -> str:
        text = " ".join(str(wanted or "").split()).casefold()
        found = next((k for k in self.t.terrain if k.casefold() == text), None)
        if found is None:
            raise RuleError(f"{short(str(wanted))} is not a kind of terrain: use {joined(list(self.t.terrain), 'or')}.")
        return found

    def _edge(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require_setup(state, "Hedges and walls are put up")
        squares = parse_squares(str(params.get("squares") or ""), state.width, state.height)
        which = sides_list(params.get("side"))
        if len(which) != 1:
            raise RuleError("Name one side of the squares: n, e, s or w.")
        text = " ".join(str(params.get("kind") or "").split()).casefold()
        kind = next((k for k in self.t.edges if k.casefold() == text), None if text != "none" else "none")
        if kind is None:
            raise RuleError(
                f"{short(text)} is not something on a square's side: use {joined(list(self.t.edges) + ['none'], 'or')}."
            )
        marks = [normal_edge(sq, which[0], state.width, state.height) for sq in squares]
        for x, y, s in marks:
            state.edges = [e for e in state.edges if (e.x, e.y, e.side) != (x, y, s)]
            if kind != "none":
                state.edges.append(EdgeMark(x, y, s, kind))  # type: ignore[arg-type]
        where = ", ".join(square_name(sq) for sq in squares[:12]) + (" …" if len(squares) > 12 else "")
        what = "nothing stands" if kind == "none" else f"a {kind} runs"
        return [phase_event(state, f"Setup: {what} along the {SIDE_WORDS[which[0]]} side of {where}.")]

    def _place(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require_setup(state, "Figures are placed")
        fig = own_figure(state, params.get("figure"), side, by_gm, "place")
        square = parse_square(str(params.get("square") or ""), state.width, state.height)
        other = next((f for f in state.figures if f.square == square and f is not fig), None)
        if other is not None:
            raise RuleError(f"{square_name(square)} is taken by {other.name}: a square holds one figure.")
        turn_to = facing(params.get("facing")) or ("s" if square[1] < state.height / 2 else "n")
        fig.x, fig.y, fig.facing = square[0], square[1], turn_to  # type: ignore[assignment]
        text = f"{fig.name} ({fig.side}, class {fig.base_class}{', Leader' if fig.leader else ''}) stands at {square_name(square)}, facing {turn_to.upper()}."
        events = [Event("placed", text, {"figure": fig.name, "square": square_name(square), "facing": turn_to})]
        left = [f for f in state.figures if f.square is None]
        if not left:
            events.append(phase_event(state, "Setup: every figure is on the board. /yasg next begins turn 1."))
        return events

    # --- protocol: play

    def act(self, state: YasgState, action: Action, dice: DiceSource) -> Outcome[YasgState]:
        if state.phase == "over":
            raise RuleError("The game is over: " + (f"{state.winner} won." if state.winner else "it was a draw."))
        name = str(action.name).strip().casefold()
        handler = self._handlers.get(name)
        if handler is None:
            raise RuleError(
                f"YASG has no action called {short(str(action.name))}: use {joined(sorted(self._handlers), 'or')}."
            )
        side = next(
            (s for s in state.sides if isinstance(action.side, str) and s.casefold() == action.side.strip().casefold()),
            None,
        )
        if side is None and not action.by_gm:
            raise RuleError(f"Only the players of {joined(state.sides)} (or the game master) act in this battle.")
        new = copy.deepcopy(state)
        events = handler(new, side, action.by_gm, action.params, dice)
        return Outcome(new, events)

    def whose_turn(self, state: YasgState) -> str | None:
        return self.whose_turn_of(state)

    def winner(self, state: YasgState) -> str | None:
        return state.winner

    def finished(self, state: YasgState) -> bool:
        return state.phase == "over"

    # --- display

    def board(self, state: YasgState) -> Board:
        over = state.phase == "over"
        turn = self.whose_turn(state)
        if over:
            headline = f"Game over: {state.winner} won" if state.winner else "Game over: a draw"
        elif state.phase == "setup":
            headline = "Setup: the board and the figures' places"
        else:
            headline = f"Turn {state.turn} · {state.phase} phase · {turn}"
        standing = " · ".join(
            f"{s} {sum(1 for f in state.figures if f.side == s and not f.out)}/{sum(1 for f in state.figures if f.side == s)}"
            for s in state.sides
        )
        facts = [
            ("Turn", str(state.turn)),
            ("Phase", state.phase),
            ("Active", "—" if over else str(turn)),
            ("Board", f"{state.width} × {state.height}" + (f" ({state.map_name})" if state.map_name else "")),
            ("In the fight", standing),
        ]
        if state.initiative:
            facts.append(("Initiative", " then ".join(state.initiative)))
        if state.hits:
            facts.append(("Hits to take", str(len(state.hits))))
        if over:
            facts.append(("Winner", state.winner or "none (a draw)"))
        lines = tuple(FigureLine(f.name, f.side, self._status(state, f), out=f.out) for f in state.figures)
        return Board(headline=headline, facts=tuple(facts), figures=lines, finished=over, grid=self._grid(state))

    def _status(self, state: YasgState, fig: YasgFigure) -> str:
        if fig.out:
            return "out of the fight" + (f" ({fig.out_by})" if fig.out_by else "")
        cls = self.judge.letter(self.judge.current_class(fig))
        parts = [
            f"class {cls}" + (f" (was {fig.base_class}, {plural(fig.wounds, 'wound point')})" if fig.wounds else "")
        ]
        parts.append(f"{square_name(fig.square)} facing {fig.facing.upper()}" if fig.square else "not placed yet")
        if fig.leader:
            parts.append("Leader")
        parts.extend(self._marks(state, fig, words=True))
        if fig.moved:
            parts.append(("ran " if fig.ran else "walked ") + plural(fig.moved, "square"))
        if fig.fired:
            parts.append("has fired")
        return " · ".join(parts)

    def _marks(self, state: YasgState, fig: YasgFigure, words: bool = False) -> list[str]:
        marks = []
        if fig.pinned:
            marks.append("pinned")
        if state.phase != "setup" and self.judge.fallen(fig, state.turn):
            marks.append("fallen")
        if fig.shaken:
            marks.append("shaken")
        if fig.weapon_state == "empty":
            marks.append(f"{fig.weapon} empty" if words else "unloaded")
        elif fig.weapon_state == "misfired":
            marks.append("misfired" if words else "misfire")
        if fig.loading and words:
            marks.append("loading")
        return marks

    def _grid(self, state: YasgState) -> Grid:
        field = field_of(self.t, state)
        edges: dict[tuple[int, int], dict[str, str]] = {}
        for e in state.edges:
            edges.setdefault((e.x, e.y), {})[e.side] = e.kind
        cells = sorted({(t.x, t.y) for t in state.terrain} | set(edges), key=lambda sq: (sq[1], sq[0]))
        squares = tuple(
            GridSquare(x, y, field.kind_name((x, y)), edges.get((x, y), {}), field.uphill_sides((x, y)))
            for x, y in cells
        )
        pieces = []
        for number, fig in enumerate(state.figures, start=1):
            if not fig.standing:
                continue
            assert fig.x is not None and fig.y is not None
            label = f"{self.judge.letter(self.judge.current_class(fig))}{number}"
            marks = (("leader",) if fig.leader else ()) + tuple(self._marks(state, fig))
            pieces.append(GridPiece(fig.x, fig.y, fig.name, label, fig.side, fig.facing, marks, fig.wounds))
        return Grid(state.width, state.height, squares, tuple(pieces))

    # --- storage

    def dump_state(self, state: YasgState) -> dict[str, Any]:
        return to_data(state)

    def load_state(self, data: Mapping[str, Any]) -> YasgState:
        return load_checked(YasgState, data, self._state_problems)

    def _state_problems(self, state: YasgState) -> list[str]:
        problems: list[str] = []
        if len(state.sides) != 2:
            problems.append(f"sides: need two sides, got {state.sides!r}")
        for key in ("mover", "winner"):
            value = getattr(state, key)
            if value is not None and value not in state.sides:
                problems.append(f"{key}: {value!r} is not one of the sides")
        for key in ("initiative", "done"):
            for value in getattr(state, key):
                if value not in state.sides:
                    problems.append(f"{key}: {value!r} is not one of the sides")
        if not (1 <= state.width <= 60 and 1 <= state.height <= 60):
            problems.append(f"width/height: {state.width} × {state.height} is not a board")
        names = [f.name for f in state.figures]
        if len({n.casefold() for n in names}) != len(names):
            problems.append("figures: two figures share a name")
        for i, fig in enumerate(state.figures):
            where = f"figures[{i}]"
            if fig.side not in state.sides:
                problems.append(f"{where}.side: {fig.side!r} is not one of the sides")
            if fig.base_class not in self.t.class_letters:
                problems.append(f"{where}.base_class: {fig.base_class!r} is not a class")
            if fig.weapon not in self.t.weapons:
                problems.append(f"{where}.weapon: {fig.weapon!r} is not one of the weapons")
            if fig.square is not None and not (0 <= fig.x < state.width and 0 <= fig.y < state.height):  # type: ignore[operator]
                problems.append(f"{where}: stands off the board")
        for i, t in enumerate(state.terrain):
            if t.kind not in self.t.terrain:
                problems.append(f"terrain[{i}].kind: {t.kind!r} is not a terrain kind")
        for i, e in enumerate(state.edges):
            if e.kind not in self.t.edges:
                problems.append(f"edges[{i}].kind: {e.kind!r} is not an edge kind")
        for i, hit in enumerate(state.hits):
            if hit.target not in names:
                problems.append(f"hits[{i}].target: {hit.target!r} is not a figure of this game")
        return problems


def _set_terrain(state: YasgState, squares: Sequence[tuple[int, int]], kind: str, uphill: list[str] | None) -> None:
    chosen = set(squares)
    state.terrain = [t for t in state.terrain if (t.x, t.y) not in chosen]
    if kind != "open":
        state.terrain.extend(
            TerrainSquare(x, y, kind, list(uphill) if uphill is not None else None) for x, y in squares
        )
    state.terrain.sort(key=lambda t: (t.y, t.x))


def _lay_out(tables: YasgTables, spec: MapSpec, state: YasgState) -> None:
    """A map's terrain and edges onto ``state`` (a RuleError names a bad square)."""
    for patch in spec.terrain:
        squares = parse_squares(patch.squares, spec.width, spec.height)
        _set_terrain(state, squares, patch.kind, sides_list(patch.uphill) if patch.uphill else None)
    for run in spec.edges:
        for square in parse_squares(run.squares, spec.width, spec.height):
            x, y, side = normal_edge(square, run.side, spec.width, spec.height)
            state.edges = [e for e in state.edges if (e.x, e.y, e.side) != (x, y, side)]
            state.edges.append(EdgeMark(x, y, side, run.kind))  # type: ignore[arg-type]


_ENGINES: dict[str, YasgEngine] = {}
_ENGINES_KEPT = 16


def make_engine(house_rules: Mapping[str, Any] | None = None) -> YasgEngine:
    """The YASG engine with a campaign's house rules laid over ``tables.yaml``.

    Engines hold only frozen tables, so one is kept per set of house rules: the shell asks for
    one on every command, and reading the YAML each time is most of a command's work."""
    key = json.dumps(house_rules or {}, sort_keys=True, default=repr)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = YasgEngine(load_tables("rules.yasg", YasgTables, house_rules))
        if len(_ENGINES) >= _ENGINES_KEPT:
            _ENGINES.clear()
        _ENGINES[key] = engine
    return engine
