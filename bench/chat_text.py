"""What a chat channel gets over a short scripted game of each ruleset: lines, characters and
pictures posted, counted reply by reply from the terminal (``skirmish-gm play --json --files``).

    python -m bench.chat_text [--ruleset R] [--show]

Each game is the one a terminal test plays (forced dice and cards given just before the command
that uses them), in one process on a new SQLite file. An *action* is a command that plays the game
(a ruleset's command, ``/map place|deploy``, ``/decide``); ``/game start|status``, ``/map new|show``
and the rest are looks and set-up, which may show the whole battlefield. Printed per ruleset: the
replies, their lines and characters, the pictures, the action replies that carry a picture, the
longest action reply, and how many action replies list the terrain (the answer should be 0).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tests.bot import (
    test_medieval_map_terminal,
    test_nsr_map_terminal,
    test_sharpe_map_terminal,
    test_ssg_map_terminal,
    test_yasg_terminal,
)

#: The short game of each ruleset, as its terminal test plays it.
GAMES = {
    "ssg": test_ssg_map_terminal.SETUP + test_ssg_map_terminal.FIRST_HALF + test_ssg_map_terminal.SECOND_HALF,
    "sharpe": test_sharpe_map_terminal.SETUP + test_sharpe_map_terminal.FIRST_HALF,
    "nsr": test_nsr_map_terminal.SETUP + test_nsr_map_terminal.TURN_ONE + test_nsr_map_terminal.TURN_TWO,
    "medieval": test_medieval_map_terminal.SETUP
    + test_medieval_map_terminal.FIRST_HALF
    + test_medieval_map_terminal.SECOND_HALF,
    "yasg": test_yasg_terminal.SETUP + test_yasg_terminal.TURNS_1_TO_3,
}
#: The line that opens the terrain list in the battlefield's text (bot/render/field_text.py).
TERRAIN_HEADING = "Terrain (x,y in inches"
LOOKS = ("/game ", "/map new", "/map show", "/campaign ", "/roster ", "/help", "/odds", "/rules")


@dataclass
class Posted:
    """One reply as a channel gets it: its text (cards and the line under them) and its pictures."""

    command: str
    text: str
    pictures: int
    events: list[dict] = field(default_factory=list)

    @property
    def lines(self) -> int:
        return len(self.text.splitlines())

    @property
    def is_action(self) -> bool:
        command = self.command.strip()
        return not command.startswith(LOOKS)


def play(ruleset: str, workdir: Path) -> list[Posted]:
    """The ruleset's short game in a new terminal process: each reply that was posted, in order."""
    db = workdir / f"{ruleset}.sqlite3"
    files = workdir / f"{ruleset}-files"
    files.mkdir(exist_ok=True)
    env = {**os.environ, "SKIRMISH_GM_DATA": str(workdir / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", "--files", str(files)],
        input=GAMES[ruleset],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    posted = []
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if not record["ok"] or "text" not in record:
            continue  # a refusal is private; a note with no card posts nothing to the channel
        text = "\n".join(part for part in (record["text"], record.get("say", "")) if part)
        pictures = sum(1 for path in record.get("files", []) if path.endswith(".png"))
        posted.append(Posted(record["command"], text, pictures, record["events"]))
    return posted


def figures(posted: list[Posted]) -> dict[str, int]:
    actions = [p for p in posted if p.is_action]
    return {
        "replies": len(posted),
        "lines": sum(p.lines for p in posted),
        "characters": sum(len(p.text) for p in posted),
        "pictures": sum(p.pictures for p in posted),
        "action replies": len(actions),
        "action lines": sum(p.lines for p in actions),
        "action pictures": sum(p.pictures for p in actions),
        "longest action reply": max((p.lines for p in actions), default=0),
        "actions listing the terrain": sum(1 for p in actions if TERRAIN_HEADING in p.text),
    }


def main(argv: list[str] | None = None) -> dict[str, dict[str, int]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=sorted(GAMES), action="append")
    parser.add_argument("--show", action="store_true", help="print each action reply's size and pictures")
    args = parser.parse_args(argv)
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset in args.ruleset or list(GAMES):
            posted = play(ruleset, Path(tmp))
            found[ruleset] = figures(posted)
            if args.show:
                for p in posted:
                    if p.is_action:
                        print(f"  {p.lines:4d} lines {p.pictures} picture(s)  {p.command}")
            print(ruleset, " · ".join(f"{k}: {v}" for k, v in found[ruleset].items()), flush=True)
    return found


if __name__ == "__main__":
    main()
