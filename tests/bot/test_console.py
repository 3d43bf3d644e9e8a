"""The terminal table as a newcomer runs it: a real process, a real SQLite file, forced dice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SETUP = """\
/as Gina
/campaign new name:"Iron Coast" ruleset:ssg battlefield:table
/as Rita
/campaign join side:red
/as Gina
/decide choice:approve
/as Rita
/roster add name:Rossi kind:rifle
/roster add name:Ada kind:rifle
/roster add name:Cy kind:"submachine gun"
/roster add name:Dee kind:pistol
/roster add name:Eli kind:rifle
/roster add name:Fay kind:rifle
/as Bob
/campaign join side:blue
/as Gina
/decide choice:approve
/as Bob
/roster add name:"Big Jim" kind:smg
/roster add name:Bo kind:pistol
/roster add name:Bert kind:rifle
/roster add name:Bill kind:rifle
/roster add name:Ben kind:rifle
/roster add name:Bud kind:rifle
/as Gina
/game start
"""
# roll-off: red 2, blue 2 (tie, rolled again), red 5, blue 3 → red first.
SETUP_DICE = "2,2,5,3"

FIRST_HALF = """\
/as Rita
/ssg move figure:Cy distance:4 contact:"Big Jim"
/ssg move figure:Rossi distance:2.5
/ssg shoot shooter:Rossi target:Bo range:10 los:clear
/ssg next
/ssg melee fighter:Cy opponent:"Big Jim"
/ssg shoot shooter:Rossi target:Bo range:10 los:clear
/ssg shoot shooter:Ada target:Bert range:20 los:partial
/ssg next
"""
# melee: Cy 3, Big Jim 3 (tie), Cy 6, Big Jim 2 → Big Jim removed; Rossi 5 at short clear: hit;
# Ada 6 − 2 = 4: miss.
FIRST_HALF_DICE = "3,3,6,2,5,6"

SECOND_HALF = """\
/as Bob
/ssg next
/ssg next
/as Rita
/ssg next
/ssg shoot shooter:Cy target:Bert range:5 los:clear dice:2 target2:Bill range2:6 los2:clear
/ssg shoot shooter:Fay target:Ben range:30 los:clear
/game status
"""
# Blue passes its turn. Red's SMG: 6 at Bert (out), 1 at Bert (miss), 5 at Bill (out): blue has lost
# four, red wins at once (A-SSG-5), and Fay's shot after it is refused.
SECOND_HALF_DICE = "6,1,5"


def play(db: Path, script: str, *args: str, strict: bool = True) -> list[dict]:
    """Run ``skirmish-gm play --json`` in a new process; forced dice are strict unless told otherwise."""
    args = ("--strict-dice", *args) if strict else args
    env = {**os.environ, "SKIRMISH_GM_DATA": str(db.parent / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def events(records: list[dict], kind: str) -> list[dict]:
    return [e for r in records for e in r["events"] if e["kind"] == kind]


def check_dice(records: list[dict], script: str) -> None:
    """Each command rolled exactly the dice the ``/dice`` line just before it forced, and a command
    without one rolled nothing."""
    lines = [line for line in script.splitlines() if line.strip()]
    assert [r["command"] for r in records] == lines
    pending: list[str] = []
    for line, record in zip(lines, records, strict=True):
        if line.startswith("/dice "):
            pending = line.split(" ", 1)[1].split(",")
            continue
        assert [d["value"] for d in record["dice"]] == pending, line
        pending = []


def test_a_whole_game_to_a_winner_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    setup = play(db, SETUP, "--dice", SETUP_DICE)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    roll_off = list(setup[-1]["dice"])
    assert [d["value"] for d in roll_off] == ["2", "2", "5", "3"]
    assert all("Roll-off" in d["reason"] or "roll-off" in d["reason"].lower() for d in roll_off)

    first = play(db, FIRST_HALF, "--dice", FIRST_HALF_DICE)
    refused = [r for r in first if not r["ok"]]
    assert [r["command"] for r in refused] == ["/ssg shoot shooter:Rossi target:Bo range:10 los:clear"]
    assert "shooting phase" in refused[0]["error"]
    assert [e["data"]["figure"] for e in events(first, "casualty")] == ["Big Jim", "Bo"]
    melee_dice = [d for r in first for d in r["dice"] if "melee" in d["reason"].lower()]
    assert [d["value"] for d in melee_dice] == ["3", "3", "6", "2"]

    # A new process on the same file: the game goes on where it was.
    second = play(db, SECOND_HALF, "--dice", SECOND_HALF_DICE)
    refused = [r for r in second if not r["ok"]]
    assert [r["command"] for r in refused] == ["/ssg shoot shooter:Fay target:Ben range:30 los:clear"]
    assert "over" in refused[0]["error"]
    casualties = [e["data"]["figure"] for e in events(second, "casualty")]
    assert casualties == ["Bert", "Bill"]
    [victory] = events(second, "victory")
    assert victory["data"]["winner"] == "red"
    assert "Game over" in second[-1]["text"]
    after = play(db, "/as Rita\n/ssg next\n")
    assert after[-1]["ok"] is False and "over" in after[-1]["error"]


def test_forced_dice_running_out_is_said_plainly_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    records = play(db, SETUP)
    assert records[-1]["ok"] is False
    assert records[-1]["error"].startswith("The forced dice ran out")
    again = play(db, "/as Gina\n/game start\n", "--dice", SETUP_DICE)
    assert again[-1]["ok"] is True


def test_bad_lines_are_refused_with_a_sentence(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    script = (
        "\n".join(
            [
                "hello",
                "/nonsense",
                "/roll",
                "/roll dice:2d6 colour:red",
                '/roll dice:"2d6',
                "/game log count:many",
                "/game log count:99",
                "/campaign new name:x ruleset:chess",
                "/roll dice:10000d6",
            ]
        )
        + "\n"
    )
    records = play(db, script)
    assert [r["ok"] for r in records] == [False] * 9
    errors = [r["error"] for r in records]
    assert errors[0] == "Commands start with /: type /help for the list."
    assert "no command /nonsense" in errors[1]
    assert errors[2].startswith("Give dice: (Dice notation")
    assert "no option “colour”: it takes dice, reason and secret" in errors[3]
    assert "unclosed quote" in errors[4]
    assert "whole number" in errors[5]
    assert "from 1 to 25" in errors[6]
    assert "ruleset: is Simple Skirmish Game, " in errors[7]
    assert "too many dice" in errors[8]


def test_seeded_dice_repeat(tmp_path: Path) -> None:
    first = play(tmp_path / "a.sqlite3", "/roll dice:10d10\n", "--seed", "42", strict=False)
    second = play(tmp_path / "b.sqlite3", "/roll dice:10d10\n", "--seed", "42", strict=False)
    assert first[0]["dice"] == second[0]["dice"] and len(first[0]["dice"]) == 10


def test_run_without_a_token_says_so_and_opens_the_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["SKIRMISH_GM_DATA"] = str(tmp_path / "data")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        input="/roll dice:1d6\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0
    assert "No DISCORD_TOKEN is set" in done.stderr and "skirmish-gm play" in done.stderr
    assert "rolls 1d6" in done.stdout
    assert (tmp_path / "data" / "skirmish-gm.sqlite3").exists()


async def test_the_discord_bot_always_rolls_secure_dice(tmp_path: Path) -> None:
    from dataclasses import replace

    from bot.__main__ import discord_bot
    from bot.config import Settings
    from bot.dice import SecureDice

    settings = replace(Settings.from_env(), data_dir=tmp_path, database_url=None)
    bot, app = await discord_bot(settings, tmp_path / "bot.sqlite3")
    try:
        assert type(app.ctx.dice()) is SecureDice
        options = {p.display_name for c in bot.tree.walk_commands() if hasattr(c, "parameters") for p in c.parameters}
        assert not options & {"seed", "cards", "forced", "result", "results"}
    finally:
        await app.store.db.close()


def test_the_docker_image_without_a_token_says_it_needs_one_and_stops(tmp_path: Path) -> None:
    """`docker run -d` has no terminal: the image's command must not fall back to one."""
    dockerfile = (Path(__file__).resolve().parents[2] / "Dockerfile").read_text(encoding="utf-8")
    assert "skirmish-gm run --no-terminal" in dockerfile
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["SKIRMISH_GM_DATA"] = str(tmp_path / "data")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run", "--no-terminal"],
        input="/roll dice:1d6\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("No DISCORD_TOKEN is set, and this runs the Discord bot only")
    assert "docker run -e DISCORD_TOKEN=" in done.stderr and done.stdout == ""
    assert "Traceback" not in done.stderr
