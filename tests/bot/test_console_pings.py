"""The terminal names the players it pings, even one this run has not switched to, and after a
refused command it shows the forced dice and cards still waiting for the next one."""

from __future__ import annotations

import io

from bot.console import Console
from bot.dice import ForcedDice
from bot.store import Store
from bot.store.database import Database
from tests.named_app import NamedApp


async def _console(database: Database, forced: ForcedDice) -> tuple[Console, io.StringIO]:
    app = NamedApp(Store(database), lambda: forced)
    out = io.StringIO()
    console = Console(app, forced, player="Gina", out=out)
    await console.learn_names()
    return console, out


async def test_a_ping_names_a_player_this_run_has_not_met(database: Database) -> None:
    console, out = await _console(database, ForcedDice())
    for line in (
        '/campaign new name:"Iron Coast" ruleset:ssg battlefield:table',
        "/as Rita",
        "/campaign join side:red",
    ):
        await console.run_line(line)
    console.names.clear()  # as if Rita had joined in another run, or from another terminal
    await console.run_line("/as Gina")
    out.seek(0)
    out.truncate(0)
    await console.run_line("/decide choice:approve")
    said = out.getvalue()
    assert ">> @Rita" in said, said
    assert "@2" not in said and not any(ch.isdigit() for ch in said.split(">> @")[1].split()[0])


async def test_a_refusal_shows_the_forced_dice_still_waiting(database: Database) -> None:
    forced = ForcedDice()
    console, out = await _console(database, forced)
    await console.run_line("/dice 6,1")
    await console.run_line("/cards AH")
    out.seek(0)
    out.truncate(0)
    await console.run_line("/roll dice:2d6+")
    said = out.getvalue()
    assert said.startswith("!! ") and "(Still forced for the next command: dice 6, 1; cards AH.)" in said, said
    await console.run_line("/roll dice:2d6")
    assert list(forced.dice) == [] and list(forced.cards) == ["AH"]


def test_json_gives_the_forced_dice_still_waiting_apart_from_the_error(tmp_path) -> None:
    from tests.bot.test_console import play

    [refused, rolled] = play(tmp_path / "q.sqlite3", "/roll dice:2d6+\n/roll dice:1d6\n", "--dice", "6,1")
    assert refused["error"] == "I can't read that roll: write dice like 2d6+1 or 4d6kh3."
    assert refused["queued"] == {"dice": [6, 1], "cards": []}
    assert "queued" not in rolled and [d["value"] for d in rolled["dice"]] == ["6"]


def test_json_gives_the_next_moves_and_who_may_still_act(tmp_path) -> None:
    """After "your move" the line names the quick move (``next``) and the figures that may still act
    (``ready``), as the button and the select under it on Discord; a move takes its figure off."""
    from tests.bot.test_console import play

    setup = [
        "/as Gina",
        '/campaign new name:"Iron Coast" ruleset:ssg battlefield:table',
        "/as Rita",
        "/campaign join side:red",
        "/as Gina",
        "/decide choice:approve",
        "/as Bob",
        "/campaign join side:blue",
        "/as Gina",
        "/decide choice:approve",
    ]
    for n in range(6):
        setup += ["/as Rita", f"/roster add name:R{n} kind:rifle", "/as Bob", f"/roster add name:B{n} kind:rifle"]
    setup += ["/as Gina", "/game start", "/as Rita", "/ssg move figure:R0 distance:4", "/game status"]
    records = play(tmp_path / "n.sqlite3", "\n".join(setup) + "\n", "--dice", "5,2")
    [started, moved, status] = [
        r for r in records if r["command"] in ("/game start", "/ssg move figure:R0 distance:4", "/game status")
    ]
    assert started["ok"], started
    assert started["say"].startswith("@Rita red: your move.")
    assert started["next"] == ["/ssg next"] and started["ready"] == [f"R{n}" for n in range(6)]
    assert "ready" not in moved  # the move with red still: no new "your move"
    assert status["ready"] == [f"R{n}" for n in range(1, 6)]
