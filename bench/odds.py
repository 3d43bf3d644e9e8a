"""/odds against the rest of the table: another command's latency while odds are worked out, and
how long exact answers take.

    python -m bench.odds            # 400 /roll at 50 a second, three ways; then the exact answers' times

A /roll's p50/p95/p99 with nothing else running, while a player keeps asking /odds (each answer
worked out in the worker process), and — for comparison — while the same work runs in a thread of
the bot's process, as it did before. Then the time of each exact answer (median of 5, in this
process). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.app.odds import POOL
from bot.app.odds_work import OddsJob
from bot.app.service import App
from bot.dice import ForcedDice, SeededDice
from bot.store import Store
from bot.store.database import Database, sqlite_url
from rules.core import Action
from tests.support import RED, caller, ssg_table

SMG = {"shooter": "Cy", "target": "Bo", "range": 5, "los": "clear"}


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return at(0.5), at(0.95), at(0.99)


async def rolls(app: App, count: int, rate: float) -> list[float]:
    """``count`` /roll commands at ``rate`` a second; each one's ms from call to reply."""
    took: list[float] = []
    for i in range(count):
        start = time.perf_counter()
        await app.rolls.roll(caller(RED, "Rita", interaction_id=10_000_000 + i + int(start * 1000) % 1_000_000), "2d6")
        took.append(1000 * (time.perf_counter() - start))
        await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - start)))
    return took


async def keep_asking(ask: Callable[[], Awaitable[Any]], stop: asyncio.Event) -> int:
    asked = 0
    while not stop.is_set():
        await ask()
        asked += 1
    return asked


async def measure(
    app: App, ask: Callable[[], Awaitable[Any]] | None, count: int, rate: float
) -> tuple[list[float], int]:
    stop = asyncio.Event()
    asking = asyncio.create_task(keep_asking(ask, stop)) if ask else None
    took = await rolls(app, count, rate)
    stop.set()
    return took, (await asking) if asking else 0


def exact_times() -> list[tuple[str, str, int, float]]:
    """Each single shot or blow the issue names, answered in this process: (case, method, runs, ms)."""
    from rules import get_engine
    from rules.core import FigureSpec
    from rules.nsr.engine import make_engine as nsr_engine
    from rules.odds import Budget, odds
    from rules.yasg.engine import make_engine as yasg_engine
    from tests.rules.test_nsr_helpers import stage, unit
    from tests.rules.test_odds import BLUE, Forced
    from tests.rules.test_odds import RED as REDS
    from tests.rules.test_sharpe_helpers import begin, fig, new_engine
    from tests.rules.test_yasg_support import BRITISH, FRENCH, F, scene

    cases: list[tuple[str, Any, Any, Action]] = []
    ssg = get_engine("ssg")
    specs = [FigureSpec(n, "red", "smg" if n == "Cy" else "rifle") for n in REDS]
    specs += [FigureSpec(n, "blue", "rifle") for n in BLUE]
    s = ssg.start(specs, Forced([6, 1])).state
    s = ssg.act(s, Action("move", "red", {"figure": "Rossi", "distance": 2.0, "contact": "Bo"}), Forced([])).state
    s = ssg.act(s, Action("next", "red"), Forced([])).state
    cases.append(("SSG duel, ties rolled again", ssg, s, Action("melee", "red", {})))
    sharpe = new_engine()
    for weather in ("clear", "fog", "rain"):
        st = begin(sharpe, [fig("Shooter", "british", "line_infantry"), fig("Target", "french", "voltigeur")])
        st.weather = weather
        cases.append(
            (f"Sharpe shot, {weather}", sharpe, st, Action("shoot", "british", {"target": "Target", "range": 20}))
        )
    nsr = nsr_engine()
    units = [
        unit("F", "French", "line", figures=21),
        unit("W", "French", "line"),  # still to fire: the phase goes on
        unit("T", "Allied", "line", figures=16),
    ]
    ns = stage(nsr, units, "fire", "F")
    for order in ("fire", "volley"):
        for klass in ("I", "III"):
            cases.append(
                (
                    f"NSR {order} of 20, class {klass}",
                    nsr,
                    ns,
                    Action(order, "French", {"target": "T", "range": 5, "class": klass}),
                )
            )
    yasg = yasg_engine()
    ys = scene(yasg, F("me", BRITISH, "A", "E4"), F("it", FRENCH, "A", "E2", "w"), size=(10, 12), phase="fire")
    cases.append(("YASG shot", yasg, ys, Action("fire", BRITISH, {"figure": "me", "target": "it"})))
    found = []
    for name, engine, state, action in cases:
        times, result = [], None
        for _ in range(5):
            start = time.perf_counter()
            result = odds(engine, state, action, SeededDice(0), budget=Budget(time.monotonic))
            times.append(1000 * (time.perf_counter() - start))
        assert result is not None
        found.append((name, result.method, result.runs, statistics.median(times)))
    return found


async def main(count: int, rate: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = await Database.open(sqlite_url(Path(folder) / "bench.sqlite3"))
        forced = ForcedDice(fallback=SeededDice(1))
        app = App(Store(database), lambda: forced)
        await ssg_table(app, forced)
        await app.actions.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
        job = await app.odds_part._job(caller(RED, "Rita"), "ssg", "shoot", SMG)
        slow = OddsJob(job.ruleset, job.house_rules, job.state, job.action, seconds=1.0)
        await POOL.run(int)  # the worker started before measuring

        async def in_worker() -> Any:
            return await POOL.run(heavy_job, slow)

        async def in_thread() -> Any:
            return await asyncio.to_thread(heavy_job, slow)

        print(f"/roll, {count} at {rate:.0f}/s: p50 / p95 / p99 ms")
        quiet, _ = await measure(app, None, count, rate)
        worker, asked_w = await measure(app, in_worker, count, rate)
        thread, asked_t = await measure(app, in_thread, count, rate)
        base = percentiles(quiet)[2]
        for name, took, asked in (
            ("alone", quiet, 0),
            ("odds in the worker", worker, asked_w),
            ("odds in a thread", thread, asked_t),
        ):
            p50, p95, p99 = percentiles(took)
            extra = f"  ({asked} odds answered meanwhile)" if asked else ""
            print(f"  {name:<20} {p50:6.2f} / {p95:6.2f} / {p99:6.2f}   p99 {p99 / base:5.2f}x alone{extra}")
        POOL.close()
        await database.close()
    print("\nexact answers (median of 5, this process):")
    for name, method, runs, ms in exact_times():
        print(f"  {name:<28} {method:<10} {runs:>7,} {UNITS[method]:<9} {ms:8.1f} ms")


#: What an answer's count counts: dice sequences walked, states of the deck counted, random runs.
UNITS = {"exact": "sequences", "counted": "states", "simulation": "runs"}


def heavy_job(job: OddsJob) -> Any:
    """The job's action simulated for its whole budget (about a second of CPU): the heaviest
    answer /odds gives, as for an action whose tree is too large to enumerate."""
    from rules import get_engine
    from rules.odds import Budget, odds

    engine = get_engine(job.ruleset, job.house_rules)
    state = engine.load_state(job.state)
    return odds(
        engine,
        state,
        job.action,
        SeededDice(0),
        exact_limit=1,
        simulations=10**9,
        budget=Budget(time.monotonic, job.seconds),
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--rate", type=float, default=50.0)
    args = parser.parse_args()
    asyncio.run(main(args.count, args.rate))
