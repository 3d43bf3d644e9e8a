"""Self-play benchmark: many battles per ruleset, random sides, every invariant after every line.

    python -m bench.selfplay --battles 500 --jobs 2            # 500 battles of each ruleset
    python -m bench.selfplay --ruleset ssg --battles 50 --seed 1000

Prints, per ruleset and in all: failures (the target is 0; each with the file that replays it),
battles that reached the action bound (counted apart), battles per second, actions (lines) per
battle, the slowest action, and how long it took. docs/selfplay.md says what is checked;
docs/benchmark.md keeps the figures measured.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bot.selfplay.battle import RULESETS, Outcome
from bot.selfplay.cli import add_arguments
from bot.selfplay.runner import default_workers, jobs, run
from bot.selfplay.summary import figures, figures_text, save_failure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.selfplay", description=__doc__)
    add_arguments(parser)
    parser.set_defaults(battles=100)
    args = parser.parse_args(argv)
    rulesets = list(RULESETS) if args.ruleset == "all" else [args.ruleset]
    out = args.out or Path(tempfile.mkdtemp(prefix="skirmish-selfplay-bench-"))
    workers = args.jobs or default_workers()
    print(f"self-play benchmark: {args.battles} battles of {', '.join(rulesets)}, {workers} workers, in {out}")
    total: list[Outcome] = []
    started = time.perf_counter()
    for slug in rulesets:
        begun = time.perf_counter()
        todo = jobs([slug], args.battles, args.seed, args.where, frozenset(args.allow))
        outcomes = run(todo, workers=workers, hang=args.hang, workdir=out)
        for outcome in outcomes:
            if outcome.failure:
                print(f"  FAILED {slug} seed {outcome.seed}: {outcome.failure}")
                print(f"    replay: {save_failure(outcome, out / 'failures')}")
        print(figures_text(slug, figures(outcomes, time.perf_counter() - begun)), flush=True)
        total += outcomes
    print(figures_text("all", figures(total, time.perf_counter() - started)))
    return 1 if any(o.failure for o in total) else 0


if __name__ == "__main__":
    sys.exit(main())
