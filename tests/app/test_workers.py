"""The worker pool bounds every job and is fair between groups: a job past its budget is stopped
and its process replaced, one group's queue never delays another's, and a group that queues too
much is refused with a sentence. The jobs here wait on files the test writes, or hang for good: no
assertion reads a clock."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from bot.app.odds import TOO_LONG, OddsCommands
from bot.app.replies import Refusal
from bot.app.workers import OVERLOADED, OutOfTime, Overloaded, WorkerPool, serve
from tests.support import RED, caller, ssg_table

#: Generous: a new worker process starts and imports on a loaded two-core machine.
DEADLINE_S = 120


def hang() -> None:
    """A job that never ends (in the worker)."""
    while True:
        time.sleep(60)


def wait_for(gate: str) -> str:
    """A job that runs until the test opens ``gate`` (a file)."""
    while not os.path.exists(gate):
        time.sleep(0.01)
    return gate


def note(path: str, word: str) -> str:
    """A job that writes down that it ran, in order."""
    with open(path, "a") as f:
        f.write(word + "\n")
    return word


@pytest.fixture
async def pools():
    made: list[WorkerPool] = []

    def make(workers: int = 1, **options) -> WorkerPool:
        pool = WorkerPool("test", workers, **options)
        made.append(pool)
        return pool

    yield make
    for pool in made:
        pool.close()


async def test_a_stuck_job_is_stopped_its_worker_replaced_and_another_groups_job_answers(pools) -> None:
    pool = pools(1, seconds=0.5, grace=0.5)
    stuck = asyncio.create_task(pool.run(hang, group="channel A"))
    after = asyncio.create_task(pool.run(os.getpid, group="channel B"))
    async with asyncio.timeout(DEADLINE_S):
        while not pool.pids:
            await asyncio.sleep(0.01)
        [first] = pool.pids
        with pytest.raises(OutOfTime) as late:
            await stuck
        assert "stopped" in late.value.message and "\n" not in late.value.message
        answered = await after
    assert answered != first and answered != os.getpid()  # a new process answered
    async with asyncio.timeout(DEADLINE_S):  # the stuck one is gone
        while _alive(first):
            await asyncio.sleep(0.05)


async def test_another_groups_job_is_not_queued_behind_a_groups_many(pools, tmp_path: Path) -> None:
    pool = pools(2, seconds=DEADLINE_S)
    gate = str(tmp_path / "gate")
    busy = [asyncio.create_task(pool.run(wait_for, gate, group="channel A")) for _ in range(3)]
    async with asyncio.timeout(DEADLINE_S):
        assert await pool.run(os.getpid, group="channel B") != os.getpid()  # while channel A's all wait
    assert not any(task.done() for task in busy)
    Path(gate).touch()
    async with asyncio.timeout(DEADLINE_S):
        assert await asyncio.gather(*busy) == [gate] * 3


async def test_with_one_worker_the_groups_take_turns(pools, tmp_path: Path) -> None:
    pool = pools(1, seconds=DEADLINE_S, waiting_per_group=10)
    gate, log = str(tmp_path / "gate"), str(tmp_path / "log")
    first = asyncio.create_task(pool.run(wait_for, gate, group="A"))
    rest = [asyncio.create_task(pool.run(note, log, f"A{n}", group="A")) for n in range(2, 6)]
    await asyncio.sleep(0)
    other = asyncio.create_task(pool.run(note, log, "B", group="B"))
    Path(gate).touch()
    async with asyncio.timeout(DEADLINE_S):
        await asyncio.gather(first, *rest, other)
    assert Path(log).read_text().split() == ["B", "A2", "A3", "A4", "A5"]


async def test_a_group_that_queues_too_much_is_refused_with_a_sentence(pools, tmp_path: Path) -> None:
    pool = pools(1, seconds=DEADLINE_S, waiting_per_group=2)
    gate = str(tmp_path / "gate")
    held = [asyncio.create_task(pool.run(wait_for, gate, group="A")) for _ in range(3)]  # one runs, two wait
    await asyncio.sleep(0)
    with pytest.raises(Overloaded) as refused:
        await pool.run(wait_for, gate, group="A")
    assert refused.value.message == OVERLOADED
    other = asyncio.create_task(pool.run(wait_for, gate, group="B"))  # another group is still taken
    loose = [asyncio.create_task(pool.run(wait_for, gate)) for _ in range(3)]  # no group: each its own
    Path(gate).touch()
    async with asyncio.timeout(DEADLINE_S):
        assert await asyncio.gather(*held, other, *loose) == [gate] * 7


async def test_a_job_whose_caller_leaves_before_it_runs_never_runs(pools, tmp_path: Path) -> None:
    pool = pools(1, seconds=DEADLINE_S)
    gate, log = str(tmp_path / "gate"), str(tmp_path / "log")
    first = asyncio.create_task(pool.run(wait_for, gate, group="A"))
    left = asyncio.create_task(pool.run(note, log, "left", group="B"))
    await asyncio.sleep(0)
    left.cancel()
    Path(gate).touch()
    async with asyncio.timeout(DEADLINE_S):
        await first
        assert await pool.run(note, log, "stayed", group="B") == "stayed"
    assert Path(log).read_text().split() == ["stayed"]


class HangingPool(WorkerPool):
    """An odds pool whose every question hangs in the worker, with a short budget."""

    async def run(self, fn, *args, group=None, seconds=None):
        if fn is os.getpid:
            return await super().run(fn, group=group)
        return await super().run(hang, group=group, seconds=seconds)


async def test_an_odds_question_that_hangs_is_a_sentence_and_the_pool_goes_on(app, forced) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    pool = HangingPool("odds-test", 1, seconds=0.5, grace=0.5)
    try:
        commands = OddsCommands(app.ctx, pool)
        shot = {"shooter": "Rossi", "target": "Bo", "range": 20, "los": "clear"}
        async with asyncio.timeout(DEADLINE_S):
            with pytest.raises(Refusal) as refused:
                await commands.odds(caller(RED, "Rita"), "ssg", "shoot", shot)
            assert refused.value.message == TOO_LONG
            assert not commands._asking  # the player may ask again
            assert await pool.run(os.getpid, group="elsewhere") != os.getpid()
    finally:
        pool.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_worker_whose_bot_is_gone_ends_quietly(tmp_path: Path) -> None:
    """The bot killed or restarted while its worker works: the worker's answer finds the pipe
    broken, and the worker ends without a traceback in the bot's log (its stderr)."""
    gate = tmp_path / "gate"
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    worker = context.Process(target=serve, args=(theirs, os.getpid(), 0, ()))
    worker.start()
    theirs.close()
    ours.send((wait_for, (str(gate),)))
    assert ours.recv() == ("started", None)
    ours.close()  # the bot is gone
    gate.touch()
    worker.join(DEADLINE_S)
    assert worker.exitcode == 0
