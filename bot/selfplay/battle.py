"""One self-played battle: set up through the terminal, played to its end by two random sides,
every line checked by the invariants; the first failure stops the battle with the lines that led
to it (the replay)."""

from __future__ import annotations

import importlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bot.app.switches import switches
from bot.selfplay.invariants import End, Invariant, Step, for_ruleset
from bot.selfplay.invariants.turns import may_act
from bot.selfplay.moves import Line, Moves, pick, player_of, quoted
from bot.selfplay.table import Record, Snapshot, Table

RULESETS = ("ssg", "medieval", "yasg", "sharpe", "nsr")
#: Lines a battle may take before it counts as one that did not end (counted apart).
ACTION_BOUND = 600
#: The seconds one line may take (a line that takes longer fails the budget check).
BUDGET = 30.0
#: How often the random side does something besides its move: a quick move offered (hint), a line
#: typed out of turn (probe), a look (status, log, odds, the map) or an undo.
HINT, PROBE, EXTRA, UNDO = 0.04, 0.03, 0.04, 0.02


def moves_for(slug: str) -> Moves:
    module = importlib.import_module(f"bot.selfplay.{slug}")
    moves: Moves = getattr(module, f"{slug.capitalize()}Moves")()
    return moves


@dataclass
class Outcome:
    """What one battle came to: how it ended, its lines, and the first failure, if any."""

    ruleset: str
    seed: int
    where: str
    switches: dict[str, Any] = field(default_factory=dict)
    ended: str = ""
    actions: int = 0
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")
    failure: str | None = None
    #: Problems of the invariants allowed for this run (``--allow``), counted apart.
    allowed: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    house_rules: str | None = None

    @property
    def bounded(self) -> bool:
        return self.ended == "bound"


def house_rules(slug: str, rng: random.Random) -> dict[str, Any]:
    """Some of the ruleset's yes/no switches turned the other way (each with an even chance)."""
    flipped: dict[str, Any] = {}
    for switch in switches(slug):
        if isinstance(switch.default, bool) and rng.random() < 0.5:
            target = flipped
            for key in switch.path[:-1]:
                target = target.setdefault(key, {})
            target[switch.path[-1]] = not switch.default
    return flipped


