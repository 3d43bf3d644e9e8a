"""Yet Another Skirmish Game (after Paddy Griffith) as a pure engine on a square grid
(RULES-NOTES.md section 1).

The board is the engine's: its state holds the grid, the terrain and every figure's square and
facing, and the engine measures what players at a table would (within 2 squares, adjacency,
range, the arc of fire, uphill, cover). The turn itself is in :mod:`rules.yasg.play`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.core import (
    Action,
    Board,
    DataError,
    DiceSource,
    Engine,
    Event,
    FigureLine,
    FigureSpec,
    Grid,
    GridPiece,
    GridSquare,
    Outcome,
    RuleError,
    default_outcome,
    short,
)
from rules.tables import load_tables
from rules.words import flag, joined, match_name, plural, unique_names
from rules.yasg import play, setup
from rules.yasg.board import square_name
from rules.yasg.common import Ctx, phase_event
from rules.yasg.data import YasgTables, table_problems
from rules.yasg.judge import Judge, field_of
from rules.yasg.play import RESULT_WORDS
from rules.yasg.specs import SPECS
from rules.yasg.state import YasgFigure, YasgState

SLUG = "yasg"
TITLE = "Yet Another Skirmish Game"

#: What may be typed in each phase (each handler checks its phase in play.py and setup.py).
PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "setup": ("board", "terrain", "edge", "place", "next"),
    "morale": ("next",),
    "movement": ("move", "face", "load", "look", "next"),
    "fire": ("fire", "load", "look", "next"),
    "close combat": ("engage", "look", "next"),
}


class YasgEngine(Engine[YasgState]):
    slug = SLUG
    title = TITLE
    short_name = "YASG"
    command_blurb = "Yet Another Skirmish Game: the board and your turn"
    specs = SPECS
    context_type = Ctx
    state_type = YasgState
    #: Whose each action is, its handler decides (a side moves, both fire at once …).
    open_actions = tuple(SPECS)
    questions = ("look",)
    own_board = "the bot's grid board: /yasg board sets it up and /game status shows it"

    tables: YasgTables

    def __init__(self, tables: YasgTables) -> None:
        problems = table_problems(tables) or setup.map_problems(tables)
        if problems:
            raise DataError(problems)
        self.tables = self.t = tables
        self.judge = Judge(tables)

    def about(self) -> Sequence[tuple[str, str]]:
        shaken = self.judge.shaken_effects()
        board = f"Battles are fought on {self.own_board}; moves and ranges count squares."
        return [
            ("The board", board),
            *([("Shaken", f"A figure that ran last turn is shaken: {shaken}.")] if shaken else []),
        ]

    def odds_outcome(self, events: Sequence[Event]) -> str:
        """An action's result for /odds. A shot's damage is taken only when the fire phase ends,
        so a shot is read from its own event ("it: a serious wound", "miss"), not from wounds; the
        morale phase names each figure's test ("b3: fails: pinned"), which /odds also shows one by
        one when the whole outcomes are too many to list."""
        shots = [e for e in events if e.kind in ("fire", "misfire")]
        morale = [e for e in events if e.kind == "morale" and "passed" in e.data]
        if morale:
            return "; ".join(f"{e.data['figure']}: {'passes' if e.data['passed'] else 'fails: pinned'}" for e in morale)
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

    def _side(self, wanted: Any) -> str:
        side = match_name(self.t.sides, wanted)
        if side is not None:
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
        message = f"Say leader=yes or leader=no for {short(name)}."
        if value is None:
            raise RuleError(message)
        return flag(value, message)

    def _weapon(self, name: str, value: Any) -> str:
        weapon = match_name(self.t.weapons, str(value).strip(), key=str.casefold)
        if weapon is not None:
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
        setup.lay_out(self.t, spec, state)
        events = self._leaders(state)
        text = (
            f"Setup on {setup.board_words(state)}. Place every figure with /yasg place (the board may first be "
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
        unique_names(f.name for f in figures)

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

    # --- protocol: play

    def check_turn(self, state: YasgState, name: str, action: Action) -> str | None:
        """Only the players of the battle's sides act (or the game master); the side, as the game spells it."""
        side = match_name(state.sides, action.side)
        if side is None and not action.by_gm:
            raise RuleError(f"Only the players of {joined(state.sides)} (or the game master) act in this battle.")
        return side

    def whose_turn(self, state: YasgState) -> str | None:
        return play.whose_turn(state)

    def ready(self, state: YasgState, side: str) -> list[str]:
        return play.ready(self.judge, state, side)

    def actions_now(self, state: YasgState, side: str) -> Sequence[str]:
        """Setting up the board before the battle; then each phase's own actions (play.py)."""
        return PHASE_ACTIONS.get(state.phase, ())

    def winner(self, state: YasgState) -> str | None:
        return state.winner

    def finished(self, state: YasgState) -> bool:
        return state.phase == "over"

    def moved_on(self, before: YasgState, events: Sequence[Event]) -> bool:
        """The board goes with the set-up's end (the last figure placed), each side's movement's
        end, and the turn's end (the fire phase's hits and the close combat taken): not with each
        step of the set-up, the morale phase, or the fire phase when a close combat follows."""
        if before.phase == "setup":
            placed = {e.data.get("figure") for e in events if e.kind == "placed"}
            return bool(placed) and all(f.square is not None or f.name in placed for f in before.figures)
        phases = [e.data.get("phase") for e in events if e.kind == "phase"]
        if before.phase == "fire":
            phases = [p for p in phases if p != "close combat"]
        ended = any(e.kind == "victory" for e in events)
        return before.phase in ("movement", "fire", "close combat") and (bool(phases) or ended)

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
        grid = replace(self._grid(state), title=headline)
        return Board(headline=headline, facts=tuple(facts), figures=lines, finished=over, grid=grid)

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
            marks.append("shaken (ran last turn)" if words else "shaken")
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
            letter = self.judge.letter(self.judge.current_class(fig))
            marks = (("leader",) if fig.leader else ()) + tuple(self._marks(state, fig))
            pieces.append(
                GridPiece(fig.x, fig.y, fig.name, str(number), fig.side, fig.facing, marks, fig.wounds, letter)
            )
        return Grid(state.width, state.height, squares, tuple(pieces))

    # --- storage

    def state_problems(self, state: YasgState) -> list[str]:
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
            if fig.square is not None and not (0 <= fig.square[0] < state.width and 0 <= fig.square[1] < state.height):
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
