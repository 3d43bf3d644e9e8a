"""Each self-play invariant catches what it guards: fed a broken case, it says so; fed the real
case it came from, it says nothing. The cases start from a real SSG battle at a table (a real
SQLite file, the terminal front-end), then break one thing."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.errors import BUG_SENTENCE
from bot.selfplay.invariants import End, Step
from bot.selfplay.invariants.budget import WithinBudget
from bot.selfplay.invariants.errors import NoBug
from bot.selfplay.invariants.hints import HintsAccepted
from bot.selfplay.invariants.placement import OnTheTable
from bot.selfplay.invariants.refusal import RefusalChangesNothing
from bot.selfplay.invariants.replay import ReplayGivesState
from bot.selfplay.invariants.tallies import TalliesMatch
from bot.selfplay.invariants.turns import NobodyOutOfTurn
from bot.selfplay.invariants.verify import DiceVerify
from bot.selfplay.table import Record, Snapshot, Table

SETUP = [
    ("GM", '/campaign new name:"Checks" ruleset:ssg'),
    ("Red", "/campaign join side:red"),
    ("GM", "/decide choice:approve"),
    *[("Red", f"/roster add name:{n} kind:rifle") for n in ("Rossi", "Ada", "Cy", "Dee", "Eli", "Fay")],
    ("Blue", "/campaign join side:blue"),
    ("GM", "/decide choice:approve"),
    *[("Blue", f"/roster add name:{n} kind:rifle") for n in ("Bo", "Bert", "Bill", "Ben", "Bud", "Jim")],
    ("GM", "/map new scenario:crossroads"),
    ("GM", "/game start"),
    ("Red", "/map deploy"),
    ("Blue", "/map deploy"),
]


#: A seed whose roll-off gives red the first move.
SEED = 1


class Played:
    """A few real steps of a battle on the crossroads: a move, and its snapshots."""

    def __init__(self, before: Snapshot, after: Snapshot, moved: Record, report: str | None) -> None:
        self.before, self.after, self.moved, self.report = before, after, moved, report


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return asyncio.run(play(tmp_path_factory.mktemp("checks") / "checks.sqlite3"))


async def play(db: Path) -> Played:
    table = Table(db, seed=SEED)
    await table.open()
    try:
        for player, line in SETUP:
            assert (await table.send(player, line)).ok, line
        before = await table.snapshot()
        assert before.state().active == "red", "seed 3 gives red the first move"
        moved = await table.send("Red", "/ssg move figure:Rossi toward:Bo")
        assert moved.ok
        after = await table.snapshot()
        await table.send("GM", "/game end")
        _, report = await table.report()
    finally:
        await table.close()
    return Played(before, after, moved, report)


def step(played: Played, *, record: Record | None = None, after: Snapshot | None = None, **kw: Any) -> Step:
    return Step(record or played.moved, played.before, after or played.after, kw.pop("seconds", 0.1), **kw)


def with_state(snap: Snapshot, change: Any) -> Snapshot:
    assert snap.game is not None
    state = json.loads(json.dumps(snap.game.state))
    change(state)
    return replace(snap, game=replace(snap.game, state=state, version=snap.game.version + 1))


def refused(line: str, player: str = "Red") -> Record:
    return Record(player, line, {"ok": False, "error": "No."})


def test_the_real_steps_pass_every_check(played: Played) -> None:
    checks = [NoBug(), RefusalChangesNothing(), WithinBudget(30), NobodyOutOfTurn(), HintsAccepted(), OnTheTable()]
    assert [p for c in checks for p in c.after(step(played))] == []
    assert ReplayGivesState().after(step(played)) == []


def test_a_bug_sentence_or_a_logged_error_is_a_bug(played: Played) -> None:
    bug = Record("Red", "/ssg next", {"ok": False, "error": BUG_SENTENCE})
    assert NoBug().after(step(played, record=bug))
    assert NoBug().after(step(played, logged=["unexpected error in /ssg next: KeyError"]))
    assert NoBug().after(step(played, record=refused("/ssg next"))) == []


def test_a_refusal_that_changed_the_game_is_caught(played: Played) -> None:
    assert RefusalChangesNothing().after(step(played, record=refused("/ssg next"), after=played.before)) == []
    problems = RefusalChangesNothing().after(step(played, record=refused("/ssg next")))
    assert problems and "state" in problems[0] and "version" in problems[0]


def test_a_slow_answer_breaks_the_budget() -> None:
    slow = Step(refused("/ssg next"), Snapshot(None, None), Snapshot(None, None), 31.0)
    assert WithinBudget(30).after(slow)
    assert WithinBudget(30).after(replace(slow, seconds=29.0)) == []


def test_an_accepted_line_out_of_turn_is_caught(played: Played) -> None:
    blue = Record("Blue", "/ssg move figure:Bo toward:Rossi", {"ok": True})
    assert NobodyOutOfTurn().after(step(played, record=blue))
    assert NobodyOutOfTurn().after(step(played, record=blue, intent="probe"))
    assert NobodyOutOfTurn().after(step(played, record=refused(blue.line, "Blue"), intent="probe")) == []


def test_a_refused_hint_is_caught(played: Played) -> None:
    assert HintsAccepted().after(step(played, record=refused("/ssg next"), intent="hint"))
    assert HintsAccepted().after(step(played, record=refused("/ssg next"), intent="move")) == []


def test_a_figure_off_the_table_or_on_another_is_caught(played: Played) -> None:
    def off(state: dict[str, Any]) -> None:
        state["field"]["positions"]["Rossi"] = [-3.0, 10.0]

    def onto(state: dict[str, Any]) -> None:
        state["field"]["positions"]["Ada"] = list(state["field"]["positions"]["Rossi"])

    assert "off the table" in OnTheTable().after(step(played, after=with_state(played.after, off)))[0]
    assert "overlap" in OnTheTable().after(step(played, after=with_state(played.after, onto)))[0]


def test_a_saved_state_the_log_does_not_give_is_caught(played: Played) -> None:
    def moved(state: dict[str, Any]) -> None:
        state["field"]["positions"]["Rossi"] = [20.0, 20.0]

    problems = ReplayGivesState().after(step(played, after=with_state(played.after, moved)))
    assert problems == ["replaying the log gives another state than the saved one"]


def test_a_report_whose_losses_differ_from_the_state_is_caught(played: Played) -> None:
    assert played.report is not None
    assert TalliesMatch().at_end(End(played.after, played.report, 1)) == []
    wrong = played.report.replace("## Casualties\n\n", "## Casualties\n\nLost: Red 2.\n\n")
    assert "Lost: Red 2." in wrong
    assert TalliesMatch().at_end(End(played.after, wrong, 1))


def test_a_report_whose_dice_do_not_verify_is_caught(played: Played) -> None:
    assert played.report is not None
    assert DiceVerify().at_end(End(played.after, played.report, 1)) == []
    secret = json.loads(played.report.split("```json", 1)[1].split("```", 1)[0])["secret"]
    tampered = played.report.replace(secret, "0" * len(secret))
    assert DiceVerify().at_end(End(played.after, tampered, 1))
