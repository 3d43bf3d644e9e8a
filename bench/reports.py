"""How long the battle report takes to write for a long battle: ``report_markdown`` over 10,000
actions of three dice each, a turn heading every 50 (the battle of
``tests/bot/test_report_render.py::test_ten_thousand_actions_are_all_written``).

    python -m bench.reports [--actions N] [--rounds R]

Printed: the best and the median of ``R`` rounds, in seconds, and per action in microseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.dice import RolledDie
from bot.render.report import report_markdown
from rules.core import Event, PhasePayload
from tests.bot.test_report_render import action, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rolls = tuple(RolledDie("die", 6, str(k), f"shot {k}") for k in range(1, 4))
    actions = [
        action(
            n,
            Event("shot", f"Shot {n}."),
            *([PhasePayload(n // 50).event(f"Turn {n // 50}.")] if n % 50 == 0 else []),
            rolls=rolls,
        )
        for n in range(1, args.actions + 1)
    ]
    battle = report(actions)
    spent = []
    for _ in range(args.rounds):
        began = time.perf_counter()
        report_markdown(battle)
        spent.append(time.perf_counter() - began)
    best, median = min(spent), statistics.median(spent)
    print(
        f"report of {args.actions:,} actions: best {best:.3f} s, median {median:.3f} s "
        f"({median / args.actions * 1e6:.1f} µs an action, {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
