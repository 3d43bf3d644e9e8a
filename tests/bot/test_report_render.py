"""The battle report as Markdown, and a log page's entries, drawn from plain data; and the report
printed in the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.dice import RolledDie
from bot.render.report import (
    BattleReport,
    Fallen,
    LogAction,
    ReportFigure,
    ReportSide,
    casualties,
    code,
    escape,
    log_entry,
    log_text,
    report_markdown,
    turn_of,
)
from rules.core import Board, BoundPayload, CasualtyPayload, Event, FigureLine, PhasePayload
from tests.bot.test_console import FIRST_HALF, FIRST_HALF_DICE, SETUP, SETUP_DICE

START = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
END = datetime(2025, 3, 2, 21, 30, tzinfo=UTC)


def action(seq: int, *events: Event, rolls: tuple[RolledDie, ...] = (), **kw) -> LogAction:
    return LogAction(
        seq=seq,
        actor=kw.pop("actor", "Rita"),
        by_gm=kw.pop("by_gm", False),
        side=kw.pop("side", "red"),
        command=kw.pop("command", f"/x act n:{seq}"),
        events=events,
        rolls=rolls,
        **kw,
    )


def report(actions: list[LogAction], **kw) -> BattleReport:
    fields = {
        "campaign": "Iron Coast",
        "battle": 7,
        "ruleset": "Simple Skirmish Game",
        "game_master": "Gina",
        "started": START,
        "ended": END,
        "finished": True,
        "winner": "red",
        "sides": [
            ReportSide("red", ("Rita",), (ReportFigure("Rossi", "rifle", "Rita", {"skill": 6}),)),
            ReportSide("blue", ("Bob", "Bea"), (ReportFigure("Bo", "pistol", "Bob"),)),
        ],
        "actions": actions,
        "board": Board(
            "Game over: red won", (), (FigureLine("Rossi", "red", "fine"), FigureLine("Bo", "blue", "removed", True))
        ),
    }
    fields.update(kw)
    return BattleReport(**fields)


def test_the_head_the_sides_and_the_result() -> None:
    text = report_markdown(report([action(1, Event("setup", "Set up."))]))
    assert text.splitlines()[:7] == [
        "# Iron Coast — battle 7",
        "",
        "- **Ruleset:** Simple Skirmish Game",
        "- **Fought:** 2025-03-01 18:00 UTC to 2025-03-02 21:30 UTC",
        "- **Game master:** Gina",
        "- **Result:** 🏆 **Red** won.",
        "- **Actions:** 1",
    ]
    assert "### Red\n\nPlayed by Rita. Figures at the start:\n\n- **Rossi** (rifle) — Rita · `skill=6`\n" in text
    assert "### Blue\n\nPlayed by Bob, Bea." in text and "- **Bo** (pistol) — Bob\n" in text
    assert "## At the end\n\n- **Red:** Rossi — fine\n- **Blue:** ~~Bo~~ — removed\n" in text
    assert text.endswith("## Result\n\n🏆 **Red** won.\n")
    assert "### Before the first turn" not in text  # this ruleset's events told no turns


def test_turn_headings_follow_the_action_that_announced_them() -> None:
    actions = [
        action(1, Event("setup", "Roll-off."), PhasePayload(1).event("Turn 1 · red.")),
        action(2, Event("move", "Rossi moves.")),
        action(3, PhasePayload(phase="shooting").event("Shooting phase (no number).")),
        action(4, PhasePayload(2).event("Turn 2 · red."), undone=True),  # taken back: no turn
        action(5, PhasePayload(1).event("Turn 1 · blue.")),  # the same turn: no new heading
        action(6, PhasePayload(2).event("Turn 2 · red.")),
    ]
    lines = report_markdown(report(actions)).splitlines()
    headings = [line for line in lines if line.startswith("### ") and not line.startswith(("### Red", "### Blue"))]
    assert headings == ["### Before the first turn", "### Turn 1", "### Turn 2"]
    assert lines.index("### Turn 1") == lines.index("**1.** Rita (red): `/x act n:1`") + 4
    assert lines.index("### Turn 2") > lines.index("**6.** Rita (red): `/x act n:6`")
    assert "- **Shooting phase (no number).**" in lines


def test_bounds_are_told_by_the_last_marker_of_an_action() -> None:
    """Sharpe's "End of bound 1" and "Bound 2 begins" in one action open the heading of bound 2 only."""
    actions = [
        action(1, BoundPayload(1).event("Bound 1 · Harris (british) to act.", kind="turn")),
        action(
            2,
            BoundPayload(1).event("End of bound 1."),
            BoundPayload(2).event("Bound 2 begins."),
            BoundPayload(2).event("Bound 2 · Dubois (french) to act.", kind="turn"),
        ),
    ]
    text = report_markdown(report(actions))
    assert [line for line in text.splitlines() if line.startswith("### Bound")] == ["### Bound 1", "### Bound 2"]
    assert turn_of(Event("phase", "x", {"turn": True})) is None and turn_of(Event("shot", "x", {"turn": 3})) is None
    assert turn_of(PhasePayload(0).event("Placement.")) is None  # YASG places its figures in turn 0


