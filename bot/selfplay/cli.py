"""``skirmish-gm selfplay``: play battles of random sides against each other and check them."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bot.selfplay.battle import RULESETS, Outcome
from bot.selfplay.invariants import KEYS
from bot.selfplay.runner import HANG, default_workers, jobs, run
from bot.selfplay.summary import figures, figures_text, outcome_line, save_failure


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", choices=[*RULESETS, "all"], default="all", help="the ruleset (default: all five)")
    parser.add_argument("--battles", type=int, default=5, help="battles per ruleset (default 5)")
    parser.add_argument("--map", dest="where", help="a shipped map's slug, or `table` (default: each battle chooses)")
    parser.add_argument("--seed", type=int, default=1, help="the first battle's seed (the next ones count up)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    parser.add_argument("--out", type=Path, help="folder for the battles' databases and failures' replays")
    parser.add_argument(
        "--allow",
        action="append",
        choices=KEYS,
        default=[],
        help="count this invariant's problems apart instead of failing (a known bug handed over); repeatable",
    )
    parser.add_argument("--hang", type=float, default=HANG, help="seconds a line may take before it is a hang")


def selfplay(args: argparse.Namespace) -> int:
    rulesets = list(RULESETS) if args.ruleset == "all" else [args.ruleset]
    out = args.out or Path(tempfile.mkdtemp(prefix="skirmish-selfplay-"))
    todo = jobs(rulesets, args.battles, args.seed, args.where, frozenset(args.allow))
    started = time.perf_counter()
    failed: list[Outcome] = []

    def told(outcome: Outcome) -> None:
        print(outcome_line(outcome), flush=True)
        for note in outcome.allowed:
            print(f"  allowed {note}")
        if outcome.failure:
            path = save_failure(outcome, out / "failures")
            print(f"  replay: skirmish-gm play --db new.sqlite3 --battle-seed {outcome.seed} --json < {path}")
            failed.append(outcome)

    outcomes = run(todo, workers=args.jobs or default_workers(), hang=args.hang, workdir=out, report=told)
    print(figures_text("self-play", figures(outcomes, time.perf_counter() - started)))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="skirmish-gm selfplay", description=__doc__)
    add_arguments(parser)
    return selfplay(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
