"""How many modules of bot/ and cogs/ one command runs through, at the terminal.

A terminal game on a temporary SQLite file is set up to the point of a shot (issue 27: "/sharpe
shoot at the terminal calls functions in 37 modules of bot/ and 1 of cogs/"); then the one line is
run under :func:`sys.setprofile`, and the ``co_filename`` of every Python function it calls is
collected (a 'call' event: C functions are not counted; only this thread's calls: the command
runs on the terminal's one thread, and no worker process draws a picture at a table). Printed: the
count, then each module.

    PYTHONPATH=$PWD python bench/modules_per_command.py [--ruleset sharpe] [--line '/ssg shoot ...'] [--functions]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

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
/roster add name:Bo kind:pistol
/roster add name:Bert kind:rifle
/roster add name:"Big Jim" kind:smg
/roster add name:Bill kind:rifle
/roster add name:Ben kind:rifle
/roster add name:Bud kind:rifle
/as Gina
/dice 2,2,5,3
/game start
/as Rita
/ssg move figure:Rossi distance:2.5
/ssg next
/dice 5
"""
SHOT = "/ssg shoot shooter:Rossi target:Bo range:10 los:clear"

SHARPE_SETUP = """\
/as Gina
/campaign new name:"The Chosen Men" ruleset:sharpe battlefield:table
/as Rita
/campaign join side:british
/as Gina
/decide choice:approve
/as Bob
/campaign join side:french
/as Gina
/decide choice:approve
/as Rita
/roster add name:Sharpe kind:rifle_officer stats:"I=6 D=5 S=5 C=6 F=10"
/roster add name:Harper kind:rifle_sergeant stats:"I=5 D=4 S=6 C=5 F=10"
/roster add name:Harris kind:rifleman stats:"I=4 D=4 S=3 C=3 F=9"
/roster add name:Hagman kind:rifleman stats:"I=3 D=3 S=3 C=3 F=11"
/roster add name:Perkins kind:rifleman stats:"I=2 D=4 S=3 C=3 F=8"
/roster add name:Cooper kind:rifleman stats:"I=1 D=3 S=4 C=3 F=8"
/as Bob
/roster add name:Leroux kind:officer stats:"I=5 D=4 S=4 C=5 F=7"
/roster add name:Dubois kind:voltigeur stats:"I=4 D=3 S=3 C=3"
/roster add name:Martin kind:voltigeur stats:"I=3 D=3 S=3 C=3"
/roster add name:Bernard kind:chasseur stats:"I=3 D=3 S=3 C=3"
/roster add name:Girard kind:chasseur stats:"I=2 D=3 S=3 C=3"
/roster add name:Lefevre kind:sergeant stats:"I=2 D=3 S=3 C=4"
/as Gina
/dice 6,5,4,3,2,1,6,5,4,2,1,6,5,2
/game start
/as Rita
/dice 3,4,5,4,4
"""
SHARPE_SHOT = "/sharpe shoot target:Dubois range:20"
#: The setups, by ruleset: a game at a table up to the point of a shot, and the shot.
SETUPS = {"ssg": (SETUP, SHOT), "sharpe": (SHARPE_SETUP, SHARPE_SHOT)}


def module_of(filename: str) -> str | None:
    """``bot/app/actions.py`` for a file of this project's bot/ or cogs/, else None."""
    try:
        relative = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return relative.as_posix() if relative.parts[0] in ("bot", "cogs") else None


async def measure(line: str, setup: str) -> tuple[dict[str, set[str]], str]:
    from bot.__main__ import open_app
    from bot.config import Settings
    from bot.console import Console
    from bot.dice import ForcedDice

    with tempfile.TemporaryDirectory() as folder:
        forced = ForcedDice()
        settings = Settings.from_env()
        app = await open_app(settings, Path(folder) / "bench.sqlite3", lambda: forced)
        try:
            out = io.StringIO()
            console = Console(app, forced, player="Gina", out=out)
            await console.learn_names()
            for typed in setup.splitlines():
                await console.run_line(typed)
            if console.failures:
                raise SystemExit(f"the setup was refused:\n{out.getvalue()}")
            out.seek(0)
            out.truncate()
            seen: dict[str, set[str]] = {}

            def profile(frame: FrameType, event: str, arg: Any) -> None:
                if event == "call":
                    found = module_of(frame.f_code.co_filename)
                    if found is not None:
                        seen.setdefault(found, set()).add(frame.f_code.co_qualname)

            sys.setprofile(profile)
            try:
                await console.run_line(line)
            finally:
                sys.setprofile(None)
            return seen, out.getvalue()
        finally:
            await app.store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", choices=sorted(SETUPS), default="ssg", help="whose game is set up (default ssg)")
    parser.add_argument("--line", help="the command to measure (default: the ruleset's shot)")
    parser.add_argument("--functions", action="store_true", help="also name the functions each module ran")
    args = parser.parse_args()
    setup, shot = SETUPS[args.ruleset]
    line = args.line or shot
    seen, printed = asyncio.run(measure(line, setup))
    print(printed.rstrip())
    print(f"\n{len(seen)} modules of bot/ and cogs/ ran for {line}:")
    for name in sorted(seen):
        print(f"  {name}" + (f": {', '.join(sorted(seen[name]))}" if args.functions else ""))
    return 0 if printed and not printed.startswith("!!") else 1


if __name__ == "__main__":
    raise SystemExit(main())
