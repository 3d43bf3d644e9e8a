"""How many modules of bot/ and cogs/ one command runs through, at the terminal.

A terminal game on a temporary SQLite file is set up to the point of a shot (issue 27: "/sharpe
shoot at the terminal calls functions in 37 modules of bot/ and 1 of cogs/"); then the one line is
run under :func:`sys.setprofile`, and the ``co_filename`` of every Python function it calls is
collected (a 'call' event: C functions are not counted; only this thread's calls: the command
runs on the terminal's one thread, and no worker process draws a picture at a table). Printed: the
count, then each module.

    PYTHONPATH=$PWD python bench/modules_per_command.py [--line '/ssg shoot ...']
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
    from bot.console import Console, make_console_bot
    from bot.dice import ForcedDice

    with tempfile.TemporaryDirectory() as folder:
        forced = ForcedDice()
        settings = Settings.from_env()
        app = await open_app(settings, Path(folder) / "bench.sqlite3", lambda: forced)
        try:
            out = io.StringIO()
            console = Console(await make_console_bot(app), forced, player="Gina", out=out)
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
    parser.add_argument("--line", default=SHOT, help="the command to measure (after the SSG setup)")
    parser.add_argument("--functions", action="store_true", help="also name the functions each module ran")
    args = parser.parse_args()
    seen, printed = asyncio.run(measure(args.line, SETUP))
    print(printed.rstrip())
    print(f"\n{len(seen)} modules of bot/ and cogs/ ran for {args.line}:")
    for name in sorted(seen):
        print(f"  {name}" + (f": {', '.join(sorted(seen[name]))}" if args.functions else ""))
    return 0 if printed and not printed.startswith("!!") else 1


if __name__ == "__main__":
    raise SystemExit(main())
