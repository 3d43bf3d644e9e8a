"""Run a bot process with a record of its own pauses, for ``python -m bench.latency --trace``.

    BENCH_TRACE=/tmp/bot.trace python -m bench.traced bot run --db …
    BENCH_TRACE=/tmp/floor.trace python -m bench.traced bench.bare_bot

It runs the named module as ``python -m`` would, after setting up four witnesses, each writing
a line ``kind start_s duration_ms detail`` (monotonic clock, the same as the fake Discord's) for
every pause of at least :data:`THRESHOLD_MS` of its kind:

* ``lag``: the event loop woke later than asked (a sampler sleeps 1 ms at a time): whatever held
  the loop's thread, Python code or the operating system;
* ``step``: one callback of the event loop (a task's step) that held it, with the CPU time the
  loop's thread spent in it (what a busy machine does not inflate) and the coroutines the task
  waits in afterwards;
* ``gc``: a garbage collection, with its generation and how many unreachable objects it found;
* ``checkpoint``: the SQLite write-ahead log copied back into the database (bot only).

It changes nothing the bot does; the sampler costs some CPU, so CPU figures of a traced run are
not the ones to quote.

With ``BENCH_PROFILE=/tmp/steps.prof`` too, every step runs under cProfile and the profiles of
the steps of at least :data:`PROFILE_MS` are summed into that file (``python -m pstats`` reads
it): where the slow steps spend their time. Profiling roughly doubles the CPU of Python code.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import os
import pstats
import runpy
import sys
import time
from typing import Any, TextIO

#: A command itself keeps the loop busy for a few milliseconds: a lag shorter than that is work.
THRESHOLD_MS = {"lag": 5.0, "step": 5.0, "gc": 1.0, "checkpoint": 1.0}
SAMPLE_S = 0.001
#: The steps whose profiles are kept (``BENCH_PROFILE``).
PROFILE_MS = 20.0


class Trace:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._gc_started = 0.0

    def write(self, kind: str, start: float, duration_s: float, detail: str = "") -> None:
        if duration_s * 1000 >= THRESHOLD_MS[kind]:
            self.out.write(f"{kind} {start:.6f} {duration_s * 1000:.3f} {detail}\n")
            self.out.flush()

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if phase == "start":
            self._gc_started = now
        else:
            self.write(
                "gc",
                self._gc_started,
                now - self._gc_started,
                f"gen{info.get('generation')} collected {info.get('collected')}",
            )

    async def sample_lag(self) -> None:
        while True:
            asked, cpu = time.monotonic(), time.thread_time()
            await asyncio.sleep(SAMPLE_S)
            late = time.monotonic() - asked - SAMPLE_S
            self.write("lag", asked + SAMPLE_S, late, f"cpu {1000 * (time.thread_time() - cpu):.1f} ms")


class TracingPolicy(asyncio.DefaultEventLoopPolicy):
    def __init__(self, trace: Trace) -> None:
        super().__init__()
        self.trace = trace

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        loop.call_soon(lambda: loop.create_task(self.trace.sample_lag()))
        return loop


def _where(handle: asyncio.events.Handle) -> str:
    """The task a slow step belonged to, as the chain of coroutines it waits in now."""
    task = getattr(handle._callback, "__self__", None)
    coro = task.get_coro() if isinstance(task, asyncio.Task) else None
    if coro is None:
        return repr(handle)[:200]
    chain = []
    while coro is not None and len(chain) < 12:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        chain.append(code.co_qualname if code else type(coro).__name__)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return ">".join(chain)


def _watch_steps(trace: Trace, profiles: str | None) -> None:
    run = asyncio.events.Handle._run
    kept: list[pstats.Stats] = []

    def profiled(handle: asyncio.events.Handle) -> None:
        profile = cProfile.Profile()
        cpu = time.thread_time()
        profile.enable()
        try:
            run(handle)
        finally:
            profile.disable()
        if profiles and (time.thread_time() - cpu) * 1000 >= PROFILE_MS:
            if kept:
                kept[0].add(profile)
            else:
                kept.append(pstats.Stats(profile))
            kept[0].dump_stats(profiles)

    def timed(handle: asyncio.events.Handle) -> None:
        start, cpu = time.monotonic(), time.thread_time()
        if profiles:
            profiled(handle)
        else:
            run(handle)
        took = time.monotonic() - start
        if took * 1000 >= THRESHOLD_MS["step"]:
            trace.write("step", start, took, f"cpu {1000 * (time.thread_time() - cpu):.1f} ms {_where(handle)}")

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]


def _watch_checkpoints(trace: Trace) -> None:
    from bot.store import database

    checkpoint = database._checkpoint

    def timed(path: str) -> None:
        start = time.monotonic()
        try:
            checkpoint(path)
        finally:
            trace.write("checkpoint", start, time.monotonic() - start)

    database._checkpoint = timed


def main() -> None:
    module, sys.argv = sys.argv[1], sys.argv[1:]
    trace = Trace(open(os.environ["BENCH_TRACE"], "w"))  # noqa: SIM115  (open for the life of the process)
    gc.callbacks.append(trace.on_gc)
    asyncio.set_event_loop_policy(TracingPolicy(trace))
    _watch_steps(trace, os.environ.get("BENCH_PROFILE"))
    if module == "bot":
        _watch_checkpoints(trace)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