class Battle:
    def __init__(
        self,
        slug: str,
        seed: int,
        workdir: Path,
        *,
        where: str | None = None,
        bound: int = ACTION_BOUND,
        budget: float = BUDGET,
        on_line: Callable[[str], None] | None = None,
        invariants: list[Invariant] | None = None,
        allow: frozenset[str] = frozenset(),
    ) -> None:
        #: Invariants whose problems are noted and counted, not failures (known, handed over).
        self.allow = allow
        self.slug, self.seed, self.workdir, self.bound = slug, seed, workdir, bound
        self.rng = random.Random(f"{slug}:{seed}")
        self.moves = moves_for(slug)
        settings = self.moves.settings()
        chosen = next((s for s in settings if (s.map or "table") == where), None) if where else None
        self.setting = chosen or self.rng.choice(settings)
        self.invariants = invariants if invariants is not None else for_ruleset(slug, budget=budget)
        self.on_line = on_line
        where_name = self.setting.map or ("table" if self.setting.table else "board")
        self.outcome = Outcome(slug, seed, where_name)
        #: The quick moves the last answer offered, and the game's version they were offered at: a
        #: hint holds only until the game changes (an undo, another line carried out).
        self.offered: list[str] = []
        self.offered_at: int | None = None

    async def play(self) -> Outcome:
        started = time.perf_counter()
        self.workdir.mkdir(parents=True, exist_ok=True)
        db = self.workdir / f"{self.slug}-{self.seed}.sqlite3"
        db.unlink(missing_ok=True)
        self.table = Table(db, self.seed, on_line=self.on_line)
        await self.table.open()
        try:
            self.snap = await self.table.snapshot()
            await self._setup()
            while self.outcome.failure is None:
                if not self.snap.active:
                    break
                if self.outcome.actions >= self.bound:
                    self.outcome.ended = "bound"
                    await self._send(Line("GM", "/game end"), "extra")
                    break
                await self._turn()
            if self.outcome.failure is None:
                await self._finish()
        finally:
            self.outcome.lines = list(self.table.lines)
            self.outcome.seconds = time.perf_counter() - started
            await self.table.close()
        return self.outcome

    async def _setup(self) -> None:
        flipped = house_rules(self.slug, self.rng)
        self.outcome.switches = flipped
        battlefield = " battlefield:table" if self.setting.table else ""
        lines = [Line("GM", f'/campaign new name:"Self-play {self.seed}" ruleset:{self.slug}{battlefield}')]
        if flipped:
            path = self.workdir / f"{self.slug}-{self.seed}-house-rules.yaml"
            text = yaml.safe_dump(flipped, sort_keys=True)
            path.write_text(text, encoding="utf-8")
            self.outcome.house_rules = text
            lines.append(Line("GM", f"/campaign rules set file:{path}"))
        sides = list(self._engine_sides())
        for side in sides:
            lines += [Line(player_of(side), f"/campaign join side:{side}"), Line("GM", "/decide choice:approve")]
            lines += [Line(player_of(side), text) for text in self.moves.roster(side, self.rng)]
        lines += self.moves.before_start(self.setting)
        lines.append(Line("GM", "/game start"))
        for line in lines:
            record = await self._send(line, "setup")
            if self.outcome.failure is None and not record.ok:
                self._fail(f"setting up, {line.text!r} was refused: {record.error}")
            if self.outcome.failure is not None:
                return

    def _engine_sides(self) -> list[str]:
        from rules import get_engine

        return list(get_engine(self.slug).sides())

    async def _turn(self) -> None:
        snap = self.snap
        if snap.decisions:
            decision = self.rng.choice(snap.decisions)
            choice = self.rng.choice(decision.choices).value
            who = "GM" if decision.decider == "gm" else player_of(decision.decider)
            await self._send(Line(who, f"/decide choice:{quoted(choice)} decision:{decision.id}"), "move")
            return
        state = snap.state()
        engine = snap.engine
        turn = engine.whose_turn(state)
        options = self.moves.options(snap, state, self.rng)
        roll = self.rng.random()
        if roll < HINT and self.offered and self.offered_at == _version(snap) and turn is not None:
            await self._send(Line(player_of(turn), self.rng.choice(self.offered)), "hint")
        elif roll < HINT + PROBE and options and turn is not None:
            line = pick(self.rng, options)
            allowed = may_act(snap)
            others = [s for s in engine.sides() if s not in allowed and player_of(s) != line.player]
            if others and line.player != "GM":
                await self._send(Line(player_of(self.rng.choice(others)), line.text), "probe")
        elif roll < HINT + PROBE + EXTRA:
            await self._send(self._extra(options, turn), "extra")
        elif roll < HINT + PROBE + EXTRA + UNDO and turn is not None:
            await self._send(Line(self.rng.choice([player_of(turn), "GM"]), "/game undo"), "extra")
        elif options:
            await self._send(pick(self.rng, options), "move")
        else:
            self._fail(f"the random side has nothing to type (turn: {turn})")

    def _extra(self, options: list[Line], turn: str | None) -> Line:
        who = player_of(turn) if turn else "GM"
        looks = ["/game status", "/game log", "/game report"]
        if self.setting.map:
            looks.append("/map show")
        if options:
            line = pick(self.rng, options).text.lstrip("/").replace('"', "'")
            looks.append(f'/odds action:"{line}"')
        return Line(who, self.rng.choice(looks))

    async def _send(self, line: Line, intent: str) -> Record:
        before = self.snap
        seen = len(self.table.bugs.seen)
        start = time.perf_counter()
        try:
            record = await self.table.send(line.player, line.text)
        except Exception as exc:  # the front-end itself failed: that is a bug too
            logging.getLogger("skirmish_gm.selfplay").exception("line %r", line.text)
            record = Record(line.player, line.text, {"ok": False, "error": f"{type(exc).__name__}: {exc}"})
            self.table.bugs.seen.append(f"the terminal raised {type(exc).__name__}: {exc}")
        seconds = time.perf_counter() - start
        self.outcome.actions += 1
        if seconds > self.outcome.slowest[0]:
            self.outcome.slowest = (seconds, line.text)
        self.snap = await self.table.snapshot()
        if "next" in record.data:
            self.offered, self.offered_at = list(record.data["next"]), _version(self.snap)
        step = Step(record, before, self.snap, seconds, self.table.bugs.seen[seen:], intent)
        for invariant in self.invariants:
            problems = invariant.after(step)
            if problems:
                self._problem(invariant, f"{'; '.join(problems)} (after {line.text!r} as {line.player})")
        return record

    async def _finish(self) -> None:
        last = self.snap
        game = last.game
        if not self.outcome.ended:
            if game is None:
                self.outcome.ended = "no battle"
            elif game.winner:
                self.outcome.ended = f"won by {game.winner}"
            else:
                self.outcome.ended = game.status
        record, report = await self.table.report()
        if not record.ok:
            self._fail(f"/game report was refused at the end: {record.error}")
            return
        end = End(self.snap, report, self.outcome.actions)
        for invariant in self.invariants:
            problems = invariant.at_end(end)
            if problems:
                self._problem(invariant, f"{'; '.join(problems)} (at the end of the battle)")

    def _problem(self, invariant: Invariant, text: str) -> None:
        if invariant.key in self.allow:
            self.outcome.allowed.append(f"{invariant.key}: {text}")
        else:
            self._fail(f"{invariant.name}: {text}")

    def _fail(self, text: str) -> None:
        if self.outcome.failure is None:
            self.outcome.failure = text


def replay_text(outcome: Outcome, workdir: Path) -> str:
    """How to replay a failed battle at the terminal: the seed, the command, the lines."""
    head = [
        f"# self-play {outcome.ruleset} seed {outcome.seed} ({outcome.where}): {outcome.failure}",
        f"# replay: skirmish-gm play --db new.sqlite3 --battle-seed {outcome.seed} --json < this-file",
    ]
    if outcome.house_rules:
        head.append(f"# the house rules file it sets ({workdir}/{outcome.ruleset}-{outcome.seed}-house-rules.yaml):")
        head += [f"#   {line}" for line in outcome.house_rules.splitlines()]
    return "\n".join(head + outcome.lines) + "\n"


def _version(snap: Snapshot) -> int | None:
    return snap.game.version if snap.game is not None else None