def test_undone_secret_hidden_and_game_master_actions() -> None:
    die = RolledDie("die", 6, "4", "Gina: ambush")
    actions = [
        action(1, Event("move", "Rossi moves 2″."), undone=True),
        action(
            2,
            Event("roll", "Gina rolls 1d6 (4) = `4`", {"secret": True}),
            rolls=(die,),
            actor="Gina",
            by_gm=True,
            side=None,
            command="/roll dice:1d6 secret:True",
            secret=True,
        ),
        action(3, secret=True, hidden=True, actor="Gina", by_gm=True, side=None, command=""),
        action(4, Event("move", "Bo moves."), actor="Gina", by_gm=True, side="blue"),
    ]
    text = report_markdown(report(actions))
    assert "**1.** ~~Rita (red): `/x act n:1`~~ — *taken back with /game undo*\n- ~~Rossi moves 2″.~~" in text
    assert "**2.** Gina (game master): `/roll dice:1d6 secret:True` — 🔒 *secret roll*\n" in text
    assert "- 🎲 d6 → **4** — Gina: ambush" in text
    assert "**3.** 🔒 The game master rolled in secret: revealed when the battle ends." in text
    assert "**4.** Gina (game master, for blue): `/x act n:4`" in text


def test_casualties_count_only_what_stands() -> None:
    out = CasualtyPayload("Bo", "blue", None).event("Bo (blue) is removed.")
    fell, unknown = Fallen(out, 1, "blue"), Event("casualty", "X is out.", {})
    actions = [
        action(1, out, undone=True, fallen=(fell,)),
        action(2, out, fallen=(fell,)),
        action(3, unknown, fallen=(Fallen(unknown, 1),)),
    ]
    assert casualties(report(actions)) == 2
    text = report_markdown(report(actions))
    part = text[text.index("## Casualties") : text.index("## At the end")]
    assert part.splitlines()[2:6] == [
        "Lost: Blue 1.",
        "",
        "- ☠ Bo (blue) is removed. *(action 2)*",
        "- ☠ X is out. *(action 3)*",
    ]


def test_the_lost_line_is_the_states_count_where_it_has_one() -> None:
    """A man wounded who went back to the ranks (NSR's light wound), or one hit again once he fell,
    is no second loss: the state says who is out, the events say how."""
    hit = Event("hit", "3♠ → Rifles: Private 1 lightly wounded.", {})
    actions = [action(1, hit, fallen=(Fallen(hit, 1, "blue"),))]
    with_state = report(actions, losses={"blue": 0, "red": 2})
    assert casualties(with_state) == 2
    text = report_markdown(with_state)
    part = text[text.index("## Casualties") : text.index("## At the end")]
    assert part.splitlines()[2:5] == ["Lost: Red 2.", "", "- ☠ 3♠ → Rifles: Private 1 lightly wounded. *(action 1)*"]


def test_player_names_cannot_break_the_document() -> None:
    sides = [ReportSide("red", ("**Evil** | <@1>",), (ReportFigure("# `Rossi`", "rifle", None, {"note": "a`b"}),))]
    text = report_markdown(report([], sides=sides, campaign="_Iron_ [Coast]"))
    assert text.startswith("# \\_Iron\\_ \\[Coast\\] — battle 7\n")
    assert "Played by \\*\\*Evil\\*\\* \\| \\<@1\\>." in text
    assert "- **\\# \\`Rossi\\`** (rifle) · `` note=a`b ``" in text
    assert "## The battle\n\nNothing happened yet." in text
    assert code("/roll dice:`1d6`") == "`` /roll dice:`1d6` ``" and escape("a  b\nc") == "a b c"


def test_a_battle_in_progress_and_one_ended_by_the_game_master() -> None:
    going = report_markdown(report([], finished=False, winner=None, ended=None))
    assert "- **Fought:** since 2025-03-01 18:00 UTC" in going
    assert "- **Result:** In progress: Game over: red won" in going and "## Where things stand" in going
    ended = report_markdown(report([], winner=None, board=None))
    assert "- **Result:** Ended by the game master without a winner." in ended and "## At the end" not in ended


def test_ten_thousand_actions_are_all_written() -> None:
    """Every action and turn heading of a long battle (how fast: ``python -m bench.reports``)."""
    rolls = tuple(RolledDie("die", 6, str(k), f"shot {k}") for k in range(1, 4))
    actions = [
        action(
            n,
            Event("shot", f"Shot {n}."),
            *([PhasePayload(n // 50).event(f"Turn {n // 50}.")] if n % 50 == 0 else []),
            rolls=rolls,
        )
        for n in range(1, 10_001)
    ]
    text = report_markdown(report(actions))
    assert text.count("\n**") == 10_000 and text.count("\n### Turn ") == 200


entries = st.builds(
    LogAction,
    seq=st.integers(1, 10**6),
    actor=st.text(max_size=120),
    by_gm=st.booleans(),
    side=st.none() | st.text(max_size=32),
    command=st.text(max_size=2000),
    undone=st.booleans(),
    secret=st.booleans(),
    hidden=st.booleans(),
    events=st.lists(st.builds(Event, kind=st.sampled_from(["shot", "phase"]), text=st.text(max_size=600)), max_size=30),
    rolls=st.lists(
        st.builds(
            RolledDie,
            kind=st.sampled_from(["die", "card"]),
            sides=st.just(6),
            value=st.text(max_size=8),
            reason=st.text(max_size=400),
        ),
        max_size=60,
    ),
)


@settings(max_examples=150, deadline=None)
@given(entries, st.integers(100, 4000))
def test_a_log_entry_never_exceeds_its_share(entry: LogAction, budget: int) -> None:
    text = log_entry(entry, budget)
    assert len(text) <= budget
    assert text.startswith(f"**{entry.seq}.**")


@settings(max_examples=60, deadline=None)
@given(st.lists(entries, min_size=1, max_size=25))
def test_a_log_page_fits_its_budget(page: list[LogAction]) -> None:
    assert len(log_text(page, 3600)) <= 3600


def test_a_long_entry_says_what_it_left_out() -> None:
    many = tuple(RolledDie("die", 6, "6", f"shot {k} at Bo") for k in range(40))
    text = log_entry(action(9, Event("shot", "Forty shots."), rolls=many), 400)
    assert text.splitlines()[0] == "**9.** `/x act n:9` — Rita"
    assert text.splitlines()[-1].endswith("more lines in /game report") and len(text) <= 400


def test_the_terminal_prints_the_report(tmp_path: Path) -> None:
    """``/game report`` in ``skirmish-gm play``: the Markdown printed between markers; the secret roll
    the game master made is shown (the game master asks, and then the battle is over)."""
    script = (
        SETUP
        + "/as Gina\n/roll dice:1d6 reason:omen secret:yes\n"
        + FIRST_HALF
        + "/as Gina\n/game end\n/as Bob\n/game report\n"
    )
    env = {**os.environ, "SKIRMISH_GM_DATA": str(tmp_path / "data")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "play",
            "--db",
            str(tmp_path / "t.sqlite3"),
            "--seed",
            "1",
            "--dice",
            ",".join([SETUP_DICE, "4", FIRST_HALF_DICE]),
        ],
        input=script,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
        env=env,
    )
    assert "Traceback" not in done.stderr, done.stderr
    out = done.stdout
    assert "--- battle-1.md ---\n# Iron Coast — battle 1\n" in out and "--- end of battle-1.md ---" in out
    report_part = out[out.index("--- battle-1.md ---") :]
    assert "Gina (game master): `/roll dice:1d6 reason:omen secret:True` — 🔒 *secret roll*" in report_part
    assert "- 🎲 d6 → **4** — Gina: omen" in report_part
    assert "- ☠ Big Jim (blue) is removed from play by Cy" in report_part
